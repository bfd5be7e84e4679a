// Service plans and their visits (issue #18, docs/product.md "Schedule"): generation 8 weeks ahead, exactly once
// however often and however many servers run it, across daylight-saving changes; moved, skipped and completed visits
// never come back; moving "this and following", ending and changing a plan touch only future, untouched visits.
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations, servicePlans, visits } from '~/db/schema'
import { addDays, isoWeekday, localDateAt } from '~/schedule/local-date'
import { generationWindow, occurrences } from '~/schedule/recurrence'
import { zonedParts } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { skipAsOffice } from '../../tests/helpers/visits'
import { archiveCustomer, restoreCustomer } from './customer-changes.server'
import { editServicePlan } from './plan-edits.server'
import { createServicePlan, endServicePlan } from './service-plan.server'
import { deactivateMember } from './team.server'
import { cancelVisit, moveVisit } from './visit.server'
import { completeVisit } from './visit-changes.server'
import { generateVisits } from './visit-generation.server'

let blue: string
let sunset: string
let tyler: string
let maya: string
// 2026-10-20 is a Tuesday; New York leaves daylight saving on Sunday 2026-11-01, inside the 8 weeks.
const NOW = new Date('2026-10-20T14:00:00Z')
const ZONE = 'America/New_York'

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  const techs = await db().select({ id: profiles.id, email: profiles.email }).from(profiles)
  tyler = techs.find((t) => t.email === 'tech@bluelagoon.test')?.id ?? ''
  maya = techs.find((t) => t.email === 'tech2@bluelagoon.test')?.id ?? ''
})

let counter = 0
async function newLocation(companyId = blue) {
  counter += 1
  const customer = await addTestCustomer(companyId, {
    customerName: `Plan Test ${counter}`,
    address: `${counter} Plan St, Tampa, FL 33606`,
  })
  return customer
}

async function visitsOf(planIds: string[]) {
  const rows = await db()
    .select({
      id: visits.id,
      planId: visits.planId,
      occurrenceDate: visits.occurrenceDate,
      scheduledAt: visits.scheduledAt,
      technicianId: visits.technicianId,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
    })
    .from(visits)
    .where(
      sql`${visits.planId} in (${sql.join(
        planIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    )
    .orderBy(visits.scheduledAt)
  return rows
}

async function plansAt(locationId: string) {
  return db().select().from(servicePlans).where(eq(servicePlans.locationId, locationId)).orderBy(servicePlans.startsOn)
}

async function addPlan(locationId: string, fields: Record<string, string> = {}, now = NOW) {
  const created = await createServicePlan(
    { companyId: blue, locationId, now },
    { frequencyWeeks: '1', weekday: '1', technicianId: tyler, startsOn: '2026-10-01', rate: '85', ...fields },
  )
  if (!created.ok) throw new Error(created.message)
  return created
}

describe('generation', () => {
  it('keeps a weekly Monday plan 8 weeks ahead: 8 Mondays at 08:00 New York time across the DST change', async () => {
    const { locationId } = await newLocation()
    const { planId, visits } = await addPlan(locationId, { serviceWindow: 'morning' })
    expect(visits).toBe(8)
    const rows = await visitsOf([planId])
    expect(rows.map((row) => row.occurrenceDate)).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
      '2026-12-07',
      '2026-12-14',
    ])
    for (const row of rows) {
      const local = zonedParts(row.scheduledAt, ZONE)
      expect(localDateAt(row.scheduledAt, ZONE)).toBe(row.occurrenceDate)
      expect([local.hour, local.minute]).toEqual([8, 0])
      expect(row.technicianId).toBe(tyler)
    }
    // Before and after the change the UTC hour differs by one: the wall clock is what stays.
    expect(rows[0]?.scheduledAt.toISOString()).toBe('2026-10-26T12:00:00.000Z')
    expect(rows[1]?.scheduledAt.toISOString()).toBe('2026-11-02T13:00:00.000Z')
  })

  it('creates each visit once when run twice, and when several servers run it at the same moment', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId, { frequencyWeeks: '2', weekday: '3' })
    const later = new Date(NOW.getTime() + 21 * 86_400_000)
    expect((await generateVisits({ now: NOW, companyId: blue, planIds: [planId] })).created).toBe(0)
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => generateVisits({ now: later, companyId: blue, planIds: [planId] })),
    )
    const rows = await visitsOf([planId])
    const window = generationWindow(later, ZONE)
    const expected = occurrences(
      { frequencyWeeks: 2, weekday: 3, startsOn: '2026-10-01', endsOn: null },
      '2026-10-20',
      window.to,
    )
    expect(rows.map((row) => row.occurrenceDate)).toEqual(expected)
    // Between them, the four runs created exactly the visits that were missing.
    expect(runs.reduce((sum, run) => sum + run.created, 0)).toBe(expected.length - 4)
  })

  it('never brings back a visit that was moved, skipped, canceled or completed', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const [first, second, third, fourth] = await visitsOf([planId])
    if (!first || !second || !third || !fourth) throw new Error('no visits')
    const moved = await moveVisit({
      companyId: blue,
      visitId: first.id,
      input: { date: '2026-10-28', technicianId: maya, scope: 'one' },
      now: NOW,
    })
    expect(moved.ok).toBe(true)
    expect((await skipAsOffice({ companyId: blue, visitId: second.id, reason: 'Weather', now: NOW })).ok).toBe(true)
    expect((await cancelVisit({ companyId: blue, visitId: third.id, now: NOW })).ok).toBe(true)
    await completeVisit({ companyId: blue, visitId: fourth.id, now: NOW })
    expect((await generateVisits({ now: NOW, companyId: blue, planIds: [planId] })).created).toBe(0)
    const rows = await visitsOf([planId])
    expect(rows).toHaveLength(8)
    const movedRow = rows.find((row) => row.id === first.id)
    expect(movedRow).toMatchObject({ occurrenceDate: '2026-10-26', technicianId: maya })
    expect(localDateAt(movedRow?.scheduledAt ?? new Date(0), ZONE)).toBe('2026-10-28')
    expect(rows.find((row) => row.id === second.id)?.skipReason).toBe('Weather')
  })

  it('generates nothing for an archived customer, and only the company’s own plans', async () => {
    const sunsetPlace = await newLocation(sunset)
    const created = await createServicePlan(
      { companyId: blue, locationId: sunsetPlace.locationId, now: NOW },
      { frequencyWeeks: '1', weekday: '1', startsOn: '2026-10-01' },
    )
    expect(created).toMatchObject({ ok: false, code: 'not-found' })
    const withTech = await createServicePlan(
      { companyId: sunset, locationId: sunsetPlace.locationId, now: NOW },
      { frequencyWeeks: '1', weekday: '1', startsOn: '2026-10-01', technicianId: tyler },
    )
    expect(withTech).toMatchObject({ ok: false, code: 'invalid', message: 'Choose one of your technicians.' })
  })

  it('explains bad plan input in the form’s words', async () => {
    const { locationId } = await newLocation()
    const bad = async (fields: Record<string, string>) =>
      createServicePlan(
        { companyId: blue, locationId, now: NOW },
        { frequencyWeeks: '1', weekday: '1', startsOn: '2026-10-01', ...fields },
      )
    expect(await bad({ frequencyWeeks: '5' })).toMatchObject({ message: 'Choose a "Frequency".' })
    expect(await bad({ startsOn: '2026-02-30' })).toMatchObject({ message: '"Starts on" must be a date.' })
    expect(await bad({ endsOn: '2026-09-01' })).toMatchObject({ message: '"Ends on" cannot be before "Starts on".' })
    expect(await bad({ rate: '12.345' })).toMatchObject({ message: 'Enter the "Rate" in dollars, like 85 or 85.50.' })
  })
})

describe('archive and restore', () => {
  it('archiving cancels the plan’s visits; restoring brings back those still ahead, and the skipped one stays skipped', async () => {
    const customer = await newLocation()
    const { planId } = await addPlan(customer.locationId)
    const [first, second] = await visitsOf([planId])
    if (!first || !second) throw new Error('no visits')
    await skipAsOffice({ companyId: blue, visitId: second.id, reason: 'Customer request', now: NOW })
    const archivedAt = new Date(NOW.getTime() + 60_000)
    await archiveCustomer({ companyId: blue, customerId: customer.id, now: archivedAt })
    const archived = await visitsOf([planId])
    expect(archived.every((row) => row.canceledAt !== null)).toBe(true)
    expect((await generateVisits({ now: NOW, companyId: blue, planIds: [planId] })).created).toBe(0)
    expect((await restoreCustomer({ companyId: blue, customerId: customer.id, now: archivedAt })).ok).toBe(true)
    const restored = await visitsOf([planId])
    expect(restored).toHaveLength(8)
    expect(restored.filter((row) => row.canceledAt === null)).toHaveLength(7)
    expect(restored.find((row) => row.occurrenceDate === second.occurrenceDate)?.skipReason).toBe('Customer request')
  })
})

describe('bad moves and leaving technicians', () => {
  it('refuses a move into the past or onto a day the plan already has a visit, and changes nothing', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const [first, second] = await visitsOf([planId])
    if (!first || !second) throw new Error('no visits')
    expect(
      await moveVisit({ companyId: blue, visitId: first.id, input: { date: '2026-10-19', scope: 'one' }, now: NOW }),
    ).toMatchObject({ ok: false, message: 'Choose today or a later date.' })
    expect(
      await moveVisit({
        companyId: blue,
        visitId: first.id,
        input: { date: second.occurrenceDate ?? '', scope: 'one' },
        now: NOW,
      }),
    ).toMatchObject({
      ok: false,
      code: 'conflict',
      message: `This plan already has a visit on ${second.occurrenceDate}.`,
    })
    expect(await visitsOf([planId])).toEqual(await visitsOf([planId]))
    expect((await visitsOf([planId]))[0]).toMatchObject({ id: first.id, scheduledAt: first.scheduledAt })
  })

  it('deactivating a technician leaves their future visits, and the plan’s next ones, unassigned', async () => {
    const { locationId } = await newLocation()
    const [owner] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'owner@bluelagoon.test'))
    const [noah] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'newtech@bluelagoon.test'))
    if (!owner || !noah) throw new Error('no staff')
    const { planId } = await addPlan(locationId, { technicianId: noah.id })
    expect(await deactivateMember({ companyId: blue, actorId: owner.id, memberId: noah.id })).toEqual({ ok: true })
    await generateVisits({ now: new Date(NOW.getTime() + 14 * 86_400_000), companyId: blue, planIds: [planId] })
    const rows = await visitsOf([planId])
    expect(rows).toHaveLength(10)
    expect(rows.every((row) => row.technicianId === null)).toBe(true)
    const created = await createServicePlan(
      { companyId: blue, locationId, now: NOW },
      { frequencyWeeks: '1', weekday: '2', startsOn: '2026-10-01', technicianId: noah.id },
    )
    expect(created).toMatchObject({ ok: false, message: 'Choose one of your technicians.' })
  })
})

describe('changing a plan', () => {
  it('"This and following visits" ends the plan the day before and follows the new day with the new technician', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const [first, second] = await visitsOf([planId])
    if (!first || !second) throw new Error('no visits')
    await completeVisit({ companyId: blue, visitId: first.id, now: NOW })
    const moved = await moveVisit({
      companyId: blue,
      visitId: second.id,
      input: { date: '2026-11-04', technicianId: maya, scope: 'following' },
      now: NOW,
    })
    if (!moved.ok) throw new Error(moved.message)
    const plans = await plansAt(locationId)
    expect(plans).toHaveLength(2)
    expect(plans[0]).toMatchObject({ weekday: 1, endsOn: '2026-11-01' })
    expect(plans[1]).toMatchObject({ weekday: 3, startsOn: '2026-11-02', technicianId: maya })
    const rows = await visitsOf(plans.map((plan) => plan.id))
    // The completed Monday stays; every later visit is a Wednesday with Maya; still 8 weeks ahead.
    expect(rows[0]).toMatchObject({ id: first.id, occurrenceDate: '2026-10-26' })
    expect(rows.slice(1).every((row) => isoWeekday(row.occurrenceDate ?? '') === 3 && row.technicianId === maya)).toBe(
      true,
    )
    expect(rows.slice(1).map((row) => row.occurrenceDate)[0]).toBe('2026-11-04')
    expect(rows.at(-1)?.occurrenceDate).toBe('2026-12-09')
    expect(moved.visitId).toBe(rows[1]?.id)
  })

  it('ending a plan removes its untouched future visits and keeps the skipped one', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const rows = await visitsOf([planId])
    const skipped = rows[5]
    if (!skipped) throw new Error('no visit')
    await skipAsOffice({ companyId: blue, visitId: skipped.id, reason: 'Pool closed', now: NOW })
    const ended = await endServicePlan({ companyId: blue, planId, endsOn: '2026-11-10', now: NOW })
    expect(ended.ok).toBe(true)
    const left = await visitsOf([planId])
    expect(left.map((row) => row.occurrenceDate)).toEqual(['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-30'])
    expect(left.at(-1)?.skipReason).toBe('Pool closed')
    expect((await generateVisits({ now: NOW, companyId: blue, planIds: [planId] })).created).toBe(0)
  })

  it('a technician change from a date reassigns only the untouched visits from then on', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const before = await visitsOf([planId])
    const moved = before[3]
    if (!moved) throw new Error('no visit')
    await moveVisit({
      companyId: blue,
      visitId: moved.id,
      input: { date: '2026-11-17', technicianId: tyler, scope: 'one' },
      now: NOW,
    })
    const changed = await editServicePlan({
      companyId: blue,
      planId,
      input: { frequencyWeeks: '1', weekday: '1', technicianId: maya, rate: '85', from: '2026-11-09' },
      now: NOW,
    })
    if (!changed.ok) throw new Error(changed.message)
    const plans = await plansAt(locationId)
    const rows = await visitsOf(plans.map((plan) => plan.id))
    expect(rows).toHaveLength(8)
    for (const row of rows) {
      const expected = row.id === moved.id || (row.occurrenceDate ?? '') < '2026-11-09' ? tyler : maya
      expect([row.occurrenceDate, row.technicianId]).toEqual([row.occurrenceDate, expected])
    }
  })

  it('refuses another company’s visit as not found and a finished one as a conflict', async () => {
    const { locationId } = await newLocation()
    const { planId } = await addPlan(locationId)
    const [first, second] = await visitsOf([planId])
    if (!first || !second) throw new Error('no visits')
    expect(await skipAsOffice({ companyId: sunset, visitId: first.id, reason: 'Weather' })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    await cancelVisit({ companyId: blue, visitId: first.id, now: NOW })
    expect(await cancelVisit({ companyId: blue, visitId: first.id, now: NOW })).toMatchObject({
      ok: false,
      code: 'conflict',
    })
    expect(
      await moveVisit({ companyId: blue, visitId: first.id, input: { date: '2026-10-30', scope: 'one' }, now: NOW }),
    ).toMatchObject({ ok: false, code: 'conflict' })
    expect(await skipAsOffice({ companyId: blue, visitId: first.id, reason: 'Weather' })).toMatchObject({
      ok: false,
      code: 'conflict',
    })
    // An open visit, skipped as "Other" without the words, is refused for what is missing.
    expect(await skipAsOffice({ companyId: blue, visitId: second.id, reason: 'Other', otherReason: '' })).toMatchObject(
      {
        ok: false,
        message: 'Say why the visit is skipped.',
      },
    )
  })
})

describe('rolling generation (property)', () => {
  it('over a year of runs spanning DST changes: each occurrence of each window once, on its weekday in the zone; moves and skips stay', async () => {
    const zones = ['America/New_York', 'America/Phoenix', 'Europe/London', 'Australia/Sydney']
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          frequencyWeeks: fc.integer({ min: 1, max: 4 }),
          weekday: fc.integer({ min: 1, max: 7 }),
          startOffset: fc.integer({ min: -400, max: 60 }),
          // Runs a day to ten weeks apart over about a year: a gap longer than the 8-week window leaves dates no run
          // ever covered, which is what a server switched off for that long would do.
          steps: fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 2, maxLength: 8 }),
          zone: fc.constantFrom(...zones),
          window: fc.constantFrom('morning', 'afternoon', 'flexible'),
          touch: fc.nat(),
        }),
        async ({ frequencyWeeks, weekday, startOffset, steps, zone, window, touch }) => {
          await db().update(companies).set({ timezone: zone }).where(eq(companies.id, blue))
          try {
            const { locationId } = await newLocation()
            const today = localDateAt(NOW, zone)
            const startsOn = addDays(today, startOffset)
            const created = await createServicePlan(
              { companyId: blue, locationId, now: NOW },
              {
                frequencyWeeks: String(frequencyWeeks),
                weekday: String(weekday),
                startsOn,
                serviceWindow: window as 'morning',
              },
            )
            if (!created.ok) throw new Error(created.message)
            const plan = { frequencyWeeks: frequencyWeeks as 1, weekday: weekday as 1, startsOn, endsOn: null }
            const expected = new Set(occurrences(plan, today, generationWindow(NOW, zone).to))
            // One visit skipped and one moved (this visit only) after the first run: both stay as they are.
            const first = await visitsOf([created.planId])
            const skipped = first[touch % first.length]
            const moved = first[(touch + 1) % first.length]
            if (skipped) await skipAsOffice({ companyId: blue, visitId: skipped.id, reason: 'Weather', now: NOW })
            let movedTo: string | null = null
            if (moved && moved.id !== skipped?.id) {
              const to = addDays(moved.occurrenceDate ?? today, 1)
              const result = await moveVisit({
                companyId: blue,
                visitId: moved.id,
                input: { date: to, technicianId: maya, scope: 'one' },
                now: NOW,
              })
              if (result.ok) movedTo = to
            }
            let now = NOW
            for (const days of steps) {
              now = new Date(now.getTime() + days * 86_400_000)
              // Two at once: on PostgreSQL each on its own connection.
              await Promise.all([
                generateVisits({ now, companyId: blue, planIds: [created.planId] }),
                generateVisits({ now, companyId: blue, planIds: [created.planId] }),
              ])
              for (const date of occurrences(plan, localDateAt(now, zone), generationWindow(now, zone).to)) {
                expected.add(date)
              }
            }
            const rows = await visitsOf([created.planId])
            const dates = rows.map((row) => row.occurrenceDate ?? '').sort()
            expect(dates).toEqual([...expected].sort())
            for (const row of rows) {
              if (row.id === moved?.id && movedTo) {
                expect(localDateAt(row.scheduledAt, zone)).toBe(movedTo)
                expect(row.technicianId).toBe(maya)
              } else {
                expect(localDateAt(row.scheduledAt, zone)).toBe(row.occurrenceDate)
                expect(isoWeekday(row.occurrenceDate ?? '')).toBe(weekday)
              }
            }
            if (skipped) expect(rows.find((row) => row.id === skipped.id)?.skipReason).toBe('Weather')
          } finally {
            await db().update(companies).set({ timezone: ZONE }).where(eq(companies.id, blue))
          }
        },
      ),
      { numRuns: 25 },
    )
  })

  it('the seeded demo plans generate their visits at their locations, each at most once per date', async () => {
    await generateVisits({ now: NOW })
    const again = await generateVisits({ now: NOW })
    expect(again.created).toBe(0)
    const [row] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(visits)
      .innerJoin(servicePlans, and(eq(servicePlans.companyId, visits.companyId), eq(servicePlans.id, visits.planId)))
      .where(and(isNotNull(visits.planId), sql`${visits.locationId} <> ${servicePlans.locationId}`))
    expect(row?.n).toBe(0)
    const [locations] = await db().select({ n: sql<number>`count(*)::int` }).from(serviceLocations)
    expect(locations?.n).toBeGreaterThan(0)
  })
})
