// The dispatcher's home (issue 38 item 5, decision 049): one "Overdue" on every dashboard — open, and from before
// today in the company's timezone — and the counts a dispatcher acts on, each agreeing with the list it opens. The data
// is made relative to the real clock and to each company's own midnight, so the tests hold at any hour and weekday,
// in timezones where today has just begun or is about to end.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, user, visits } from '~/db/schema'
import { startOfZonedDay } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { getBusinessCounts, getDispatchCounts, getTechCounts, zonedWeekRange } from './dashboard-counts.server'
import { foldActivity, listDispatchVisits, listRecentActivity, listTodaysRoutes } from './dispatch-home.server'
import { visitState } from './visit-state'

const HOUR = 3_600_000
// Far ahead of UTC (today began there hours before it did in London), far behind it, and a US zone.
const ZONES = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Los_Angeles']

type Company = { companyId: string; techId: string; customer: TestCustomer; timezone: string }

async function makeCompany(timezone: string): Promise<Company> {
  const [company] = await db()
    .insert(companies)
    .values({ name: `Overdue ${timezone}`, timezone })
    .returning()
  const companyId = company?.id ?? ''
  const techId = randomUUID()
  const email = `${techId}@overdue.test`
  await db().insert(user).values({ id: techId, name: 'Tess Tech', email })
  await db().insert(profiles).values({ id: techId, companyId, email, fullName: 'Tess Tech', role: 'tech' })
  const customer = await addTestCustomer(companyId, { customerName: 'Harold Jenkins', address: '1 Elm St' })
  return { companyId, techId, customer, timezone }
}

function visit(company: Company, scheduledAt: Date, extra: Partial<typeof visits.$inferInsert> = {}) {
  return {
    companyId: company.companyId,
    customerId: company.customer.id,
    locationId: company.customer.locationId,
    customerName: company.customer.customerName,
    address: company.customer.address,
    scheduledAt,
    ...extra,
  }
}

describe('"Overdue" is one rule on every dashboard', () => {
  for (const timezone of ZONES) {
    it(`counts open visits from before today in ${timezone}, wherever now falls in the day`, async () => {
      const company = await makeCompany(timezone)
      const now = new Date()
      const todayStart = startOfZonedDay(now, timezone)
      const tech = { technicianId: company.techId }
      // A minute either side of the company's midnight, and earlier in the week: only what is before midnight counts.
      await db()
        .insert(visits)
        .values([
          visit(company, new Date(todayStart.getTime() - 60_000), tech), // overdue
          visit(company, new Date(todayStart.getTime() - 30 * HOUR)), // overdue, unassigned
          visit(company, new Date(todayStart.getTime() + 60_000), tech), // today: not overdue, even if past
          visit(company, new Date(todayStart.getTime() - 2 * HOUR), { ...tech, completedAt: now }),
          visit(company, new Date(todayStart.getTime() - 3 * HOUR), { canceledAt: now, skipReason: 'Locked gate' }),
          visit(company, new Date(todayStart.getTime() - 4 * HOUR), { canceledAt: now }),
        ])
      const args = { companyId: company.companyId, timezone, now }
      const [dispatch, business, techCounts, list] = await Promise.all([
        getDispatchCounts(args),
        getBusinessCounts(args),
        getTechCounts({ ...args, technicianId: company.techId }),
        listDispatchVisits({ ...args, list: 'overdue' }),
      ])
      expect(dispatch.overdue).toBe(2)
      expect(business.overdue).toBe(2)
      expect(techCounts.overdue).toBe(1)
      // The list the count opens holds the same visits, and each is labeled "Overdue".
      expect(list).toHaveLength(2)
      expect(list.map((row) => visitState(row, { now, timezone }))).toEqual(['Overdue', 'Overdue'])
      expect(
        visitState({ completedAt: null, scheduledAt: new Date(todayStart.getTime() + 60_000) }, { now, timezone }),
      ).toBe('Scheduled')
    })
  }
})

describe("the dispatcher's counts", () => {
  it('say unassigned and skipped this week, each matching the list it opens', async () => {
    const timezone = 'America/New_York'
    const company = await makeCompany(timezone)
    const now = new Date()
    const week = zonedWeekRange(now, timezone)
    const inWeek = (hours: number) => new Date(week.start.getTime() + hours * HOUR)
    const tech = { technicianId: company.techId }
    await db()
      .insert(visits)
      .values([
        visit(company, inWeek(10)), // unassigned this week
        visit(company, inWeek(24 * 7 - 1)), // unassigned, the week's last hour
        visit(company, inWeek(-1)), // unassigned, last week: not this week
        visit(company, inWeek(24 * 7 + 1)), // unassigned, next week
        visit(company, inWeek(30), tech), // assigned
        visit(company, inWeek(40), { canceledAt: now, skipReason: 'Rain' }), // skipped this week
        visit(company, inWeek(-30), { canceledAt: now, skipReason: 'Rain' }), // skipped last week
        visit(company, inWeek(50), { canceledAt: now }), // canceled: neither
      ])
    const args = { companyId: company.companyId, timezone, now }
    const counts = await getDispatchCounts(args)
    expect(counts.unassignedThisWeek).toBe(2)
    expect(counts.skippedThisWeek).toBe(1)
    expect(counts.unassigned).toBe(4)
    const unassigned = await listDispatchVisits({ ...args, list: 'unassigned-week' })
    expect(unassigned.map((row) => row.scheduledAt.getTime())).toEqual([inWeek(10).getTime(), inWeek(167).getTime()])
    const skipped = await listDispatchVisits({ ...args, list: 'skipped-week' })
    expect(skipped.map((row) => row.skipReason)).toEqual(['Rain'])
    // The counts are one statement, whatever the company holds.
  })

  it("group today's routes by technician, done of all, unassigned last", async () => {
    const timezone = 'Pacific/Kiritimati'
    const company = await makeCompany(timezone)
    const now = new Date()
    const start = startOfZonedDay(now, timezone)
    const tech = { technicianId: company.techId }
    await db()
      .insert(visits)
      .values([
        visit(company, new Date(start.getTime() + 60_000), { ...tech, completedAt: now }),
        visit(company, new Date(start.getTime() + 2 * HOUR), { ...tech, canceledAt: now, skipReason: 'Dog loose' }),
        visit(company, new Date(start.getTime() + 23 * HOUR), tech),
        visit(company, new Date(start.getTime() + 3 * HOUR), { ...tech, canceledAt: now }), // no stop
        visit(company, new Date(start.getTime() + 4 * HOUR)),
        visit(company, new Date(start.getTime() - 60_000), tech), // yesterday
      ])
    expect(await listTodaysRoutes({ companyId: company.companyId, timezone, now })).toEqual([
      { technicianId: company.techId, technicianName: 'Tess Tech', done: 2, total: 3 },
      { technicianId: null, technicianName: null, done: 0, total: 1 },
    ])
  })
})

describe('recent activity', () => {
  let company: Company
  beforeAll(async () => {
    company = await makeCompany('America/Chicago')
  })

  it('folds a run of one customer\'s new visits into one line ("8 visits scheduled")', async () => {
    const other = await addTestCustomer(company.companyId, { customerName: 'Ada Park', address: '2 Oak St' })
    const created = (minutes: number) => new Date(Date.now() - minutes * 60_000)
    const day = (days: number) => new Date(Date.now() + days * 24 * HOUR)
    await db()
      .insert(visits)
      .values([
        ...Array.from({ length: 8 }, (_, i) => visit(company, day(7 * (i + 1)), { createdAt: created(5) })),
        {
          ...visit(company, day(1), { createdAt: created(3) }),
          customerId: other.id,
          locationId: other.locationId,
          customerName: 'Ada Park',
        },
        visit(company, day(2), { createdAt: created(1) }),
      ])
    const lines = await listRecentActivity({ companyId: company.companyId })
    expect(lines.map((line) => [line.customerName, line.count])).toEqual([
      ['Harold Jenkins', 1],
      ['Ada Park', 1],
      ['Harold Jenkins', 8],
    ])
    expect(lines[2]?.firstScheduledAt.getTime()).toBeLessThan(lines[2]?.lastScheduledAt.getTime() ?? 0)
  })

  it('keeps a technician on a folded line only when every visit has the same one', () => {
    const row = (id: string, technicianName: string | null) => ({
      id,
      customerId: 'c',
      customerName: 'C',
      createdAt: new Date(0),
      scheduledAt: new Date(0),
      technicianName,
    })
    expect(foldActivity([row('1', 'A'), row('2', 'A')])[0]?.technicianName).toBe('A')
    expect(foldActivity([row('1', 'A'), row('2', 'B')])[0]?.technicianName).toBeNull()
  })
})
