import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { ASSIGN_MESSAGES, AssignVisitSchema } from './assign-visit-schema'

const TECHNICIAN = '0b7c6f9e-3c1a-4d2b-9e8f-1a2b3c4d5e6f'

function parse(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return parseWithZod(formData, { schema: AssignVisitSchema })
}

/** The messages a refused form gets, by field. */
function errorsOf(fields: Record<string, string>) {
  const submission = parse(fields)
  return submission.status === 'success' ? null : submission.error
}

describe('AssignVisitSchema', () => {
  it('takes a technician and a date and time, the time as typed (the server reads it in the company zone)', () => {
    const submission = parse({ technicianId: TECHNICIAN, scheduledAt: '2026-12-01T09:00', version: 'x' })
    expect(submission.status).toBe('success')
    expect(submission.status === 'success' && submission.value).toEqual({
      technicianId: TECHNICIAN,
      scheduledAt: '2026-12-01T09:00',
    })
  })

  it('reads a blank technician as unassigned', () => {
    const submission = parse({ technicianId: '', scheduledAt: '2026-12-01T09:00' })
    expect(submission.status === 'success' && submission.value).toEqual({ scheduledAt: '2026-12-01T09:00' })
  })

  it.each([
    ['missing', {}],
    ['blank', { scheduledAt: '' }],
    ['not a date and time', { scheduledAt: 'tomorrow' }],
    ['a date without a time', { scheduledAt: '2026-12-01' }],
    ['an impossible hour', { scheduledAt: '2026-12-01T25:00' }],
  ])('asks for a date and time when it is %s', (_, fields: Record<string, string>) => {
    expect(errorsOf({ technicianId: TECHNICIAN, ...fields })).toEqual({ scheduledAt: [ASSIGN_MESSAGES.schedule] })
  })

  it.each(['not-a-uuid', "' OR 1=1 --", `${TECHNICIAN}x`, '   '])(
    'refuses a technician id shaped like %j',
    (technicianId) => {
      expect(errorsOf({ technicianId, scheduledAt: '2026-12-01T09:00' })).toEqual({
        technicianId: [ASSIGN_MESSAGES.refused],
      })
    },
  )
})
