// The demo's recurring routes (issue #18: "every demo technician has a realistic route today (12–16 stops, some
// done), history for the past 8 weeks with readings, and only a few overdue visits"). Each technician gets a
// neighborhood per working day — houses on weekly plans — and the visits of the last 8 weeks and of today are
// written as they would have happened: in the day's optimized order from the company's yard, each at the route's ETA
// from 08:00 (the drive from the stop before at the app's town speed, plus that stop's minutes on site; docs/routing.md),
// done (with a reading) when its minutes on site have passed. Later visits come from generation at start-up, as in
// a real company. Working days are the five starting from the seed's weekday, so "today" always has a route.

import { bodiesOfWater, chemLogs, customers, equipment, serviceLocations, servicePlans, visits } from '~/db/schema'
import { type LatLng, straightLineMatrix } from '~/routing/distance'
import { optimizeRoute } from '~/routing/optimize'
import { DEFAULT_METERS_PER_MINUTE } from '~/routing/route-file'
import { addDays, instantAt, isoWeekday, type LocalDate, localDateAt, type WallTime } from '~/schedule/local-date'
import type { Database } from '~/utils/db.server'
import { prng } from './prng'

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

export type RouteArea = { city: string; zip: string; lat: number; lng: number }

export type RouteSeed = {
  companyId: string
  timezone: string
  state: string
  areaCode: string
  /** Neighbourhoods a day's route is drawn in (each technician-day gets one). */
  areas: readonly RouteArea[]
  start: LatLng
  /** [technician id, whether their pools are the standard one the end-to-end tests dose against]. */
  technicians: ReadonlyArray<readonly [string, boolean]>
  /** Stops a technician's working day should have in all (one-off visits and other plans included). */
  stopsPerDay: number
  /** What a technician already has on a date (one-off visits, other plans' visits). */
  busy: (technicianId: string, date: LocalDate) => number
  /** Which half of the surnames: two companies never share a customer's name. */
  surnames: 0 | 1
  now: Date
  seed: number
}

const FIRST = [
  'Avery',
  'Blake',
  'Carmen',
  'Dario',
  'Elena',
  'Felix',
  'Gina',
  'Hector',
  'Iris',
  'Jonah',
  'Kara',
  'Luis',
  'Mara',
  'Nadia',
  'Omar',
  'Paula',
  'Otto',
  'Rhea',
  'Silas',
  'Tessa',
  'Ulrich',
  'Vera',
  'Wade',
  'Yara',
  'Zane',
  'Leona',
  'Miles',
  'Nora',
  'Pedro',
  'Sofia',
  'Theo',
  'Uma',
  'Wes',
  'Ximena',
  'Yusuf',
  'Adele',
  'Bruno',
  'Celia',
  'Damon',
] as const
const LAST = [
  'Abbott',
  'Barrios',
  'Castillo',
  'Dalton',
  'Ellison',
  'Figueroa',
  'Garland',
  'Holloway',
  'Ingram',
  'Jaramillo',
  'Kessler',
  'Lindqvist',
  'Mercado',
  'Navarro',
  'Oyelaran',
  'Pham',
  'Quintero',
  'Rasmussen',
  'Salazar',
  'Tanaka',
  'Underwood',
  'Valdez',
  'Wexler',
  'Yamada',
  'Zamora',
  'Brennan',
  'Calloway',
  'Delgado',
  'Esposito',
  'Fairbanks',
] as const
const STREETS = [
  'Palm Ave',
  'Bayview Dr',
  'Mangrove Ln',
  'Heron Ct',
  'Pelican Way',
  'Seagrape St',
  'Cypress Rd',
  'Magnolia Ave',
  'Osprey Ln',
  'Tarpon Dr',
  'Manatee Ct',
  'Sandpiper Way',
  'Egret St',
  'Citrus Ln',
  'Coral Way',
  'Laurel Dr',
  'Banyan St',
  'Juniper Ave',
  'Sabal Palm Rd',
  'Oak Hollow Dr',
] as const
const PUMPS = [
  ['Pentair', 'SuperFlo VS'],
  ['Hayward', 'MaxFlo VS'],
  ['Jandy', 'FloPro VS'],
] as const
const FILTERS = [
  ['Pentair', 'Clean & Clear Plus 420'],
  ['Hayward', 'SwimClear C4030'],
] as const
const SURFACES = ['plaster', 'plaster', 'fiberglass', 'vinyl'] as const
/** The day starts at the company's yard at 8:00 AM (the default working hours, docs/routing.md). */
const DAY_STARTS = 8 * 60
/** Minutes on site, in turn. */
const MINUTES_ON_SITE = [20, 25, 30, 35] as const

/** "09:41" from minutes after midnight (rounded down to the minute). */
function wallClock(minutes: number) {
  const whole = Math.floor(minutes)
  return `${String(Math.floor(whole / 60)).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}` as WallTime
}

export async function seedRoutes(tx: Tx, o: RouteSeed) {
  const random = prng(o.seed)
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T
  const today = localDateAt(o.now, o.timezone)
  const weekdays = Array.from({ length: 5 }, (_, i) => isoWeekday(addDays(today, i)))
  const names = new Set<string>()
  const surnames = LAST.filter((_, i) => i % 2 === o.surnames)
  type Stop = {
    name: string
    phone: string
    street: string
    area: RouteArea
    point: LatLng
    technicianId: string
    standard: boolean
    weekday: number
  }
  const stops: Stop[] = []
  let n = 0
  for (const [technicianId, standard] of o.technicians) {
    for (const [day, weekday] of weekdays.entries()) {
      const area = pick(o.areas)
      // The houses of this weekday fill the coming such day up to `stopsPerDay` (at least a short round).
      const houses = Math.max(4, o.stopsPerDay - o.busy(technicianId, addDays(today, day)))
      for (let k = 0; k < houses; k++) {
        let name = `${pick(FIRST)} ${pick(surnames)}`
        while (names.has(name)) name = `${pick(FIRST)} ${pick(surnames)}`
        names.add(name)
        n += 1
        stops.push({
          name,
          phone: `+1${o.areaCode}555${String(3000 + n).padStart(4, '0')}`,
          street: `${100 + Math.floor(random() * 9800)} ${pick(STREETS)}`,
          area,
          point: {
            lat: Number((area.lat + (random() - 0.5) * 0.05).toFixed(5)),
            lng: Number((area.lng + (random() - 0.5) * 0.05).toFixed(5)),
          },
          technicianId,
          standard,
          weekday,
        })
      }
    }
  }

  const insertedCustomers = await tx
    .insert(customers)
    .values(stops.map((stop) => ({ companyId: o.companyId, customerName: stop.name, phone: stop.phone })))
    .returning({ id: customers.id })
  const insertedLocations = await tx
    .insert(serviceLocations)
    .values(
      stops.map((stop, i) => ({
        companyId: o.companyId,
        customerId: insertedCustomers[i]?.id ?? '',
        street: stop.street,
        city: stop.area.city,
        state: o.state,
        postalCode: stop.area.zip,
        lat: stop.point.lat,
        lng: stop.point.lng,
        minutesOnSite: MINUTES_ON_SITE[i % MINUTES_ON_SITE.length],
      })),
    )
    .returning({ id: serviceLocations.id })
  const insertedBodies = await tx
    .insert(bodiesOfWater)
    .values(
      stops.map((stop, i) => ({
        companyId: o.companyId,
        locationId: insertedLocations[i]?.id ?? '',
        name: 'Pool',
        ...(stop.standard
          ? { gallons: 15_000, surface: 'plaster' as const, sanitizer: 'chlorine' as const }
          : {
              gallons: 10_000 + Math.floor(random() * 16) * 1_000,
              surface: pick(SURFACES),
              sanitizer: random() < 0.3 ? ('salt' as const) : ('chlorine' as const),
            }),
        indoor: false,
      })),
    )
    .returning({ id: bodiesOfWater.id, sanitizer: bodiesOfWater.sanitizer })
  await tx.insert(equipment).values(
    insertedBodies.flatMap((body) => {
      const [pumpMake, pumpModel] = pick(PUMPS)
      const [filterMake, filterModel] = pick(FILTERS)
      return [
        { companyId: o.companyId, bodyOfWaterId: body.id, kind: 'pump' as const, make: pumpMake, model: pumpModel },
        {
          companyId: o.companyId,
          bodyOfWaterId: body.id,
          kind: 'filter' as const,
          make: filterMake,
          model: filterModel,
        },
        ...(body.sanitizer === 'salt'
          ? [
              {
                companyId: o.companyId,
                bodyOfWaterId: body.id,
                kind: 'chlorinator' as const,
                make: 'Hayward',
                model: 'AquaRite T-Cell-15',
              },
            ]
          : []),
      ]
    }),
  )
  const insertedPlans = await tx
    .insert(servicePlans)
    .values(
      stops.map((stop, i) => ({
        companyId: o.companyId,
        locationId: insertedLocations[i]?.id ?? '',
        weekday: stop.weekday,
        technicianId: stop.technicianId,
        startsOn: addDays(today, -120),
        serviceWindow: 'morning' as const,
        rateCents: i % 3 === 0 ? 16_000 + (i % 4) * 1_000 : 4_500 + (i % 5) * 500,
        rateType: i % 3 === 0 ? ('monthly' as const) : ('per-visit' as const),
      })),
    )
    .returning({ id: servicePlans.id })

  // Each technician-day's order: the shortest drive from the yard, the same every week; and each stop's arrival and
  // departure (minutes after midnight) along it.
  const order = new Map<string, Array<{ stop: number; arrival: number; departure: number }>>()
  for (const [technicianId] of o.technicians) {
    for (const weekday of weekdays) {
      const day = stops.flatMap((stop, i) =>
        stop.technicianId === technicianId && stop.weekday === weekday ? [i] : [],
      )
      const points = [o.start, ...day.map((i) => (stops[i] as Stop).point)]
      const meters = straightLineMatrix(points)
      const route = optimizeRoute(points.length, (a, b) => meters[a]?.[b] ?? 0, { start: 0 }).slice(1)
      let at = DAY_STARTS
      let from = 0
      order.set(
        `${technicianId} ${weekday}`,
        route.map((point) => {
          const stop = day[point - 1] as number
          const arrival = at + (meters[from]?.[point] ?? 0) / DEFAULT_METERS_PER_MINUTE
          const departure = arrival + (MINUTES_ON_SITE[stop % MINUTES_ON_SITE.length] ?? 30)
          at = departure
          from = point
          return { stop, arrival, departure }
        }),
      )
    }
  }

  const visitList: Array<typeof visits.$inferInsert & { bodyId: string }> = []
  for (let offset = -56; offset <= 0; offset++) {
    const date: LocalDate = addDays(today, offset)
    for (const [technicianId] of o.technicians) {
      const day = order.get(`${technicianId} ${isoWeekday(date)}`) ?? []
      day.forEach(({ stop: i, arrival, departure }, position) => {
        const stop = stops[i] as Stop
        const scheduledAt = instantAt(date, wallClock(arrival), o.timezone)
        const doneAt = instantAt(date, wallClock(departure), o.timezone)
        // A few visits of the past weeks were never closed: the office's "Overdue".
        const done = doneAt.getTime() < o.now.getTime() - 5 * 60_000 && (offset === 0 || random() > 0.005)
        visitList.push({
          companyId: o.companyId,
          customerId: insertedCustomers[i]?.id ?? '',
          locationId: insertedLocations[i]?.id ?? '',
          customerName: stop.name,
          address: `${stop.street}, ${stop.area.city}, ${o.state} ${stop.area.zip}`,
          scheduledAt,
          completedAt: done ? doneAt : null,
          technicianId,
          planId: insertedPlans[i]?.id ?? '',
          occurrenceDate: date,
          routePosition: position + 1,
          createdAt: new Date(scheduledAt.getTime() - 60 * 86_400_000),
          bodyId: insertedBodies[i]?.id ?? '',
        })
      })
    }
  }
  const readings: Array<typeof chemLogs.$inferInsert> = []
  for (let from = 0; from < visitList.length; from += 1000) {
    const batch = visitList.slice(from, from + 1000)
    const inserted = await tx
      .insert(visits)
      .values(batch.map(({ bodyId: _body, ...visit }) => visit))
      .returning({ id: visits.id })
    batch.forEach((visit, i) => {
      if (!visit.completedAt) return
      readings.push({
        companyId: o.companyId,
        visitId: inserted[i]?.id ?? '',
        bodyOfWaterId: visit.bodyId,
        ph: Number((7.2 + random() * 0.6).toFixed(1)),
        chlorinePpm: Number((1 + random() * 3.5).toFixed(1)),
        alkalinity: Math.round(80 + random() * 50),
        takenAt: new Date(visit.completedAt.getTime() - 10 * 60_000),
      })
    })
  }
  for (let from = 0; from < readings.length; from += 1000) {
    await tx.insert(chemLogs).values(readings.slice(from, from + 1000))
  }
}
