import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, profiles, visits } from '~/db/schema'
import { ASSIGN_MESSAGES } from '~/features/visits/assign-visit-schema'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { UNKNOWN_INTENT } from '~/utils/result'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './visit'

const post = (cookie: string, visitId: string, fields: Record<string, string>) =>
  formRequest(`/app/visits/${visitId}`, fields, cookie)

let tech2Visit: string

beforeAll(async () => {
  await useDemoData()
  const [tech2] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'tech2@bluelagoon.test'))
  const [visit] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.technicianId, tech2?.id ?? ''), isNull(visits.completedAt)))
    .limit(1)
  tech2Visit = visit?.id ?? ''
})

const ACTIONS: Array<Record<string, string>> = [
  { intent: 'complete' },
  { intent: 'reading', ph: '7.4', chlorinePpm: '3', alkalinity: '90' },
  { intent: 'assign', technicianId: '', scheduledAt: '2026-12-01T09:00' },
]

describe('visit page', () => {
  it("is a 404 for another company's owner, on the page and every action, and changes nothing", async () => {
    const cookie = await signInAs('owner@sunsetpools.test')
    expect(
      statusOf(
        (await settle(loader(routeArgs(pageRequest(`/app/visits/${tech2Visit}`, cookie), { visitId: tech2Visit }))))
          .thrown,
      ),
    ).toBe(404)
    for (const fields of ACTIONS) {
      const { thrown } = await settle(action(routeArgs(post(cookie, tech2Visit, fields), { visitId: tech2Visit })))
      expect(statusOf(thrown)).toBe(404)
    }
    const [visit] = await db().select().from(visits).where(eq(visits.id, tech2Visit))
    expect(visit?.completedAt).toBeNull()
    expect(await db().select().from(chemLogs).where(eq(chemLogs.visitId, tech2Visit))).toHaveLength(0)
  })

  it("is a 404 page for a technician on a teammate's visit; Mark Complete there is refused as on the phone", async () => {
    const cookie = await signInAs('tech@bluelagoon.test')
    expect(
      statusOf(
        (await settle(loader(routeArgs(pageRequest(`/app/visits/${tech2Visit}`, cookie), { visitId: tech2Visit }))))
          .thrown,
      ),
    ).toBe(404)
    const refused = (await action(
      routeArgs(post(cookie, tech2Visit, { intent: 'complete' }), { visitId: tech2Visit }),
    )) as unknown as {
      data: { error: string }
      init: { status: number }
    }
    expect(refused.init.status).toBe(409)
    expect(refused.data.error).toBe(FIELD_MESSAGES.reassigned)
    const [visit] = await db().select().from(visits).where(eq(visits.id, tech2Visit))
    expect(visit?.completedAt).toBeNull()
  })

  it('lets technicians log readings but not reassign', async () => {
    const cookie = await signInAs('tech2@bluelagoon.test')
    const saved = (await action(routeArgs(post(cookie, tech2Visit, ACTIONS[1] ?? {}), { visitId: tech2Visit }))) as {
      ok: string
    }
    expect(saved.ok).toBe('Readings saved.')
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Visit, ACTIONS[2] ?? {}), { visitId: tech2Visit })),
    )
    expect(statusOf(thrown)).toBe(403)
  })

  it('opens read-only for platform admins, who cannot change it', async () => {
    const cookie = await signInAs('admin@poolbud.test')
    const page = (await loader(
      routeArgs(pageRequest(`/app/visits/${tech2Visit}`, cookie), { visitId: tech2Visit }),
    )) as {
      readOnly: boolean
      canManage: boolean
      companyName: string
    }
    expect(page).toMatchObject({ readOnly: true, canManage: false, companyName: 'Blue Lagoon Pool Co.' })
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Visit, { intent: 'complete' }), { visitId: tech2Visit })),
    )
    expect(statusOf(thrown)).toBe(403)
  })

  it('Mark Complete returns to the dashboard', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Visit, { intent: 'complete' }), { visitId: tech2Visit })),
    )
    expect((thrown as Response).headers.get('location')).toBe('/app')
    const [visit] = await db().select().from(visits).where(eq(visits.id, tech2Visit))
    expect(visit?.completedAt).not.toBeNull()
  })

  it('Mark Complete posted again (a second tap, a second tab) goes back to the dashboard as the first did', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const { thrown } = await settle(
      action(routeArgs(post(cookie, tech2Visit, { intent: 'complete' }), { visitId: tech2Visit })),
    )
    expect(thrown).toBeInstanceOf(Response)
    expect(thrown).toHaveRedirect('/app')
  })

  it('Mark Complete on a visit canceled meanwhile is refused with the reason (409), and completes nothing', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const [blue] = await db().select({ companyId: visits.companyId }).from(visits).where(eq(visits.id, tech2Visit))
    const [open] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(
        and(
          eq(visits.companyId, blue?.companyId ?? ''),
          isNull(visits.completedAt),
          isNull(visits.canceledAt),
          isNull(visits.skipReason),
        ),
      )
      .limit(1)
    const visitId = open?.id ?? ''
    await db().update(visits).set({ canceledAt: new Date() }).where(eq(visits.id, visitId))
    const refused = (await action(
      routeArgs(post(cookie, visitId, { intent: 'complete' }), { visitId }),
    )) as unknown as {
      data: { intent: string; error: string }
      init: { status: number }
    }
    expect(refused.init.status).toBe(409)
    expect(refused.data).toMatchObject({ intent: 'complete', error: FIELD_MESSAGES.canceled })
    const [row] = await db().select({ completedAt: visits.completedAt }).from(visits).where(eq(visits.id, visitId))
    expect(row?.completedAt).toBeNull()
  })

  it('answers a post no form of the page sends with the 400 "Unknown action."', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const posts: Record<string, string>[] = [{}, { intent: 'launch' }]
    for (const fields of posts) {
      const { thrown } = await settle(action(routeArgs(post(cookie, tech2Visit, fields), { visitId: tech2Visit })))
      expect(thrown).toMatchObject({ data: UNKNOWN_INTENT, init: { status: 400 } })
    }
  })
})

describe('water balance and dosing on the visit page', () => {
  let techVisit: string
  let cookie: string

  beforeAll(async () => {
    const [tech] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'tech@bluelagoon.test'))
    const [visit] = await db()
      .select({ id: visits.id })
      .from(visits)
      // Open work: a reading on a visit skipped or canceled is refused (applyFieldChange), as on the phone.
      .where(and(eq(visits.technicianId, tech?.id ?? ''), isNull(visits.completedAt), isNull(visits.canceledAt)))
      .limit(1)
    techVisit = visit?.id ?? ''
    cookie = await signInAs('tech@bluelagoon.test')
  })

  type Page = {
    visit: { pool: string | null }
    logs: { ph: number; cyanuricAcid: number | null; summary: { statuses: { text: string }[] } }[]
    advice: { parameter: string; kind: string; text: string }[] | null
  }
  const page = async () =>
    (await loader(routeArgs(pageRequest(`/app/visits/${techVisit}`, cookie), { visitId: techVisit }))) as Page

  it('shows the pool, flags pH high and chlorine low, and doses each on a 15,000-gallon chlorine pool', async () => {
    const saved = (await action(
      routeArgs(post(cookie, techVisit, { intent: 'reading', ph: '7.9', chlorinePpm: '0.5', alkalinity: '70' }), {
        visitId: techVisit,
      }),
    )) as { ok: string }
    expect(saved.ok).toBe('Readings saved.')
    const { visit, logs, advice } = await page()
    expect(visit.pool).toBe('15,000 gal · chlorine · plaster · outdoor')
    expect(logs[0]?.summary.statuses.map((s) => s.text)).toEqual(expect.arrayContaining(['pH high', 'chlorine low']))
    expect(advice?.find((line) => line.parameter === 'ph')?.text).toMatch(/^Add [\d.]+ fl oz of muriatic acid/)
    expect(advice?.find((line) => line.parameter === 'chlorine')?.text).toMatch(
      /^Add 38\.4 fl oz of liquid chlorine \(12\.5 %\)/,
    )
  })

  it('stores the optional readings and refuses one out of range with its own message, saving nothing', async () => {
    const before = await db().select({ id: chemLogs.id }).from(chemLogs).where(eq(chemLogs.visitId, techVisit))
    const refused = (await action(
      routeArgs(
        post(cookie, techVisit, {
          intent: 'reading',
          ph: '7.5',
          chlorinePpm: '3',
          alkalinity: '90',
          cyanuricAcid: '400',
        }),
        { visitId: techVisit },
      ),
    )) as { init: { status: number }; data: { result: { error: Record<string, string[]> } } }
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.cyanuricAcid).toEqual(['Cyanuric acid must be between 0 and 300 ppm.'])
    const after = await db().select({ id: chemLogs.id }).from(chemLogs).where(eq(chemLogs.visitId, techVisit))
    expect(after).toHaveLength(before.length)

    await action(
      routeArgs(
        post(cookie, techVisit, {
          intent: 'reading',
          ph: '7.5',
          chlorinePpm: '3',
          alkalinity: '80',
          cyanuricAcid: '50',
          calciumHardness: '300',
          salt: '',
          waterTempF: '84',
        }),
        { visitId: techVisit },
      ),
    )
    const { logs } = await page()
    expect(logs[0]).toMatchObject({ ph: 7.5, cyanuricAcid: 50, calciumHardness: 300, salt: null, waterTempF: 84 })
    expect(logs[0]?.summary).toMatchObject({ balance: { status: 'Balanced' } })
  })
})

describe('Assign and reschedule on the visit page', () => {
  let visitId: string
  let mayaId: string
  let office: string

  type Answer = {
    init: { status: number } | null
    data: { ok: string | null; error: string | null; result: { error?: Record<string, string[] | null> } }
  }
  const assign = async (fields: Record<string, string>) =>
    (await action(routeArgs(post(office, visitId, { intent: 'assign', ...fields }), { visitId }))) as Answer
  const version = async () =>
    (
      (await loader(routeArgs(pageRequest(`/app/visits/${visitId}`, office), { visitId }))) as {
        visit: { version: string }
      }
    ).visit.version

  beforeAll(async () => {
    const [maya] = await db()
      .select({ id: profiles.id, companyId: profiles.companyId })
      .from(profiles)
      .where(eq(profiles.email, 'tech2@bluelagoon.test'))
    const [visit] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, maya?.companyId ?? ''), isNull(visits.technicianId), isNull(visits.completedAt)))
      .limit(1)
    visitId = visit?.id ?? ''
    mayaId = maya?.id ?? ''
    office = await signInAs('dispatch@bluelagoon.test')
  })

  it('saves the technician and the time, read in the company timezone', async () => {
    const saved = await assign({ technicianId: mayaId, scheduledAt: '2026-12-03T09:00', version: await version() })
    expect(saved.init?.status ?? 200).toBe(200)
    expect(saved.data).toMatchObject({ ok: 'Visit updated.', error: null })
    const [visit] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(visit?.technicianId).toBe(mayaId)
    expect(visit?.scheduledAt.toISOString()).toBe('2026-12-03T14:00:00.000Z')
  })

  it('tells the second of two edits from the same page that the visit changed (409), and saves nothing', async () => {
    const seen = await version()
    await assign({ technicianId: '', scheduledAt: '2026-12-04T09:00', version: seen })
    const late = await assign({ technicianId: mayaId, scheduledAt: '2026-12-05T09:00', version: seen })
    expect(late.init?.status).toBe(409)
    expect(late.data.error).toBe(ASSIGN_MESSAGES.conflict)
    expect(late.data.result.error?.['']).toEqual([ASSIGN_MESSAGES.conflict])
    const [visit] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(visit?.technicianId).toBeNull()
  })

  it('answers a missing time and a tampered technician at their fields (400)', async () => {
    const noTime = await assign({ technicianId: '', scheduledAt: '' })
    expect(noTime.init?.status).toBe(400)
    expect(noTime.data.error).toBe(ASSIGN_MESSAGES.schedule)
    expect(noTime.data.result.error?.scheduledAt).toEqual([ASSIGN_MESSAGES.schedule])
    const tampered = await assign({ technicianId: "' OR 1=1 --", scheduledAt: '2026-12-03T09:00' })
    expect(tampered.init?.status).toBe(400)
    expect(tampered.data.result.error?.technicianId).toEqual([ASSIGN_MESSAGES.refused])
  })
})
