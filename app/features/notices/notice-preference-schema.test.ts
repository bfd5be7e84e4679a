import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { NOTICE_PREFERENCE_INTENT, NoticePreferenceSchema } from './notice-preference-schema'

function form(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.append(name, value)
  return formData
}

describe('a notice switch', () => {
  it('reads the channel and the state the switch asks for', () => {
    const submission = parseWithZod(form({ intent: NOTICE_PREFERENCE_INTENT, channel: 'text', enabled: 'off' }), {
      schema: NoticePreferenceSchema,
    })
    expect(submission.status === 'success' && submission.value).toEqual({ channel: 'text', enabled: 'off' })
  })

  it('refuses any other channel or state, naming what to choose', () => {
    const submission = parseWithZod(form({ channel: 'fax', enabled: 'maybe' }), { schema: NoticePreferenceSchema })
    expect(submission.status === 'error' && submission.error).toEqual({
      channel: ['Choose email or text.'],
      enabled: ['Choose on or off.'],
    })
  })
})
