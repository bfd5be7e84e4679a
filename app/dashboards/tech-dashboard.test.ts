import { eq, sql } from 'drizzle-orm'
import { createContext, createElement, useContext } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, companies, profiles, visits } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { listDayStops } from '~/models/day-stops.server'
import { generateVisits } from '~/models/visit-generation.server'
import { db, queryRows } from '~/utils/db.server'
import { findTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { TechDashboard } from './tech-dashboard'
import { loadTechDashboard, OVERDUE_LIST_LIMIT, type TechDashboardData, type TechTab } from './tech-dashboard.server'

const NY = 'America/New_York'
// A fixed Wednesday, 10:00 in New York, so "today" and "this week" have known bounds: today is 2026-11-25 05:00Z to
// 2026-11-26 05:00Z, and the week (docs/product.md "Easy to get wrong") began Monday 2026-11-23 05:00Z and ends Monday
// 2026-11-30 05:00Z.
const NOW = new Date('2026-11-25T15:00:00Z')
const TODAY_START = '2026-11-25T05:00:00Z'
const TODAY_END = '2026-11-26T05:00:00Z'
const WEEK_START = '2026-11-23T05:00:00Z'
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

function load(technicianId: string, tab: TechTab = 'today') {
  return loadTechDashboard({ companyId: blue, technicianId, timezone: NY, tab, now: NOW })
}

async function count(query: ReturnType<typeof sql>) {
  const [row] = await queryRows<{ n: number }>(query)
  return row?.n ?? -1
}

async function addVisit(
  technicianId: string,
  scheduledAt: Date,
  completedAt: Date | null = null,
  extra: { routePosition?: number; skipReason?: string } = {},
) {
  const [row] = await db()
    .insert(visits)
    .values({
      companyId: blue,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: customer.customerName,
      address: customer.address,
      scheduledAt,
      completedAt,
      technicianId,
      routePosition: extra.routePosition ?? null,
      skipReason: extra.skipReason ?? null,
      canceledAt: extra.skipReason ? NOW : null,
    })
    .returning({ id: visits.id })
  if (!row) throw new Error('visit insert returned nothing')
  return row.id
}

beforeAll(async () => {
  await seedDemoData(db(), NOW)
  // The server generates plan visits at start-up; the seed alone has none.
  await generateVisits({ now: NOW })
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

/** The technician's visits in [from, to) in route order, as the spec defines it, straight from SQL. */
async function expectedStops(technicianId: string, from: string, to: string) {
  const rows = await queryRows<{ id: string }>(
    sql`select id from visits where company_id = ${blue} and technician_id = ${technicianId}
        and scheduled_at >= ${from} and scheduled_at < ${to} and (canceled_at is null or skip_reason is not null)
        order by route_position asc nulls last, scheduled_at asc, id asc`,
  )
  return rows.map((row) => row.id)
}

describe('loadTechDashboard: Today', () => {
  it("lists today's visits of this technician only, in route order, numbered over the whole day", async () => {
    const data = await load(tech)
    const expected = await expectedStops(tech, TODAY_START, TODAY_END)
    // The seed and the generated plan visits give the demo technician a day's work, and a backlog from earlier days.
    expect(expected.length).toBeGreaterThan(1)
    expect(data.stops.map((stop) => stop.id)).toEqual(expected)
    expect(data.stops.map((stop) => stop.number)).toEqual(expected.map((_, index) => index + 1))
    const ownOpen = await count(
      sql`select count(*)::int as n from visits where company_id = ${blue} and technician_id = ${tech}
          and completed_at is null and canceled_at is null`,
    )
    // Not a flat list of every visit ever assigned.
    expect(ownOpen).toBeGreaterThan(data.stops.length)
    const teammates = await queryRows<{ id: string }>(sql`select id from visits where technician_id = ${tech2}`)
    expect(teammates.length).toBeGreaterThan(0)
    const teammateIds = new Set(teammates.map((visit) => visit.id))
    expect([...data.stops, ...data.history].filter((visit) => teammateIds.has(visit.id))).toEqual([])
    // Each tab loads only what it shows.
    expect(data.week).toEqual([])
    expect(data.overdue).toEqual([])
  })

  it('numbers stops by route_position first, then time; finished stops keep their number', async () => {
    const at = (time: string) => new Date(`2026-11-25T${time}:00Z`)
    // 13:00, 09:00 and 11:00 in New York; the office put 13:00 first and 09:00 second.
    const afternoon = await addVisit(newTech, at('18:00'), null, { routePosition: 1 })
    const morning = await addVisit(newTech, at('14:00'), null, { routePosition: 2 })
    const late = await addVisit(newTech, at('16:00'))
    const early = await addVisit(newTech, at('13:00'))
    // Yesterday's open visit is overdue, not one of today's stops.
    const yesterday = await addVisit(newTech, new Date('2026-11-24T15:00:00Z'))
    try {
      let data = await load(newTech)
      expect(data.stops.map((stop) => [stop.id, stop.number])).toEqual([
        [afternoon, 1],
        [morning, 2],
        [early, 3],
        [late, 4],
      ])
      expect(data.stops.map((stop) => stop.time)).toEqual(['1:00 PM', '9:00 AM', '8:00 AM', '11:00 AM'])
      expect(data.counts).toMatchObject({ today: 4, overdue: 1 })

      // The first stop is done and the next one skipped: both stay on the day with their numbers, out of "today".
      await db().update(visits).set({ completedAt: NOW }).where(eq(visits.id, afternoon))
      await db().update(visits).set({ canceledAt: NOW, skipReason: 'Locked gate' }).where(eq(visits.id, morning))
      data = await load(newTech)
      expect(data.stops.map((stop) => [stop.number, stop.state])).toEqual([
        [1, 'completed'],
        [2, 'skipped'],
        [3, 'open'],
        [4, 'open'],
      ])
      expect(data.counts).toMatchObject({ today: 2, overdue: 1 })

      const html = render(data)
      const upNext = html.slice(html.indexOf('Up next'), html.indexOf('Later today'))
      expect(upNext).toContain('Stop 3 of 4')
      expect(upNext).toContain(`href="/app/visits/${early}"`)
      expect(html).toContain('Stop 4 of 4')
      const finished = html.slice(html.indexOf('Finished ('))
      expect(finished).toContain('Stop 1 of 4 · 1:00 PM')
      expect(finished).toContain('Stop 2 of 4 · 9:00 AM')
      expect(html).toMatch(/<summary[^>]*>.*Finished \(2\)<\/summary>/)
      expect(html).toContain('Skipped: Locked gate')
      expect(html).toContain('>1 overdue visit from earlier days<')
      expect(html).toContain('href="/app?tab=overdue"')
      const overdue = await load(newTech, 'overdue')
      expect(overdue.overdue.map((visit) => visit.id)).toEqual([yesterday])
      expect(render(overdue)).toContain('Overdue visits')
    } finally {
      await db().delete(visits).where(eq(visits.technicianId, newTech))
    }
  })

  it("shows each open stop the route's ETA, which moves when the office reorders the day", async () => {
    const at = (time: string) => new Date(`2026-11-25T${time}:00Z`)
    const first = await addVisit(newTech, at('13:00'), null, { routePosition: 1 })
    const second = await addVisit(newTech, at('14:00'), null, { routePosition: 2 })
    try {
      const data = await load(newTech)
      const etas = data.stops.map((stop) => stop.eta)
      expect(etas).toEqual([expect.stringMatching(/^8:\d\d AM$/), expect.stringMatching(/^\d{1,2}:\d\d AM$/)])
      // The same place twice: the second is reached when the first's minutes on site are over.
      expect(etas[1]).not.toBe(etas[0])
      expect(render(data)).toContain(`<time>ETA ${etas[0]}</time>`)

      await db().update(visits).set({ routePosition: 3 }).where(eq(visits.id, first))
      const moved = await load(newTech)
      expect(moved.stops.map((stop) => [stop.id, stop.eta])).toEqual([
        [second, etas[0]],
        [first, etas[1]],
      ])
    } finally {
      await db().delete(visits).where(eq(visits.technicianId, newTech))
    }
  })

  it('gives "Up next" a Directions link to the address that opens in a new tab', async () => {
    const data = await load(tech)
    const next = data.stops.find((stop) => stop.state === 'open')
    if (!next) throw new Error('the demo technician has no open stop today')
    expect(next.directions).toBe(
      `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(next.address)}`,
    )
    const html = render(data)
    const href = next.directions.replaceAll('&', '&amp;')
    expect(html).toContain(`href="${href}" target="_blank" rel="noopener noreferrer"`)
  })

  it('gives each stop what the technician needs at the property: gate code, access notes, dog, minutes', async () => {
    const data = await load(tech)
    const site = await queryRows<{
      id: string
      gate_code: string | null
      access_notes: string | null
      dog_on_site: boolean
      minutes_on_site: number
    }>(
      sql`select j.id, l.gate_code, l.access_notes, l.dog_on_site, l.minutes_on_site from visits j
          join service_locations l on l.company_id = j.company_id and l.id = j.location_id
          where j.company_id = ${blue} and j.technician_id = ${tech}`,
    )
    const byId = new Map(site.map((row) => [row.id, row]))
    for (const stop of data.stops) {
      const expected = byId.get(stop.id)
      expect(stop.access).toEqual({
        gateCode: expected?.gate_code,
        accessNotes: expected?.access_notes,
        dogOnSite: expected?.dog_on_site,
        minutesOnSite: expected?.minutes_on_site,
      })
    }
  })

  it("counts today's open visits only, overdue before today, and completions since Monday", async () => {
    const data = await load(tech)
    const where = sql`company_id = ${blue} and technician_id = ${tech}`
    const open = sql`completed_at is null and canceled_at is null`
    const expected = {
      today: await count(
        sql`select count(*)::int as n from visits where ${where} and ${open}
            and scheduled_at >= ${TODAY_START} and scheduled_at < ${TODAY_END}`,
      ),
      overdue: await count(
        sql`select count(*)::int as n from visits where ${where} and ${open} and scheduled_at < ${TODAY_START}`,
      ),
      completedThisWeek: await count(
        sql`select count(*)::int as n from visits where ${where} and completed_at >= ${WEEK_START}`,
      ),
    }
    expect(expected.today).toBeGreaterThan(0)
    expect(expected.overdue).toBeGreaterThan(0)
    expect(data.counts).toEqual(expected)
    expect(data.stops.filter((stop) => stop.state === 'open')).toHaveLength(expected.today)
  })

  it('starts "completed this week" at Monday 00:00 New York time, not UTC', async () => {
    const before = await load(tech)
    const monday = Date.parse(WEEK_START)
    // Sunday 23:59 in New York is already Monday in UTC: a UTC week would count it.
    const outside = await addVisit(tech, new Date(monday - 3 * HOUR), new Date(monday - MINUTE))
    const inside = await addVisit(tech, new Date(monday - 2 * HOUR), new Date(monday + MINUTE))
    try {
      const after = await load(tech)
      expect(after.counts.completedThisWeek).toBe(before.counts.completedThisWeek + 1)
    } finally {
      await db().delete(visits).where(sql`${visits.id} in (${outside}, ${inside})`)
    }
  })

  it('shows the 10 newest completions with their reading counts', async () => {
    // Vary the counts so a wrong join cannot pass: one newest visit with no readings,
    // and three readings on the next one.
    const noReadings = await addVisit(tech, new Date(NOW.getTime() - 3 * HOUR), new Date(NOW.getTime() - MINUTE))
    const [latestSeeded] = await queryRows<{ id: string }>(
      sql`select id from visits where technician_id = ${tech} and completed_at is not null and id <> ${noReadings}
          order by completed_at desc limit 1`,
    )
    if (!latestSeeded) throw new Error('the seed gave the technician no completed visits')
    await db()
      .insert(chemLogs)
      .values(
        [1, 2].map((i) => ({
          companyId: blue,
          visitId: latestSeeded.id,
          ph: 7.4,
          chlorinePpm: 2,
          alkalinity: 100,
          takenAt: new Date(NOW.getTime() - i * MINUTE),
        })),
      )

    const data = await load(tech)
    const expected = await queryRows<{ id: string; completed_at: string | Date; readings: number }>(
      sql`select j.id, j.completed_at,
            (select count(*) from chem_logs c where c.visit_id = j.id)::int as readings
          from visits j
          where j.company_id = ${blue} and j.technician_id = ${tech} and j.completed_at is not null
          order by j.completed_at desc limit 10`,
    )
    const completedTotal = await count(
      sql`select count(*)::int as n from visits where technician_id = ${tech} and completed_at is not null`,
    )
    expect(completedTotal).toBeGreaterThan(10)
    expect(data.history).toHaveLength(10)
    expect(data.history.map((visit) => visit.id)).toEqual(expected.map((visit) => visit.id))
    expect(data.history.map((visit) => visit.readings)).toEqual(expected.map((visit) => visit.readings))
    expect(data.history.map((visit) => visit.completedAt)).toEqual(
      expected.map((visit) => new Date(visit.completed_at).toISOString()),
    )
    expect(data.history[0]).toMatchObject({ id: noReadings, readings: 0 })
    expect(data.history[1]).toMatchObject({ id: latestSeeded.id, readings: 3 })
    // Each card carries the water status of its latest reading; none without a reading.
    expect(data.history[0]?.water).toBeNull()
    expect(data.history[1]?.water?.statuses[0]).toMatchObject({
      text: expect.stringMatching(/^pH (low|in range|high)$/),
    })
  })
})

describe('loadTechDashboard: This week and the overdue list', () => {
  it('gives Monday to Sunday, each day in route order as listDayStops has it, headed by its full date', async () => {
    // Sunday 23:30 in New York is this week; Monday 00:30 is next week's.
    const sundayNight = await addVisit(tech, new Date('2026-11-30T04:30:00Z'))
    const nextMonday = await addVisit(tech, new Date('2026-11-30T05:30:00Z'))
    try {
      const data = await load(tech, 'week')
      expect(data.stops).toEqual([])
      expect(data.week.map((day) => day.date)).toEqual([
        '2026-11-23',
        '2026-11-24',
        '2026-11-25',
        '2026-11-26',
        '2026-11-27',
        '2026-11-28',
        '2026-11-29',
      ])
      expect(data.week[0]?.heading).toBe('Monday, November 23, 2026')
      expect(data.week[6]?.heading).toBe('Sunday, November 29, 2026')
      expect(data.week.map((day) => day.isToday)).toEqual([false, false, true, false, false, false, false])
      for (const day of data.week) {
        const stops = await listDayStops({ companyId: blue, timezone: NY, technicianId: tech, date: day.date })
        expect(day.stops.map((stop) => [stop.id, stop.state, stop.time])).toEqual(
          stops.map((stop) => [stop.id, stop.state, stop.time]),
        )
      }
      const ids = data.week.flatMap((day) => day.stops.map((stop) => stop.id))
      expect(ids).toContain(sundayNight)
      expect(ids).not.toContain(nextMonday)
      expect(new Set(ids)).toEqual(new Set(await expectedStops(tech, WEEK_START, '2026-11-30T05:00:00Z')))

      const html = render(data)
      expect(html).toMatch(/<h2[^>]*>Monday, November 23, 2026<\/h2>/)
      expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>This week<\/a>/)
      expect(html).not.toContain('Up next')
    } finally {
      await db().delete(visits).where(sql`${visits.id} in (${sundayNight}, ${nextMonday})`)
    }
  })

  it('lists overdue visits from earlier days oldest first, at most 50, and counts them all', async () => {
    const start = new Date('2026-11-10T15:00:00Z')
    const ids: string[] = []
    for (let i = 0; i < 60; i++) ids.push(await addVisit(newTech, new Date(start.getTime() + i * HOUR)))
    // Today's stop, even one already late this morning, is not overdue from an earlier day.
    await addVisit(newTech, new Date('2026-11-25T13:00:00Z'))
    try {
      const data = await load(newTech, 'overdue')
      expect(data.counts.overdue).toBe(60)
      expect(data.overdue.map((visit) => visit.id)).toEqual(ids.slice(0, OVERDUE_LIST_LIMIT))
      // Checked as a boolean: a failing toContain would print the whole page.
      expect(render(data).includes(`Showing the oldest ${OVERDUE_LIST_LIMIT} of 60 overdue visits.`)).toBe(true)
    } finally {
      await db().delete(visits).where(eq(visits.technicianId, newTech))
    }
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
  it('shows "No visits today." to a technician with an empty day', async () => {
    const data = await loadTechDashboard({
      companyId: blue,
      technicianId: newTech,
      timezone: NY,
      now: NOW,
    })
    expect(data.stops).toEqual([])
    const html = render(data)
    expect(html).toContain('No visits today.')
    expect(html).toContain('No completed visits yet.')
    expect(html).not.toContain('overdue visit')
    expect(html).toMatch(/<h1[^>]*>Today&#x27;s route<\/h1>/)
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>Today<\/a>/)
    expect(html).toContain('href="/app?tab=week"')
  })

  it("renders the demo technician's day: Up next first, each open stop numbered, no Mark Complete shortcut", async () => {
    const data = await load(tech)
    const html = render(data)
    const open = data.stops.filter((stop) => stop.state === 'open')
    const [next] = open
    if (!next) throw new Error('no open stop')
    const has = (text: string) => html.includes(text)
    expect(has(`Stop ${next.number} of ${data.stops.length}`)).toBe(true)
    expect(html.indexOf('Up next')).toBeLessThan(html.indexOf(`href="/app/visits/${next.id}"`))
    expect(html.match(/Stop \d+ of \d+/g)).toHaveLength(data.stops.length)
    for (const stop of data.stops) expect(has(`href="/app/visits/${stop.id}"`)).toBe(true)
    expect(has('name="intent"')).toBe(false)
    expect(has(`>${data.counts.overdue} overdue visits from earlier days<`)).toBe(true)
  })
})
