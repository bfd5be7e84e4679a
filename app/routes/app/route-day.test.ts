// The route page (docs/product.md "Schedule" "A technician's route for a day"): who may open which route,
// "Optimize route" never making the day longer and its "Undo" putting back the exact order, reordering by hand, and a
// stale order refused.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, serviceLocations, visits } from '~/db/schema'
import { createCustomerWithLocation } from '~/models/customer-changes.server'
import { getDayRoute, setRouteOrder } from '~/models/day-route.server'
import { listDayStops } from '~/models/day-stops.server'
import { updateServiceLocation } from '~/models/service-location.server'
import { createVisit } from '~/models/visit-changes.server'
import { generateVisits } from '~/models/visit-generation.server'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { UNKNOWN_INTENT } from '~/utils/result'
import {
  formRequest,
  pageRequest,
  routeArgs,
  SAME_ORIGIN,
  settle,
  statusOf,
  TEST_ORIGIN,
} from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './route-day'
import { action as teamMemberAction } from './team-member'

const ZONE = 'America/New_York'

let blue: string
let tyler: string
let sunsetTech: string
let date: string
let dispatcher: string
let tech: string
let sunsetOwner: string

const post = (cookie: string, technicianId: string, day: string, fields: [string, string][]) =>
  formRequest(`/app/schedule/${technicianId}/${day}`, fields, cookie, SAME_ORIGIN)

type Reply = { data: { message: string; undo?: string[] }; init: { status?: number } | null }

async function openOrder() {
  const stops = await listDayStops({ companyId: blue, timezone: ZONE, technicianId: tyler, date })
  return stops.filter((stop) => stop.state === 'open').map((stop) => stop.id)
}

const routeTotal = async () =>
  (await getDayRoute({ companyId: blue, timezone: ZONE, technicianId: tyler, date })).totalMeters

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const techs = await db()
    .select({ id: profiles.id, email: profiles.email, companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.role, 'tech'))
  tyler = techs.find((t) => t.email === 'tech@bluelagoon.test')?.id ?? ''
  sunsetTech = techs.find((t) => t.companyId !== blue)?.id ?? ''
  // A coming day on which Tyler has several open stops to order.
  const today = localDateAt(new Date(), 'America/New_York')
  for (let offset = 1; offset <= 14; offset += 1) {
    const candidate = addDays(today, offset)
    const stops = await listDayStops({ companyId: blue, timezone: ZONE, technicianId: tyler, date: candidate })
    if (stops.filter((stop) => stop.state === 'open' && stop.point).length >= 4) {
      date = candidate
      break
    }
  }
  ;[dispatcher, tech, sunsetOwner] = await Promise.all([
    signInAs('dispatch@bluelagoon.test'),
    signInAs('tech@bluelagoon.test'),
    signInAs('owner@sunsetpools.test'),
  ])
})

describe('Opening a route', () => {
  it('shows the technician, the day, each stop with its distance and the total', async () => {
    expect(date).toBeDefined()
    const page = await loader(
      routeArgs(pageRequest(`/app/schedule/${tyler}/${date}`, dispatcher), { technicianId: tyler, date }),
    )
    expect(page.technician.name).toBe('Tyler Brooks')
    expect(page.fullDate).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \w+ \d{1,2}, \d{4}$/)
    expect(page.weekStart <= date).toBe(true)
    expect(page.previousDay).toBe(addDays(date, -1))
    expect(page.nextDay).toBe(addDays(date, 1))
    expect(page.start?.address).toContain('Rocky Point')
    expect(page.stops.length).toBeGreaterThanOrEqual(4)
    expect(page.stops.map((stop) => stop.number)).toEqual(page.stops.map((_, index) => index + 1))
    expect(page.stops.filter((stop) => stop.state === 'open').every((stop) => stop.leg?.endsWith(' mi'))).toBe(true)
    expect(page.total).toMatch(/^\d+\.\d mi$/)
    // Tyler has no end address: the day ends back at the company's, and the total counts that drive.
    expect(page.end?.address).toContain('Rocky Point')
    expect(page.end?.leg).toMatch(/^\d+\.\d mi$/)
    const route = await getDayRoute({ companyId: blue, timezone: ZONE, technicianId: tyler, date })
    const legs = route.stops.reduce((sum, stop) => sum + (stop.legMeters ?? 0), 0)
    expect(route.end?.legMeters).toBeGreaterThan(0)
    expect(route.totalMeters).toBeCloseTo(legs + (route.end?.legMeters ?? 0), 6)
    expect(page.openIds).toEqual(await openOrder())
    expect(page.canOptimize).toBe(true)
  })

  it('opens the unassigned visits of a day', async () => {
    const page = await loader(
      routeArgs(pageRequest(`/app/schedule/unassigned/${date}`, dispatcher), { technicianId: 'unassigned', date }),
    )
    expect(page.technician).toEqual({ slug: 'unassigned', name: 'Unassigned' })
  })

  it.each([
    ['a date that does not exist', () => [tyler, '2026-02-30']],
    ['a month that does not exist', () => [tyler, '2026-13-01']],
    ['a date far past any year of service (was a 500: the next day left the date form)', () => [tyler, '9999-12-31']],
    ['a date before any year of service', () => [tyler, '1999-12-31']],
    ['a word for a date', () => [tyler, 'tomorrow']],
    ['an unknown technician', () => ['6f1c0d7e-0000-4000-8000-000000000000', date]],
    ['a word for a technician', () => ['everyone', date]],
    ["another company's technician", () => [sunsetTech, date]],
  ])('is a 404 for %s', async (_, route) => {
    const [technicianId, day] = route() as [string, string]
    const { thrown } = await settle(
      loader(routeArgs(pageRequest(`/app/schedule/${technicianId}/${day}`, dispatcher), { technicianId, date: day })),
    )
    expect(statusOf(thrown)).toBe(404)
  })

  it('routes a pool added with only a ZIP, marked "Approximate: ZIP center" with "Fix position" until fixed', async () => {
    const added = await createCustomerWithLocation(blue, {
      customerName: 'Zip Only',
      location: { street: '400 Bayshore Blvd', postalCode: '33606', dogOnSite: false },
    })
    if (!added.ok) throw new Error(added.message)
    const { customerId, locationId } = added
    const scheduledAt = new Date(`${date}T16:00:00Z`)
    const visit = await createVisit({ companyId: blue, customerId, locationId, scheduledAt, technicianId: null })
    if (!visit) throw new Error('no visit')
    const open = () =>
      loader(
        routeArgs(pageRequest(`/app/schedule/unassigned/${date}`, dispatcher), { technicianId: 'unassigned', date }),
      ).then((page) => page.stops.find((stop) => stop.customerName === 'Zip Only'))
    const stop = await open()
    expect(stop?.point).not.toBeNull()
    expect(stop?.fixPosition).toBe(`/app/customers/${customerId}?edit=location:${locationId}`)
    const fixed = await updateServiceLocation({
      companyId: blue,
      locationId,
      input: { street: '400 Bayshore Blvd', postalCode: '33606', lat: '27.9290', lng: '-82.4801', dogOnSite: '' },
    })
    expect(fixed.ok).toBe(true)
    expect(await open()).toMatchObject({ point: { lat: 27.929, lng: -82.4801 }, fixPosition: null })
  })

  it("is a 404 for another company's office, and its actions too", async () => {
    const page = await settle(
      loader(routeArgs(pageRequest(`/app/schedule/${tyler}/${date}`, sunsetOwner), { technicianId: tyler, date })),
    )
    expect(statusOf(page.thrown)).toBe(404)
    const optimize = await settle(
      action(routeArgs(post(sunsetOwner, tyler, date, [['intent', 'optimize']]), { technicianId: tyler, date })),
    )
    expect(statusOf(optimize.thrown)).toBe(404)
  })

  it('refuses technicians, as the guard does', async () => {
    const page = await settle(
      loader(routeArgs(pageRequest(`/app/schedule/${tyler}/${date}`, tech), { technicianId: tyler, date })),
    )
    expect(statusOf(page.thrown)).toBe(403)
    const optimize = await settle(
      action(routeArgs(post(tech, tyler, date, [['intent', 'optimize']]), { technicianId: tyler, date })),
    )
    expect(statusOf(optimize.thrown)).toBe(403)
  })
})

describe('Optimize route and Undo', () => {
  it('never lengthens the route, tells the saving, and Undo restores the exact order before', async () => {
    // A poor order to start from: the stops reversed.
    const reversed = (await openOrder()).reverse()
    const set = await setRouteOrder({ companyId: blue, timezone: ZONE, technicianId: tyler, date, visitIds: reversed })
    expect(set.ok).toBe(true)
    const before = await routeTotal()

    const reply = (await action(
      routeArgs(post(dispatcher, tyler, date, [['intent', 'optimize']]), { technicianId: tyler, date }),
    )) as Reply
    expect(reply.init?.status ?? 200).toBe(200)
    const after = await routeTotal()
    expect(after).toBeLessThanOrEqual(before + 1e-6)
    if (reply.data.undo) {
      expect(reply.data.message).toMatch(/^Route optimized: \d+\.\d mi → \d+\.\d mi \(saved \d+\.\d mi\)\.$/)
      expect(reply.data.undo).toEqual(reversed)
    } else {
      expect(reply.data.message).toMatch(/^The route is already as short as it gets/)
    }

    const undo = await settle(
      action(
        routeArgs(
          post(dispatcher, tyler, date, [
            ['intent', 'reorder'],
            ['undo', 'on'],
            ...reversed.map((id): [string, string] => ['visitIds', id]),
          ]),
          { technicianId: tyler, date },
        ),
      ),
    )
    expect(undo.thrown).toHaveRedirect(`/app/schedule/${tyler}/${date}`)
    expect(await openOrder()).toEqual(reversed)
    expect(await routeTotal()).toBeCloseTo(before, 6)
  })

  it('a second optimize saves nothing more', async () => {
    await action(routeArgs(post(dispatcher, tyler, date, [['intent', 'optimize']]), { technicianId: tyler, date }))
    const once = await routeTotal()
    const reply = (await action(
      routeArgs(post(dispatcher, tyler, date, [['intent', 'optimize']]), { technicianId: tyler, date }),
    )) as Reply
    expect(await routeTotal()).toBeLessThanOrEqual(once + 1e-6)
    expect(reply.data.message).toMatch(/^(The route is already as short as it gets|Route optimized)/)
  })

  it('says there is nothing to optimize on a day without stops', async () => {
    const empty = '2020-01-05'
    const reply = (await action(
      routeArgs(post(dispatcher, tyler, empty, [['intent', 'optimize']]), { technicianId: tyler, date: empty }),
    )) as Reply
    expect(reply.init?.status).toBe(400)
    expect(reply.data.message).toMatch(/nothing to optimize/)
  })
})

describe('Reordering by hand', () => {
  it('"Move up" swaps a stop with the one before it', async () => {
    const order = await openOrder()
    const [first, second] = order as [string, string]
    const moved = await settle(
      action(
        routeArgs(
          post(dispatcher, tyler, date, [
            ['intent', 'reorder'],
            ...order.map((id): [string, string] => ['visitIds', id]),
            ['move', `${second}:up`],
          ]),
          { technicianId: tyler, date },
        ),
      ),
    )
    expect((moved.thrown as Response).status).toBe(302)
    expect(await openOrder()).toEqual([second, first, ...order.slice(2)])
  })

  it('a wrong set of stops is a 409 with the reason, and changes nothing', async () => {
    const order = await openOrder()
    const reply = (await action(
      routeArgs(
        post(dispatcher, tyler, date, [
          ['intent', 'reorder'],
          ...order.slice(1).map((id): [string, string] => ['visitIds', id]),
        ]),
        { technicianId: tyler, date },
      ),
    )) as Reply
    expect(reply.init?.status).toBe(409)
    expect(reply.data.message).toBe('The day’s stops changed meanwhile. Reload the route and try again.')
    expect(await openOrder()).toEqual(order)
  })

  it('an order that names no stops is a 400', async () => {
    const reply = (await action(
      routeArgs(post(dispatcher, tyler, date, [['intent', 'reorder']]), { technicianId: tyler, date }),
    )) as Reply
    expect(reply.init?.status).toBe(400)
    expect(reply.data.message).toBe('There are no stops to order.')
  })

  it('an unknown intent is the 400 "Unknown action."', async () => {
    const { thrown } = await settle(
      action(routeArgs(post(dispatcher, tyler, date, [['intent', 'shuffle']]), { technicianId: tyler, date })),
    )
    expect(thrown).toMatchObject({ data: UNKNOWN_INTENT, init: { status: 400 } })
  })
})

// Issue 32 (docs/routing.md, decision 040): each stop's ETA from the technician's working hours, and "Optimize route"
// keeping appointments before distance. Two visits of their own on a day Tyler has nothing else: Harold Jenkins at the
// start address with a 12:00 appointment, Maria Lopez about 7 mi away with an 8:00 one.
describe('ETAs and appointments', () => {
  let quiet: string
  let near: string
  let far: string
  const DEMO_START = { lat: 27.96611, lng: -82.56222 }

  const dayRoute = () => getDayRoute({ companyId: blue, timezone: ZONE, technicianId: tyler, date: quiet })
  const etas = async () => Object.fromEntries((await dayRoute()).stops.map((stop) => [stop.id, stop.eta]))
  const order = (visitIds: string[]) =>
    setRouteOrder({ companyId: blue, timezone: ZONE, technicianId: tyler, date: quiet, visitIds })
  const optimize = async () =>
    (await action(
      routeArgs(post(dispatcher, tyler, quiet, [['intent', 'optimize']]), { technicianId: tyler, date: quiet }),
    )) as Reply
  const setAppointments = (on: boolean) =>
    db()
      .update(visits)
      .set({ appointmentAt: on ? visits.scheduledAt : null })
      .where(inArray(visits.id, [near, far]))
  const workStarts = (time: string | null) =>
    db().update(profiles).set({ workStarts: time }).where(eq(profiles.id, tyler))

  async function visitFor(name: string, point: { lat: number; lng: number }, time: '08:00' | '12:00') {
    const [customer] = await db()
      .insert(customers)
      .values({ companyId: blue, customerName: name })
      .returning({ id: customers.id })
    await db()
      .insert(serviceLocations)
      .values({ companyId: blue, customerId: customer?.id ?? '', street: `${name} Way`, ...point, minutesOnSite: 30 })
    const visit = await createVisit({
      companyId: blue,
      customerId: customer?.id ?? '',
      scheduledAt: instantAt(quiet, time, ZONE),
      technicianId: tyler,
      appointment: true,
    })
    return visit?.id ?? ''
  }

  beforeAll(async () => {
    const today = localDateAt(new Date(), ZONE)
    for (let offset = 400; ; offset += 1) {
      const candidate = addDays(today, offset)
      const stops = await listDayStops({ companyId: blue, timezone: ZONE, technicianId: tyler, date: candidate })
      if (stops.length === 0) {
        quiet = candidate
        break
      }
    }
    near = await visitFor('Harold Jenkins', DEMO_START, '12:00')
    far = await visitFor('Maria Lopez', { lat: DEMO_START.lat + 0.05, lng: DEMO_START.lng }, '08:00')
    // Tyler starts at 7:00 AM: the 8:00 appointment ~7 mi away can be kept.
    await workStarts('07:00')
  })

  afterAll(async () => {
    await workStarts(null)
  })

  it('gives each stop an ETA from the start of the working day, and moving a stop moves the ETAs', async () => {
    await setAppointments(false)
    try {
      expect((await order([near, far])).ok).toBe(true)
      const before = await etas()
      // At the start address, first: on site when the day starts.
      expect(before[near]).toBe('7:00 AM')
      expect(before[far]).toMatch(/^7:\d\d AM$/)
      expect(await order([far, near])).toMatchObject({ ok: true })
      const after = await etas()
      // Maria first now: no 30 minutes at Harold's before her drive.
      expect(after[far]).not.toBe(before[far])
      expect(after[far]).toMatch(/^7:\d\d AM$/)
      expect(after[near]).not.toBe('7:00 AM')
      const page = await loader(
        routeArgs(pageRequest(`/app/schedule/${tyler}/${quiet}`, dispatcher), { technicianId: tyler, date: quiet }),
      )
      expect(page.stops.map((stop) => stop.eta)).toEqual([after[far], after[near]])
    } finally {
      await setAppointments(true)
    }
  })

  it('a start address saved on Team → technician moves the first leg and the ETAs', async () => {
    await setAppointments(false)
    const owner = await signInAs('owner@bluelagoon.test')
    const save = (startAddress: string) =>
      teamMemberAction({
        request: new Request(`${TEST_ORIGIN}/app/team/${tyler}`, {
          method: 'POST',
          headers: { cookie: owner, 'content-type': 'application/x-www-form-urlencoded', origin: TEST_ORIGIN },
          body: new URLSearchParams({ intent: 'save-technician', startAddress, workStarts: '07:00' }),
        }),
        params: { memberId: tyler },
        context: {},
      } as never) as Promise<{ data: { ok: boolean }; init: { status?: number } | null }>
    try {
      expect((await order([near, far])).ok).toBe(true)
      const before = await dayRoute()
      // From the company's yard: Harold's is at the yard, on site at 7:00 AM with no drive.
      expect(before.stops[0]).toMatchObject({ eta: '7:00 AM', legMeters: 0 })
      // Saved from Clearwater (placed at its ZIP code's center, about 11 miles west): a drive first, then Harold's.
      expect((await save('100 N Osceola Ave, Clearwater, FL 33755')).data.ok).toBe(true)
      const after = await dayRoute()
      expect(after.start?.address).toBe('100 N Osceola Ave, Clearwater, FL 33755')
      expect(after.stops[0]?.legMeters).toBeGreaterThan(10_000)
      expect(after.stops[0]?.eta).toMatch(/^7:\d\d AM$/)
      expect(after.stops[0]?.eta).not.toBe('7:00 AM')
      expect(after.stops[1]?.eta).not.toBe(before.stops[1]?.eta)
      // Cleared: the company's yard again, and the ETAs with it.
      expect((await save('')).data.ok).toBe(true)
      expect((await dayRoute()).stops.map((stop) => stop.eta)).toEqual(before.stops.map((stop) => stop.eta))
    } finally {
      await db()
        .update(profiles)
        .set({ startAddress: null, startLat: null, startLng: null })
        .where(eq(profiles.id, tyler))
      await setAppointments(true)
    }
  })

  it('"Optimize route" keeps the 8:00 appointment before the nearer 12:00 one, with its ETAs', async () => {
    expect((await order([near, far])).ok).toBe(true)
    const late = await dayRoute()
    expect(late.stops.map((stop) => [stop.customerName, stop.eta])).toEqual([
      ['Harold Jenkins', '12:00 PM'],
      ['Maria Lopez', expect.stringMatching(/^12:\d\d PM$/)],
    ])
    expect(late.stops[1]?.lateBy).toBeGreaterThan(240)

    const reply = await optimize()
    // The day ends back at the yard (no end address: the company's), so both orders are the same round trip: keeping
    // the times costs no distance.
    expect(reply.data.message).toMatch(/^Route optimized: (\d+\.\d) mi → \1 mi \(saved 0\.0 mi\)\.$/)
    expect(reply.data.undo).toEqual([near, far])
    const kept = await dayRoute()
    expect(kept.stops.map((stop) => [stop.customerName, stop.eta, stop.lateBy, stop.windowLabel])).toEqual([
      ['Maria Lopez', '8:00 AM', null, 'Appointment 8:00 AM'],
      ['Harold Jenkins', '12:00 PM', null, 'Appointment 12:00 PM'],
    ])
  })

  it('names the stop that cannot be reached in time, with the least lateness', async () => {
    // From 8:00 AM the 8:00 appointment ~7 mi away is missed by minutes: still first, and named.
    await workStarts(null)
    try {
      expect((await order([near, far])).ok).toBe(true)
      const reply = await optimize()
      expect(reply.data.message).toMatch(/ Cannot be reached in time: Maria Lopez \(by 8:00 AM\)\.$/)
      expect((await dayRoute()).stops.map((stop) => stop.customerName)).toEqual(['Maria Lopez', 'Harold Jenkins'])
    } finally {
      await workStarts('07:00')
    }
  })

  it('a location’s saved “Arrive between” changes the order “Optimize route” gives', async () => {
    await setAppointments(false)
    const [farVisit] = await db().select({ locationId: visits.locationId }).from(visits).where(eq(visits.id, far))
    const locationId = farVisit?.locationId ?? ''
    const saveWindow = (arriveFrom: string, arriveUntil: string) =>
      updateServiceLocation({
        companyId: blue,
        locationId,
        input: { street: 'Maria Lopez Way', minutesOnSite: '30', dogOnSite: false, arriveFrom, arriveUntil },
      })
    try {
      // No window: the stop at the start address first is the shorter day.
      expect((await order([far, near])).ok).toBe(true)
      await optimize()
      expect((await dayRoute()).stops.map((stop) => stop.customerName)).toEqual(['Harold Jenkins', 'Maria Lopez'])
      // Maria's pool only before 7:30 AM: she is first now, and her stop says so.
      expect(await saveWindow('07:00', '07:30')).toMatchObject({ ok: true })
      await optimize()
      const kept = await dayRoute()
      expect(kept.stops.map((stop) => [stop.customerName, stop.windowLabel, stop.lateBy])).toEqual([
        ['Maria Lopez', 'Arrive 7:00 AM–7:30 AM', null],
        ['Harold Jenkins', null, null],
      ])
    } finally {
      await saveWindow('', '')
      await setAppointments(true)
    }
  })
})
