// "Skip visit" and "Cancel visit" on the visit page (docs/product.md "Schedule", "The visit"), through the visit route's
// loader and action.
import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, visits } from '~/db/schema'
import { generateVisits } from '~/models/visit-generation.server'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './visit'

const post = (cookie: string, visitId: string, fields: Record<string, string>) =>
  formRequest(`/app/visits/${visitId}`, fields, cookie)

type VisitPage = Awaited<ReturnType<typeof loader>>
const page = async (cookie: string, visitId: string) =>
  (await loader(routeArgs(pageRequest(`/app/visits/${visitId}`, cookie), { visitId }))) as VisitPage

/** Runs an action that should redirect back to the visit; returns the message it carries. */
async function done(cookie: string, visitId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, visitId, fields), { visitId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/visits/${visitId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

function refused(returned: unknown) {
  const value = returned as {
    data: { error?: string; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number }
  }
  return { status: value.init?.status, errors: value.data.result?.error ?? {}, error: value.data.error }
}

let dispatcher: string
let tech: string
let techVisits: string[]
let tech2Visit: string

async function openVisitsOf(email: string) {
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, email))
  const rows = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.technicianId, profile?.id ?? ''), isNull(visits.completedAt), isNull(visits.canceledAt)))
    .orderBy(visits.scheduledAt)
  return rows.map((row) => row.id)
}

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  tech = await signInAs('tech@bluelagoon.test')
  techVisits = await openVisitsOf('tech@bluelagoon.test')
  tech2Visit = (await openVisitsOf('tech2@bluelagoon.test'))[0] ?? ''
  expect(techVisits.length).toBeGreaterThanOrEqual(6)
  expect(tech2Visit).not.toBe('')
})

describe('Skip visit', () => {
  it('is offered on an open visit to the office and the visit’s technician; cancel only to the office', async () => {
    const visitId = techVisits[0] ?? ''
    expect(await page(dispatcher, visitId)).toMatchObject({ canSkip: true, canCancel: true })
    expect(await page(tech, visitId)).toMatchObject({ canSkip: true, canCancel: false })
  })

  it('lets the office skip a visit with a reason; the visit then shows "Skipped: <reason>" and offers nothing', async () => {
    const visitId = techVisits[0] ?? ''
    expect(await done(dispatcher, visitId, { intent: 'skip-visit', reason: 'Weather' })).toBe('Visit skipped.')
    const [row] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(row?.skipReason).toBe('Weather')
    expect(row?.canceledAt).not.toBeNull()
    const after = await page(dispatcher, visitId)
    expect(after.visit).toMatchObject({ status: 'Skipped', state: 'skipped', skipReason: 'Weather' })
    expect(after).toMatchObject({ canSkip: false, canCancel: false })
  })

  it('lets the visit’s own technician skip it', async () => {
    const visitId = techVisits[1] ?? ''
    expect(await done(tech, visitId, { intent: 'skip-visit', reason: 'Locked gate' })).toBe('Visit skipped.')
    expect((await page(tech, visitId)).visit.skipReason).toBe('Locked gate')
  })

  it('keeps "Other" with its words, and asks for them when missing', async () => {
    const visitId = techVisits[2] ?? ''
    const { returned } = await settle(
      action(routeArgs(post(tech, visitId, { intent: 'skip-visit', reason: 'Other' }), { visitId })),
    )
    const answer = refused(returned)
    expect(answer.status).toBe(400)
    expect(answer.errors.otherReason).toEqual(['Say why the visit is skipped.'])
    const none = refused(
      (await settle(action(routeArgs(post(tech, visitId, { intent: 'skip-visit' }), { visitId })))).returned,
    )
    expect(none.errors.reason).toEqual(['Choose a reason.'])
    await done(tech, visitId, { intent: 'skip-visit', reason: 'Other', otherReason: 'Pump room flooded' })
    expect((await page(tech, visitId)).visit.skipReason).toBe('Other: Pump room flooded')
  })

  it("is refused to a technician on a teammate's visit, as on the phone, and changes nothing", async () => {
    const { returned } = await settle(
      action(routeArgs(post(tech, tech2Visit, { intent: 'skip-visit', reason: 'Weather' }), { visitId: tech2Visit })),
    )
    const answer = refused(returned)
    expect(answer.status).toBe(409)
    expect(answer.errors['']).toEqual([FIELD_MESSAGES.reassigned])
    const [row] = await db().select().from(visits).where(eq(visits.id, tech2Visit))
    expect(row?.skipReason).toBeNull()
  })

  it('refuses a visit that is already finished', async () => {
    const { returned } = await settle(
      action(
        routeArgs(post(dispatcher, techVisits[0] ?? '', { intent: 'skip-visit', reason: 'Weather' }), {
          visitId: techVisits[0] ?? '',
        }),
      ),
    )
    expect(refused(returned).status).toBe(409)
  })
})

describe('Cancel visit', () => {
  it('is refused to a technician', async () => {
    const visitId = techVisits[3] ?? ''
    const { thrown } = await settle(action(routeArgs(post(tech, visitId, { intent: 'cancel-visit' }), { visitId })))
    expect(statusOf(thrown)).toBe(403)
    const [row] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(row?.canceledAt).toBeNull()
  })

  it('cancels an open visit for the office; it stays as "Canceled" and offers nothing more', async () => {
    const visitId = techVisits[3] ?? ''
    expect(await done(dispatcher, visitId, { intent: 'cancel-visit' })).toBe('Visit canceled.')
    const after = await page(dispatcher, visitId)
    expect(after.visit).toMatchObject({ status: 'Canceled', state: 'canceled', skipReason: null })
    expect(after).toMatchObject({ canSkip: false, canCancel: false })
    const again = refused(
      (await settle(action(routeArgs(post(dispatcher, visitId, { intent: 'cancel-visit' }), { visitId })))).returned,
    )
    expect(again.status).toBe(409)
    expect(again.error).toBe('This visit is already completed, skipped or canceled.')
  })

  it("is a 404 for another company's owner", async () => {
    const otherOwner = await signInAs('owner@sunsetpools.test')
    const visitId = techVisits[4] ?? ''
    const attempts: Array<Record<string, string>> = [
      { intent: 'cancel-visit' },
      { intent: 'skip-visit', reason: 'Weather' },
    ]
    for (const fields of attempts) {
      expect(statusOf((await settle(action(routeArgs(post(otherOwner, visitId, fields), { visitId })))).thrown)).toBe(
        404,
      )
    }
  })
})
