// Labor in "Profit per pool" from approved time (docs/profit.md, docs/time.md): before a technician's week is
// approved a visit's labor is the location's "Minutes on site" × the technician's "Hourly cost"; once the week is
// approved it is the visit's on-site minutes on the approved timesheet day (inside the day's start and end in force,
// less breaks) × the hourly cost. An office edit of the day before approval moves the pool's labor; reopening the week
// brings back the estimate. Every date is fixed (a past week), so the test holds at any hour.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import {
  companies,
  profiles,
  serviceLocations,
  timeEvents,
  timesheetApprovals,
  user,
  visitChemicalAdditions,
  visits,
} from '~/db/schema'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { dayTotals } from '~/schedule/timesheet'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { laborTotals, profitReportPage, profitReportRows } from './profit-report.server'
import { weekTimesheet } from './timesheet.server'
import { approveWeek, editDay, reopenWeek } from './timesheet-edits.server'
import { mondayOf } from './week-board.server'

const ZONE = 'America/New_York'
const MONDAY = '2026-11-09'
const TUESDAY = '2026-11-10'
const NEXT_TUESDAY = '2026-11-17'
const at = (date: string, time: string) => instantAt(date, time, ZONE)
const NOVEMBER = { timezone: ZONE, from: '2026-11-01', to: '2026-11-30' }

async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: ZONE }).returning()
  if (!company) throw new Error('no company')
  return company.id
}

async function person(company: string, role: 'tech' | 'owner', name: string, hourlyCostCents: number | null = null) {
  const id = randomUUID()
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${id.slice(0, 6)}@example.com`
  await db().insert(user).values({ id, email, name, emailVerified: true })
  await db()
    .insert(profiles)
    .values({ id, companyId: company, role, email, fullName: name, hasCompletedSetup: true, hourlyCostCents })
  return id
}

/** A completed visit with the phone's times: "On my way", its first chemical (the arrival), "Mark Complete". */
async function visit(
  company: string,
  customer: TestCustomer,
  technicianId: string,
  times: { onMyWay: Date; arrived: Date; done: Date },
) {
  const [row] = await db()
    .insert(visits)
    .values({
      companyId: company,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      scheduledAt: times.onMyWay,
      technicianId,
      onMyWayAt: times.onMyWay,
      completedOnPhoneAt: times.done,
      completedAt: new Date(times.done.getTime() + 60_000),
    })
    .returning({ id: visits.id })
  if (!row) throw new Error('no visit')
  await db().insert(visitChemicalAdditions).values({
    companyId: company,
    visitId: row.id,
    product: 'Liquid chlorine',
    quantity: 1,
    unit: 'gal',
    addedAt: times.arrived,
  })
  return row.id
}

/** The phone's taps of a day, as the clock records them. */
async function clockDay(
  company: string,
  technicianId: string,
  date: string,
  taps: Array<['start' | 'break-start' | 'break-end' | 'end', Date]>,
) {
  await db()
    .insert(timeEvents)
    .values(
      taps.map(([kind, moment]) => ({
        companyId: company,
        technicianId,
        workDate: date,
        kind,
        at: moment,
        source: 'phone' as const,
        recordedBy: technicianId,
      })),
    )
}

describe('labor from approved timesheets', () => {
  let companyId: string
  let techId: string
  let ownerId: string
  let pool: TestCustomer
  const owner = () => ({ id: ownerId, companyId, timezone: ZONE })
  const poolRow = async () => {
    const { rows, totals } = await profitReportRows({ ...NOVEMBER, companyId })
    return { row: rows.find((candidate) => candidate.locationId === pool.locationId), totals }
  }

  beforeAll(async () => {
    companyId = await newCompany('Approved Labor Pools')
    // $60.00 an hour: a dollar a minute.
    techId = await person(companyId, 'tech', 'Lara Labor', 6000)
    ownerId = await person(companyId, 'owner', 'Olive Owner')
    pool = await addTestCustomer(companyId, { customerName: 'Labor Lou', address: '5 Labor Way, Tampa, FL 33606' })
    await db().update(serviceLocations).set({ minutesOnSite: 45 }).where(eq(serviceLocations.id, pool.locationId))
    // Tuesday: on site 10:00 → 10:50 with a break 10:20 → 10:30 (40 min on site); the day 8:00 AM → 4:00 PM.
    await visit(companyId, pool, techId, {
      onMyWay: at(TUESDAY, '09:40'),
      arrived: at(TUESDAY, '10:00'),
      done: at(TUESDAY, '10:50'),
    })
    await clockDay(companyId, techId, TUESDAY, [
      ['start', at(TUESDAY, '08:00')],
      ['break-start', at(TUESDAY, '10:20')],
      ['break-end', at(TUESDAY, '10:30')],
      ['end', at(TUESDAY, '16:00')],
    ])
    // The next Tuesday's visit is in a week no one approves.
    await visit(companyId, pool, techId, {
      onMyWay: at(NEXT_TUESDAY, '09:40'),
      arrived: at(NEXT_TUESDAY, '10:00'),
      done: at(NEXT_TUESDAY, '11:30'),
    })
    await clockDay(companyId, techId, NEXT_TUESDAY, [
      ['start', at(NEXT_TUESDAY, '08:00')],
      ['end', at(NEXT_TUESDAY, '16:00')],
    ])
  })

  it('estimates from time on site before approval, follows the approved day after, and again the estimate when reopened', async () => {
    // Before approval: 2 × 45 min × $1.00.
    const before = await poolRow()
    expect(before.row).toMatchObject({
      visits: 2,
      minutesOnSite: 90,
      laborCostCents: 9000,
      approvedVisits: 0,
      laborBasis: 'estimated',
    })

    // The office corrects Tuesday's end to 10:35 AM (she left early), then approves the week.
    expect(
      await editDay(owner(), { technicianId: techId, date: TUESDAY, start: null, end: '10:35', reason: 'Left early' }),
    ).toMatchObject({ ok: true })
    expect(await approveWeek(owner(), { technicianId: techId, weekStart: MONDAY })).toMatchObject({ ok: true })
    // The timesheet's Tuesday: on site 10:00 → 10:35 less the 10-minute break = 25 minutes.
    const week = await weekTimesheet({ companyId, technicianId: techId, weekStart: MONDAY, timezone: ZONE })
    expect(week?.days.find((day) => day.date === TUESDAY)?.onSiteMinutes).toBe(25)

    // Tuesday's visit now counts its 25 approved minutes ($25.00); the next week's is still the 45-minute estimate.
    const after = await poolRow()
    expect(after.row).toMatchObject({
      visits: 2,
      minutesOnSite: 25 + 45,
      laborCostCents: 2500 + 4500,
      approvedVisits: 1,
      laborBasis: 'mixed',
    })
    expect(after.totals).toMatchObject({ laborCostCents: 7000, approvedVisits: 1 })
    // Tuesday alone: every visit of the row from the approved timesheet.
    const tuesday = await profitReportRows({ ...NOVEMBER, companyId, from: TUESDAY, to: TUESDAY })
    expect(tuesday.rows[0]).toMatchObject({ laborCostCents: 2500, minutesOnSite: 25, laborBasis: 'approved' })

    // Reopened, the week is no longer approved time: the estimate again.
    expect(
      await reopenWeek(owner(), { technicianId: techId, weekStart: MONDAY, reason: 'Wrong end time' }),
    ).toMatchObject({ ok: true })
    expect((await poolRow()).row).toMatchObject({ laborCostCents: 9000, approvedVisits: 0, laborBasis: 'estimated' })
  })
})

describe("the owner's dashboard", () => {
  it("shows this month's labor as the report counts it: estimated, then from the approved week", async () => {
    const companyId = await newCompany('Dashboard Labor Pools')
    const techId = await person(companyId, 'tech', 'Dana Dash', 6000)
    const ownerId = await person(companyId, 'owner', 'Owen Owner')
    const pool = await addTestCustomer(companyId, { customerName: 'Dash Dee', address: '7 Dash Way, Tampa, FL 33606' })
    await db().update(serviceLocations).set({ minutesOnSite: 30 }).where(eq(serviceLocations.id, pool.locationId))
    // Today (the company's date, whatever the hour): on site 9:10 → 9:30 AM, the day 8:00 AM → 4:00 PM.
    const today = localDateAt(new Date(), ZONE)
    await visit(companyId, pool, techId, {
      onMyWay: at(today, '09:00'),
      arrived: at(today, '09:10'),
      done: at(today, '09:30'),
    })
    await clockDay(companyId, techId, today, [
      ['start', at(today, '08:00')],
      ['end', at(today, '16:00')],
    ])
    const before = await loadOwnerDashboard({ companyId, timezone: ZONE })
    expect(before.labor).toMatchObject({ thisMonth: '$30.00', basis: 'estimated from time on site', visits: 1 })
    expect(
      await approveWeek(
        { id: ownerId, companyId, timezone: ZONE },
        { technicianId: techId, weekStart: mondayOf(today) },
      ),
    ).toMatchObject({ ok: true })
    const after = await loadOwnerDashboard({ companyId, timezone: ZONE })
    expect(after.labor).toMatchObject({ thisMonth: '$20.00', basis: 'from approved timesheets', visits: 1 })
  })
})

// Property: whatever the days on the clock, breaks, visits, hourly costs and approvals, labor per pool is the sum of
// its visits' labor (approved minutes where the week is approved — the pure timesheet's on-site minutes of that stop
// on that day — else the location's estimate, × hourly cost, half up per visit), and the pools add up to the total
// over the period, page by page.
describe('labor per pool, any approvals', () => {
  let companyId: string
  let technicians: string[]
  let places: TestCustomer[]

  beforeAll(async () => {
    companyId = await newCompany('Labor Property Pools')
    technicians = [await person(companyId, 'tech', 'Prop Tech One'), await person(companyId, 'tech', 'Prop Tech Two')]
    places = [
      await addTestCustomer(companyId, { customerName: 'Labor One', address: '1 Labor St, Tampa, FL 33606' }),
      await addTestCustomer(companyId, { customerName: 'Labor Two', address: '2 Labor St, Tampa, FL 33606' }),
      await addTestCustomer(companyId, { customerName: 'Labor Three', address: '3 Labor St, Tampa, FL 33606' }),
    ]
  })

  const halfUp = (numerator: number, denominator: number) =>
    Math.floor((2 * numerator + denominator) / (2 * denominator))

  it('sums each pool from its visits and the pools to the total, under both bases', async () => {
    // Days, breaks and visits in the same morning hours, so visits cross the day's ends and its breaks.
    const day = fc.record({
      start: fc.integer({ min: 7 * 60, max: 10 * 60 }),
      length: fc.integer({ min: 0, max: 6 * 60 }),
      pause: fc.option(
        fc.record({ after: fc.integer({ min: 0, max: 240 }), length: fc.integer({ min: 1, max: 90 }) }),
        {
          freq: 2,
        },
      ),
    })
    const scenario = fc.record({
      costs: fc.tuple(fc.option(fc.integer({ min: 0, max: 20_000 })), fc.option(fc.integer({ min: 0, max: 20_000 }))),
      estimates: fc.tuple(
        fc.integer({ min: 1, max: 240 }),
        fc.integer({ min: 1, max: 240 }),
        fc.integer({ min: 1, max: 240 }),
      ),
      approved: fc.tuple(fc.boolean(), fc.boolean()),
      // Two days of each technician's week (Monday and Wednesday); null: not on the clock.
      days: fc.tuple(
        fc.option(day, { freq: 4 }),
        fc.option(day, { freq: 4 }),
        fc.option(day, { freq: 4 }),
        fc.option(day, { freq: 4 }),
      ),
      visits: fc.array(
        fc.record({
          place: fc.integer({ min: 0, max: 2 }),
          technician: fc.integer({ min: 0, max: 1 }),
          day: fc.integer({ min: 0, max: 1 }),
          onMyWay: fc.integer({ min: 7 * 60, max: 13 * 60 }),
          drive: fc.integer({ min: 0, max: 40 }),
          onSite: fc.integer({ min: 0, max: 120 }),
          seconds: fc.integer({ min: 0, max: 59 }),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      size: fc.integer({ min: 1, max: 3 }),
    })
    const dates = [MONDAY, addDays(MONDAY, 2)]
    const instant = (date: string, minute: number, seconds = 0) =>
      new Date(at(date, '00:00').getTime() + minute * 60_000 + seconds * 1000)
    await fc.assert(
      fc.asyncProperty(scenario, async ({ costs, estimates, approved, days, visits: visitList, size }) => {
        await db().delete(visits).where(eq(visits.companyId, companyId))
        await db().delete(timeEvents).where(eq(timeEvents.companyId, companyId))
        await db().delete(timesheetApprovals).where(eq(timesheetApprovals.companyId, companyId))
        for (const [n, id] of technicians.entries()) {
          await db()
            .update(profiles)
            .set({ hourlyCostCents: costs[n] ?? null })
            .where(eq(profiles.id, id))
          if (approved[n]) {
            await db()
              .insert(timesheetApprovals)
              .values({ companyId, technicianId: id, weekStart: MONDAY, seq: 1, action: 'approve', actedBy: id })
          }
        }
        for (const [n, place] of places.entries()) {
          await db()
            .update(serviceLocations)
            .set({ minutesOnSite: estimates[n] })
            .where(eq(serviceLocations.id, place.locationId))
        }
        // Each technician's clocked days, kept for the expected figures.
        const clocked = new Map<string, Array<{ kind: 'start' | 'break-start' | 'break-end' | 'end'; at: Date }>>()
        for (const [n, shape] of days.entries()) {
          if (!shape) continue
          const technician = n < 2 ? 0 : 1
          const date = dates[n % 2] as string
          const events: Array<{ kind: 'start' | 'break-start' | 'break-end' | 'end'; at: Date }> = [
            { kind: 'start', at: instant(date, shape.start) },
            { kind: 'end', at: instant(date, shape.start + shape.length) },
          ]
          if (shape.pause && shape.pause.after < shape.length) {
            const from = shape.start + shape.pause.after
            events.push({ kind: 'break-start', at: instant(date, from) })
            events.push({
              kind: 'break-end',
              at: instant(date, Math.min(from + shape.pause.length, shape.start + shape.length)),
            })
          }
          clocked.set(`${technician} ${date}`, events)
          await clockDay(
            companyId,
            technicians[technician] as string,
            date,
            events.map((event) => [event.kind, event.at]),
          )
        }
        const expected = places.map(() => ({ labor: 0, visits: 0, approved: 0 }))
        for (const v of visitList) {
          const date = dates[v.day] as string
          const onMyWay = instant(date, v.onMyWay, v.seconds)
          const arrived = instant(date, v.onMyWay + v.drive, v.seconds)
          const done = instant(date, v.onMyWay + v.drive + v.onSite, v.seconds)
          await visit(companyId, places[v.place] as TestCustomer, technicians[v.technician] as string, {
            onMyWay,
            arrived,
            done,
          })
          const events = clocked.get(`${v.technician} ${date}`)
          const fromTimesheet = approved[v.technician] && events !== undefined
          const minutes = fromTimesheet
            ? dayTotals(events, [{ onMyWayAt: onMyWay, arrivedAt: arrived, completedAt: done }]).onSiteMinutes
            : (estimates[v.place] as number)
          const sums = expected[v.place] as { labor: number; visits: number; approved: number }
          sums.visits += 1
          sums.approved += fromTimesheet ? 1 : 0
          sums.labor += halfUp(minutes * (costs[v.technician] ?? 0), 60)
        }
        const { rows, totals } = await profitReportRows({ ...NOVEMBER, companyId })
        for (const [n, place] of places.entries()) {
          const row = rows.find((candidate) => candidate.locationId === place.locationId)
          const sums = expected[n] as { labor: number; visits: number; approved: number }
          if (sums.visits === 0) {
            expect(row).toBeUndefined()
            continue
          }
          expect(row).toMatchObject({ laborCostCents: sums.labor, visits: sums.visits, approvedVisits: sums.approved })
        }
        const total = expected.reduce((sum, e) => sum + e.labor, 0)
        expect(totals.laborCostCents).toBe(total)
        expect(rows.reduce((sum, row) => sum + row.laborCostCents, 0)).toBe(total)
        expect(totals.approvedVisits).toBe(expected.reduce((sum, e) => sum + e.approved, 0))
        // The owner's dashboard counts the same labor with its own, smaller statement.
        expect(await laborTotals({ ...NOVEMBER, companyId })).toEqual({
          laborCostCents: total,
          visits: visitList.length,
          approvedVisits: totals.approvedVisits,
          visitsWithoutCost: visitList.filter((v) => costs[v.technician] === null).length,
        })
        // Page by page, sorted by labor: the pages' rows add up to the same total.
        let paged = 0
        for (let page = 1; page <= Math.ceil(rows.length / size); page++) {
          const shown = await profitReportPage({ ...NOVEMBER, companyId, sort: 'labor', dir: 'desc', size, page })
          expect(shown.totals.laborCostCents).toBe(total)
          paged += shown.rows.reduce((sum, row) => sum + row.laborCostCents, 0)
        }
        expect(paged).toBe(total)
      }),
      { numRuns: 25 },
    )
  })
})
