import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { addChemLog, listChemLogsForVisit } from './chem-log.server'
import { ChemReadingSchema } from './chem-reading'
import { getBusinessCounts, getDispatchCounts, getTechCounts } from './dashboard-counts.server'
import {
  listOpenVisits,
  listRecentlyCreatedVisits,
  listTechOpenVisits,
  listTodaysVisits,
  listUnassignedVisits,
} from './dashboard-lists.server'
import { listTodaysRoutes } from './dispatch-home.server'
import { ASSIGN_MESSAGES } from './visit-assignment'
import { assignmentVersion, assignVisit, COMPLETE_MESSAGES, completeVisit, createVisit } from './visit-changes.server'
import { getVisitForViewer } from './visit-record.server'
import { visitState } from './visit-state'

const REFUSED = { ok: false, code: 'invalid', message: ASSIGN_MESSAGES.refused }

let blue: string
let sunset: string
let tech: { id: string }
let tech2: { id: string }
let sunsetTech: { id: string }

async function profileByEmail(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row
}

async function openVisitOf(technicianId: string) {
  const [visit] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.technicianId, technicianId), isNull(visits.completedAt)))
    .limit(1)
  if (!visit) throw new Error('no open visit')
  return visit.id
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  tech = await profileByEmail('tech@bluelagoon.test')
  tech2 = await profileByEmail('tech2@bluelagoon.test')
  sunsetTech = await profileByEmail('tech@sunsetpools.test')
})

describe('getVisitForViewer', () => {
  it("lets a technician see their own visit but not a teammate's", async () => {
    const own = await openVisitOf(tech.id)
    const teammates = await openVisitOf(tech2.id)
    expect(await getVisitForViewer({ id: tech.id, role: 'tech', companyId: blue }, own)).not.toBeNull()
    expect(await getVisitForViewer({ id: tech.id, role: 'tech', companyId: blue }, teammates)).toBeNull()
  })

  it('lets office staff see any visit of their company, and nobody see another company’s', async () => {
    const visit = await openVisitOf(tech2.id)
    expect(await getVisitForViewer({ id: 'x', role: 'dispatcher', companyId: blue }, visit)).not.toBeNull()
    expect(await getVisitForViewer({ id: 'x', role: 'owner', companyId: sunset }, visit)).toBeNull()
    expect(await getVisitForViewer({ id: 'x', role: 'owner', companyId: blue }, 'not-a-uuid')).toBeNull()
  })
})

describe('completeVisit', () => {
  it('sets completed_at once and only inside the company', async () => {
    const visit = await openVisitOf(tech.id)
    expect(await completeVisit({ companyId: sunset, visitId: visit })).toMatchObject({ ok: false, code: 'not-found' })
    const at = new Date('2026-11-20T15:00:00Z')
    expect(await completeVisit({ companyId: blue, visitId: visit, now: at })).toEqual({ ok: true })
    expect(await completeVisit({ companyId: blue, visitId: visit })).toEqual({
      ok: false,
      code: 'conflict',
      message: COMPLETE_MESSAGES.completed,
    })
    const [row] = await db().select({ completedAt: visits.completedAt }).from(visits).where(eq(visits.id, visit))
    expect(row?.completedAt?.toISOString()).toBe(at.toISOString())
  })
})

describe('assignVisit', () => {
  it('assigns and reschedules an open visit', async () => {
    const visit = await openVisitOf(tech.id)
    const when = new Date('2026-12-01T14:00:00Z')
    expect(await assignVisit({ companyId: blue, visitId: visit, technicianId: tech2.id, scheduledAt: when })).toEqual({
      ok: true,
    })
    const [row] = await db().select().from(visits).where(eq(visits.id, visit))
    expect(row?.technicianId).toBe(tech2.id)
    expect(row?.scheduledAt.toISOString()).toBe(when.toISOString())
  })

  it("refuses another company's technician and completed visits", async () => {
    const visit = await openVisitOf(tech2.id)
    const when = new Date()
    expect(
      await assignVisit({ companyId: blue, visitId: visit, technicianId: sunsetTech.id, scheduledAt: when }),
    ).toEqual(REFUSED)
    const [done] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, blue), isNotNull(visits.completedAt)))
      .limit(1)
    expect(
      await assignVisit({ companyId: blue, visitId: done?.id ?? '', technicianId: tech.id, scheduledAt: when }),
    ).toEqual(REFUSED)
  })
})

describe('two dispatchers assigning the same visit at once', () => {
  it('end with one consistent result, and the loser is told', async () => {
    const [visit] = await db()
      .select()
      .from(visits)
      .where(and(eq(visits.companyId, blue), isNull(visits.completedAt)))
      .limit(1)
    if (!visit) throw new Error('no open visit')
    const seen = assignmentVersion(visit)
    const [tech, tech2] = (await Promise.all(
      ['tech@bluelagoon.test', 'tech2@bluelagoon.test'].map(async (email) => {
        const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
        return row?.id as string
      }),
    )) as [string, string]
    const when = new Date('2026-12-15T15:00:00Z')
    // Both saw the same version of the visit; both save at the same moment.
    const outcomes = await Promise.all(
      [tech, tech2].map((technicianId) =>
        assignVisit({ companyId: blue, visitId: visit.id, technicianId, scheduledAt: when, expectedVersion: seen }),
      ),
    )
    expect(outcomes.map((outcome) => (outcome.ok ? 'saved' : outcome.code)).sort()).toEqual(['conflict', 'saved'])
    expect(outcomes.find((outcome) => !outcome.ok)?.message).toBe(ASSIGN_MESSAGES.conflict)
    const winner = outcomes[0]?.ok ? tech : tech2
    const [row] = await db().select().from(visits).where(eq(visits.id, visit.id))
    expect(row?.technicianId).toBe(winner)
    // Saving again from the page as it is now works.
    const retry = await assignVisit({
      companyId: blue,
      visitId: visit.id,
      technicianId: tech,
      scheduledAt: when,
      expectedVersion: assignmentVersion(row as typeof visit),
    })
    expect(retry).toEqual({ ok: true })
  })
})

describe('chemistry readings', () => {
  it('requires all three readings with the spec message', () => {
    const result = ChemReadingSchema.safeParse({ ph: '7.4', chlorinePpm: '', alkalinity: '90' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.message)).toContain('Fill in all readings before submitting.')
  })

  it('refuses out-of-range and non-numeric values with a clear message', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ ph: '15', chlorinePpm: '2', alkalinity: '90' }, 'pH must be between 0 and 14.'],
      [{ ph: '7.5', chlorinePpm: '51', alkalinity: '90' }, 'Chlorine must be between 0 and 50 ppm.'],
      [{ ph: '7.5', chlorinePpm: '2', alkalinity: '-1' }, 'Alkalinity must be between 0 and 500 ppm.'],
      [{ ph: 'abc', chlorinePpm: '2', alkalinity: '90' }, 'pH must be a number.'],
    ]
    for (const [input, message] of cases) {
      const result = ChemReadingSchema.safeParse(input)
      expect(result.error?.issues.map((i) => i.message)).toContain(message)
    }
  })

  it('stores readings as numbers and lists them newest first', async () => {
    const visit = await openVisitOf(tech.id)
    const reading = ChemReadingSchema.parse({ ph: '7.4', chlorinePpm: '3', alkalinity: '95' })
    await addChemLog({ companyId: blue, visitId: visit, reading, takenAt: new Date('2026-11-01T10:00:00Z') })
    await addChemLog({
      companyId: blue,
      visitId: visit,
      reading: { ...reading, ph: 7.6 },
      takenAt: new Date('2026-11-02T10:00:00Z'),
    })
    const logs = await listChemLogsForVisit({ companyId: blue, visitId: visit })
    expect(logs.map((l) => l.ph).slice(0, 2)).toEqual([7.6, 7.4])
    expect(typeof logs[0]?.chlorinePpm).toBe('number')
    expect(await listChemLogsForVisit({ companyId: sunset, visitId: visit })).toEqual([])
  })

  it("cannot attach a reading to another company's visit", async () => {
    const visit = await openVisitOf(tech.id)
    const reading = ChemReadingSchema.parse({ ph: '7.4', chlorinePpm: '3', alkalinity: '95' })
    await expect(addChemLog({ companyId: sunset, visitId: visit, reading })).rejects.toThrow()
  })
})

describe('a canceled visit (issue #17)', () => {
  const NY = 'America/New_York'
  // Noon on Tuesday 24 November 2026 in New York.
  const now = new Date('2026-11-24T17:00:00Z')
  const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000)

  it('leaves every open-work list and count, stays in history as "Canceled", and cannot be done', async () => {
    const [company] = await db().insert(companies).values({ name: 'Cancel Pools', timezone: NY }).returning()
    const companyId = company?.id ?? ''
    const customer = await addTestCustomer(companyId, { customerName: 'Cal Cancel', address: '1 Cancel St' })
    await db().update(profiles).set({ companyId }).where(eq(profiles.id, tech.id))
    try {
      const book = async (scheduledAt: Date, technicianId: string | null) =>
        (await createVisit({ companyId, customerId: customer.id, scheduledAt, technicianId }))?.id ?? ''
      // One of each kind of open work: overdue, today (assigned and not), upcoming.
      const ids = [
        await book(at(-30), tech.id),
        await book(at(1), tech.id),
        await book(at(2), null),
        await book(at(50), tech.id),
      ]
      const snapshot = async () => ({
        dispatch: await getDispatchCounts({ companyId, timezone: NY, now }),
        business: await getBusinessCounts({ companyId, timezone: NY, now }),
        tech: await getTechCounts({ companyId, technicianId: tech.id, timezone: NY, now }),
        open: (await listOpenVisits({ companyId, limit: 50 })).length,
        unassigned: (await listUnassignedVisits({ companyId })).length,
        route: (await listTodaysRoutes({ companyId, timezone: NY, now })).reduce((n, r) => n + r.total, 0),
        today: (await listTodaysVisits({ companyId, timezone: NY, now })).length,
        techOpen: (await listTechOpenVisits({ companyId, technicianId: tech.id })).length,
      })
      expect(await snapshot()).toEqual({
        dispatch: { unassigned: 1, unassignedThisWeek: 1, today: 2, overdue: 1, skippedThisWeek: 0 },
        business: {
          open: 4,
          today: 2,
          overdue: 1,
          upcoming: 3,
          skippedThisWeek: 0,
          completedThisWeek: 0,
          completedThisMonth: 0,
        },
        tech: { today: 1, overdue: 1, completedThisWeek: 0 },
        open: 4,
        unassigned: 1,
        route: 2,
        today: 2,
        techOpen: 3,
      })

      await db().update(visits).set({ canceledAt: now }).where(inArray(visits.id, ids))
      expect(await snapshot()).toEqual({
        dispatch: { unassigned: 0, unassignedThisWeek: 0, today: 0, overdue: 0, skippedThisWeek: 0 },
        business: {
          open: 0,
          today: 0,
          overdue: 0,
          upcoming: 0,
          skippedThisWeek: 0,
          completedThisWeek: 0,
          completedThisMonth: 0,
        },
        tech: { today: 0, overdue: 0, completedThisWeek: 0 },
        open: 0,
        unassigned: 0,
        route: 0,
        today: 0,
        techOpen: 0,
      })
      // History still has them, as "Canceled".
      const recent = await listRecentlyCreatedVisits({ companyId })
      expect(recent.map((visit) => visitState(visit, { now, timezone: NY }))).toEqual([
        'Canceled',
        'Canceled',
        'Canceled',
        'Canceled',
      ])
      const viewed = await getVisitForViewer({ id: 'x', role: 'owner', companyId }, ids[1] ?? '')
      expect(viewed && visitState(viewed, { now, timezone: NY })).toBe('Canceled')
      // Nobody completes or reschedules a canceled visit.
      expect(await completeVisit({ companyId, visitId: ids[1] ?? '', now })).toEqual({
        ok: false,
        code: 'conflict',
        message: COMPLETE_MESSAGES.closed,
      })
      expect(
        await assignVisit({ companyId, visitId: ids[2] ?? '', technicianId: tech.id, scheduledAt: at(3) }),
      ).toEqual(REFUSED)
      const [row] = await db()
        .select()
        .from(visits)
        .where(eq(visits.id, ids[1] ?? ''))
      expect(row).toMatchObject({ completedAt: null, canceledAt: now })
    } finally {
      await db().update(profiles).set({ companyId: blue }).where(eq(profiles.id, tech.id))
    }
  })
})

describe('what a visit shows of its location', () => {
  it('gives the company’s staff the gate code, access notes, dog and minutes; never a platform admin', async () => {
    const dana = await addTestCustomer(blue, { customerName: 'Gate Keeper', address: '2 Gate St' })
    await db()
      .update(serviceLocations)
      .set({ gateCode: '7777#', accessNotes: 'Side gate', dogOnSite: true, minutesOnSite: 50 })
      .where(eq(serviceLocations.id, dana.locationId))
    const visit = await createVisit({
      companyId: blue,
      customerId: dana.id,
      scheduledAt: new Date(),
      technicianId: tech.id,
    })
    const access = { gateCode: '7777#', accessNotes: 'Side gate', dogOnSite: true, minutesOnSite: 50 }
    for (const viewer of [
      { id: 'x', role: 'owner', companyId: blue },
      { id: 'x', role: 'dispatcher', companyId: blue },
      { id: tech.id, role: 'tech', companyId: blue },
    ]) {
      expect((await getVisitForViewer(viewer, visit?.id ?? ''))?.access, viewer.role).toEqual(access)
    }
    const admin = await getVisitForViewer({ id: 'x', role: 'platform_admin', companyId: null }, visit?.id ?? '')
    expect(admin?.access).toBeNull()
    expect(JSON.stringify(admin)).not.toContain('7777')
    const route = await listTechOpenVisits({ companyId: blue, technicianId: tech.id })
    expect(route.find((row) => row.id === visit?.id)).toMatchObject(access)
  })
})
