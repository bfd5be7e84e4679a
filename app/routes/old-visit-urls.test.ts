// A visit's old addresses (`/jobs/…`, `/app/jobs/…`) in sent emails, bookmarks and open tabs still lead to the visit
// (docs/decisions/069-…): a page or a photo moves permanently, and a post moves with its method and body kept.
import { describe, expect, it } from 'vitest'
import { answerOf, formRequest, pageRequest, routeArgs, statusOf } from '../../tests/helpers/requests'
import { action, loader } from './old-visit-urls'

const VISIT = '5f0c3a53-2d7e-4a4b-9c55-0b8f9a0d1e21'

describe('old visit URLs', () => {
  it('moves a visit page, its data and its photos to the same path under visits, query kept', async () => {
    for (const [from, to] of [
      [`/app/jobs/${VISIT}`, `/app/visits/${VISIT}`],
      [`/app/jobs/${VISIT}?tab=photos`, `/app/visits/${VISIT}?tab=photos`],
      [`/app/jobs/${VISIT}/photos/abc`, `/app/visits/${VISIT}/photos/abc`],
      [`/jobs/${VISIT}`, `/visits/${VISIT}`],
    ]) {
      const answer = await answerOf(loader(routeArgs(pageRequest(from as string))))
      expect(statusOf(answer), from).toBe(301)
      expect(answer).toHaveRedirect(to)
    }
  })

  it('moves a post with 308, so the browser sends the same photo again to the new address', async () => {
    const answer = await answerOf(action(routeArgs(formRequest(`/app/jobs/${VISIT}/photos`, { label: 'before' }))))
    expect(statusOf(answer)).toBe(308)
    expect(answer).toHaveRedirect(`/app/visits/${VISIT}/photos`)
  })
})
