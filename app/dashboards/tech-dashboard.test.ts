import { eq, sql } from 'drizzle-orm'
import { createContext, createElement, useContext } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, companies, jobs, profiles } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { db, queryRows } from '~/utils/db.server'
import { findTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { TechDashboard } from './tech-dashboard'
import { loadTechDashboard, TECH_ROUTE_LIMIT, type TechDashboardData } from './tech-dashboard.server'

const NY = 'America/New_York'
// A fixed Wednesday, 10:00 in New York, so "today" and "this week" have known bounds:
// today is 2026-11-25 05:00Z to 2026-11-26 05:00Z, and the week began Sunday 2026-11-22 05:00Z.
const NOW = new Date('2026-11-25T15:00:00Z')
const TODAY_START = '2026-11-25T05:00:00Z'
const TODAY_END = '2026-11-26T05:00:00Z'
const WEEK_START = '2026-11-22T05:00:00Z'
const MINUTE = 60_000
const HOUR = 60 * MINUTE

let blue: string
let tech: string
let tech2: string
let newTech: string
let customer: TestCustomer

async function profileId(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row.id
}

function load(technicianId: string) {
  return loadTechDashboard({ companyId: blue, technicianId, timezone: NY, now: NOW })
}

async function count(query: ReturnType<typeof sql>) {
  const [row] = await queryRows<{ n: number }>(query)
  return row?.n ?? -1
}

async function addJob(technicianId: string, scheduledAt: Date, completedAt: Date | null = null) {
  const [row] = await db()
    .insert(jobs)
    .values({
      companyId: blue,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      scheduledAt,
      completedAt,
      technicianId,
    })
    .returning({ id: jobs.id })
  if (!row) throw new Error('job insert returned nothing')
  return row.id
}

beforeAll(async () => {
  await seedDemoData(db(), NOW)
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  if (!company) throw new Error('no Blue Lagoon')
  blue = company.id
  tech = await profileId('tech@bluelagoon.test')
  tech2 = await profileId('tech2@bluelagoon.test')
  newTech = await profileId('newtech@bluelagoon.test')
  customer = await findTestCustomer('Marcus Bell', blue)
})

describe('loadTechDashboard', () => {
  it("lists only the technician's own jobs, never a teammate's", async () => {
    const data = await load(tech)
    const ownOpen = await queryRows<{ id: string }>(
      sql`select id from jobs where company_id = ${blue} and technician_id = ${tech} and completed_at is null`,
    )
    const teammates = await queryRows<{ id: string }>(sql`select id from jobs where technician_id = ${tech2}`)
    // The seed gives both technicians work, so an unfiltered query would be caught.
    expect(ownOpen.length).toBeGreaterThan(0)
    expect(ownOpen.length).toBeLessThanOrEqual(TECH_ROUTE_LIMIT)
    expect(teammates.length).toBeGreaterThan(0)

    expect(new Set(data.route.map((job) => job.id))).toEqual(new Set(ownOpen.map((job) => job.id)))
    const shown = [...data.route, ...data.history].map((job) => job.id)
    const teammateIds = new Set(teammates.map((job) => job.id))
    expect(shown.filter((id) => teammateIds.has(id))).toEqual([])
    const owners = await queryRows<{ technician_id: string }>(
      sql`select distinct technician_id from jobs where id in (${sql.join(
        shown.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
    expect(owners).toEqual([{ technician_id: tech }])
  })

  it('orders the route by scheduled time, overdue first, and picks the next on-time visit', async () => {
    const data = await load(tech)
    const times = data.route.map((job) => Date.parse(job.scheduledAt))
    expect(times).toEqual([...times].sort((a, b) => a - b))

    // Overdue means scheduled before now: exactly a prefix of the route.
    for (const job of data.route) {
      expect(job.status).toBe(Date.parse(job.scheduledAt) < NOW.getTime() ? 'Overdue' : 'Scheduled')
    }
    const statuses = data.route.map((job) => job.status)
    expect(statuses).toContain('Scheduled')
    expect(statuses.slice(statuses.indexOf('Scheduled'))).not.toContain('Overdue')

    const [expectedNext] = await queryRows<{ id: string }>(
      sql`select id from jobs where company_id = ${blue} and technician_id = ${tech} and completed_at is null
          and scheduled_at >= ${NOW.toISOString()} order by scheduled_at asc limit 1`,
    )
    expect(data.next?.id).toBe(expectedNext?.id)
    expect(data.next?.status).toBe('Scheduled')
  })

  it('gives each stop what the technician needs at the property: gate code, access notes, dog, minutes', async () => {
    const data = await load(tech)
    const site = await queryRows<{
      id: string
      gate_code: string | null
      dog_on_site: boolean
      minutes_on_site: number
    }>(
      sql`select j.id, l.gate_code, l.dog_on_site, l.minutes_on_site from jobs j
          join service_locations l on l.company_id = j.company_id and l.id = j.location_id
          where j.company_id = ${blue} and j.technician_id = ${tech} and j.completed_at is null`,
    )
    const byId = new Map(site.map((row) => [row.id, row]))
    for (const job of data.route) {
      const expected = byId.get(job.id)
      expect(job.access).toMatchObject({
        gateCode: expected?.gate_code,
        dogOnSite: expected?.dog_on_site,
        minutesOnSite: expected?.minutes_on_site,
      })
    }
    // The demo gives some of these stops gate codes and dogs.
    expect(data.route.some((job) => job.access.gateCode)).toBe(true)
  })

  it('formats times on the New York wall clock', async () => {
    const id = await addJob(tech2, new Date('2026-11-25T19:30:00Z'))
    const data = await load(tech2)
    const job = data.route.find((row) => row.id === id)
    expect(job?.when).toBe('Today, 2:30 PM')
    expect(job?.scheduledAt).toBe('2026-11-25T19:30:00.000Z')
    expect(data.today).toBe('Nov 25, 2026')
    await db().delete(jobs).where(eq(jobs.id, id))
  })

  it('shows the 10 newest completions with their reading counts', async () => {
    // Vary the counts so a wrong join cannot pass: one newest visit with no readings,
    // and three readings on the next one.
    const noReadings = await addJob(tech, new Date(NOW.getTime() - 3 * HOUR), new Date(NOW.getTime() - MINUTE))
    const [latestSeeded] = await queryRows<{ id: string }>(
      sql`select id from jobs where technician_id = ${tech} and completed_at is not null and id <> ${noReadings}
          order by completed_at desc limit 1`,
    )
    if (!latestSeeded) throw new Error('the seed gave the technician no completed jobs')
    await db()
      .insert(chemLogs)
      .values(
        [1, 2].map((i) => ({
          companyId: blue,
          jobId: latestSeeded.id,
          ph: 7.4,
          chlorinePpm: 2,
          alkalinity: 100,
          takenAt: new Date(NOW.getTime() - i * MINUTE),
        })),
      )

    const data = await load(tech)
    const expected = await queryRows<{ id: string; completed_at: string | Date; readings: number }>(
      sql`select j.id, j.completed_at,
            (select count(*) from chem_logs c where c.job_id = j.id)::int as readings
          from jobs j
          where j.company_id = ${blue} and j.technician_id = ${tech} and j.completed_at is not null
          order by j.completed_at desc limit 10`,
    )
    const completedTotal = await count(
      sql`select count(*)::int as n from jobs where technician_id = ${tech} and completed_at is not null`,
    )
    expect(completedTotal).toBeGreaterThan(10)
    expect(data.history).toHaveLength(10)
    expect(data.history.map((job) => job.id)).toEqual(expected.map((job) => job.id))
    expect(data.history.map((job) => job.readings)).toEqual(expected.map((job) => job.readings))
    expect(data.history.map((job) => job.completedAt)).toEqual(
      expected.map((job) => new Date(job.completed_at).toISOString()),
    )
    expect(data.history[0]).toMatchObject({ id: noReadings, readings: 0 })
    expect(data.history[1]).toMatchObject({ id: latestSeeded.id, readings: 3 })
    // Each card carries the water status of its latest reading; none without a reading.
    expect(data.history[0]?.water).toBeNull()
    expect(data.history[1]?.water?.statuses[0]).toMatchObject({
      text: expect.stringMatching(/^pH (low|in range|high)$/),
    })
  })

  it('counts today, overdue, upcoming and this week over all of the technician’s jobs', async () => {
    const data = await load(tech)
    const where = sql`company_id = ${blue} and technician_id = ${tech}`
    const expected = {
      today: await count(
        sql`select count(*)::int as n from jobs where ${where} and scheduled_at >= ${TODAY_START} and scheduled_at < ${TODAY_END}`,
      ),
      overdue: await count(
        sql`select count(*)::int as n from jobs where ${where} and completed_at is null and scheduled_at < ${NOW.toISOString()}`,
      ),
      upcoming: await count(
        sql`select count(*)::int as n from jobs where ${where} and completed_at is null and scheduled_at >= ${NOW.toISOString()}`,
      ),
      completedThisWeek: await count(
        sql`select count(*)::int as n from jobs where ${where} and completed_at >= ${WEEK_START}`,
      ),
    }
    expect(expected.today).toBeGreaterThan(0)
    expect(expected.completedThisWeek).toBeGreaterThan(0)
    expect(data.counts).toEqual(expected)
    expect(data.openTotal).toBe(expected.overdue + expected.upcoming)
  })

  it('starts "completed this week" at Sunday 00:00 New York time, not UTC', async () => {
    const before = await load(tech)
    const sunday = Date.parse(WEEK_START)
    // Saturday 23:59 in New York is already Sunday in UTC: a UTC week would count it.
    await addJob(tech, new Date(sunday - 3 * HOUR), new Date(sunday - MINUTE))
    const inside = await addJob(tech, new Date(sunday - 2 * HOUR), new Date(sunday + MINUTE))
    const after = await load(tech)
    expect(after.counts.completedThisWeek).toBe(before.counts.completedThisWeek + 1)
    const justAfter = await count(
      sql`select count(*)::int as n from jobs where id = ${inside} and completed_at >= ${WEEK_START}`,
    )
    expect(justAfter).toBe(1)
  })

  it('caps the route at 100 jobs but counts every open job, and finds the next on-time visit past the backlog', async () => {
    const start = new Date(NOW.getTime() - 10 * 24 * HOUR)
    const ids: string[] = []
    // 120 late jobs an hour apart for a technician the seed gave none, and one for tomorrow.
    for (let i = 0; i < 120; i++) ids.push(await addJob(newTech, new Date(start.getTime() + i * HOUR)))
    const tomorrow = await addJob(newTech, new Date(NOW.getTime() + 24 * HOUR))
    const data = await load(newTech)
    expect(data.route).toHaveLength(TECH_ROUTE_LIMIT)
    expect(data.route.map((job) => job.id)).toEqual(ids.slice(0, TECH_ROUTE_LIMIT))
    expect(data.openTotal).toBe(121)
    expect(data.counts.overdue + data.counts.upcoming).toBe(121)
    expect(data.next).toMatchObject({ id: tomorrow, status: 'Scheduled' })
  })
})

// The dashboard uses <Form> and useNavigation, which need a data router around it; the data
// reaches the stub's route through context so the stub itself can be defined once.
const DataContext = createContext<TechDashboardData | null>(null)

function DashboardRoute() {
  const data = useContext(DataContext)
  return data ? createElement(TechDashboard, { data }) : null
}

const Stub = createRoutesStub([{ path: '/app', Component: DashboardRoute }])

function render(data: TechDashboardData) {
  return renderToString(
    createElement(DataContext.Provider, { value: data }, createElement(Stub, { initialEntries: ['/app'] })),
  )
}

describe('TechDashboard', () => {
  it('shows the empty states to a technician with no jobs', async () => {
    const data = await load(await profileId('tech@sunsetpools.test'))
    expect(data.route).toEqual([])
    expect(data.history).toEqual([])
    const html = render(data)
    expect(html).toContain('No open jobs assigned to you. Enjoy the sunshine.')
    expect(html).toContain('No completed visits yet.')
    expect(html).toContain('Nothing scheduled')
    expect(html).toMatch(/<h1[^>]*>Today&#x27;s route<\/h1>/)
  })

  it('renders each open job with its details link and a Mark Complete form posting to the job', async () => {
    const data = await load(tech)
    const html = render(data)
    // Checked as booleans: a failing toContain would print the whole page.
    const has = (text: string) => html.includes(text)
    const [job] = data.route
    if (!job) throw new Error('no route')
    expect(has(`href="/app/jobs/${job.id}"`)).toBe(true)
    expect(has(`action="/app/jobs/${job.id}"`)).toBe(true)
    expect(html.match(/name="intent" value="complete"/g)).toHaveLength(data.route.length)
    const overdue = data.route.filter((row) => row.status === 'Overdue').length
    expect(overdue).toBeGreaterThan(0)
    expect(has(`>${data.counts.overdue} overdue<`)).toBe(true)
    expect(html.match(/>Overdue</g)).toHaveLength(overdue)
    const [visit] = data.history
    if (!visit) throw new Error('no history')
    expect(has(`href="/app/jobs/${visit.id}"`)).toBe(true)
    expect(has(visit.readings === 0 ? 'No readings' : `${visit.readings} reading`)).toBe(true)
  })
})
