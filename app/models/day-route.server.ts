// A technician's day as a route (docs/routing.md): the start and end, distances and ETAs of the route page, the order
// saved by hand or by "Optimize route" (and its undo), and the leg "On my way" estimates its arrival from.
import { and, eq, sql } from 'drizzle-orm'
import { companies, profiles, visits } from '~/db/schema'
import type { Leg } from '~/notices/eta'
import type { LatLng } from '~/routing/distance'
import { driveDistances } from '~/routing/drive-distances.server'
import { clockTime } from '~/routing/route-file'
import { lateStops, optimizeTimedRoute } from '~/routing/windows'
import {
  type DayStop,
  DEFAULT_WORK_ENDS,
  DEFAULT_WORK_STARTS,
  dayProblem,
  dayTimes,
  formatClock,
  lateStopLabel,
  type TechnicianDay,
  wallMinutes,
} from '~/schedule/day-times'
import { instantAt, isLocalDate, type LocalDate, type WallTime } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { failure, type Result, success } from '~/utils/result'
import { listDayStops, type RouteStop } from './day-stops.server'

type Place = { address: string; point: LatLng }

/** A place of a day's route, or null without a latitude and longitude (it cannot be driven to). */
function placeOf(address: string | null | undefined, lat: number | null | undefined, lng: number | null | undefined) {
  return lat != null && lng != null ? { address: address ?? 'Start', point: { lat, lng } } : null
}

export async function companyStart(companyId: string, executor: Pick<Database, 'select'> = db()) {
  const [row] = await executor
    .select({ address: companies.startAddress, lat: companies.startLat, lng: companies.startLng })
    .from(companies)
    .where(eq(companies.id, companyId))
  return placeOf(row?.address, row?.lat, row?.lng)
}

/** A technician's day as one row: the company's start, and the technician's places and hours (null unassigned). */
export const TECHNICIAN_DAY_COLUMNS = {
  companyAddress: companies.startAddress,
  companyLat: companies.startLat,
  companyLng: companies.startLng,
  startAddress: profiles.startAddress,
  startLat: profiles.startLat,
  startLng: profiles.startLng,
  endAddress: profiles.endAddress,
  endLat: profiles.endLat,
  endLng: profiles.endLng,
  workStarts: profiles.workStarts,
  workEnds: profiles.workEnds,
}

/** A row of those columns (the technician's are null when none is joined). */
type TechnicianDayRow = {
  [K in keyof typeof TECHNICIAN_DAY_COLUMNS]: (typeof TECHNICIAN_DAY_COLUMNS)[K]['_']['data'] | null
}
export type TechnicianDayPlan = { start: Place | null; end: Place | null; workStarts: number; workEnds: number }

/**
 * A technician's day (Team → technician) from its row: the start and end addresses (the company's when none is set:
 * the truck leaves the shop and comes back to it) and working hours (8:00 AM–5:00 PM when none are set). A place
 * without a latitude and longitude is left out. The unassigned route starts and ends at the company's and has the
 * default hours.
 */
export function technicianDayOf(row: TechnicianDayRow | undefined): TechnicianDayPlan {
  const company = placeOf(row?.companyAddress, row?.companyLat, row?.companyLng)
  const start = placeOf(row?.startAddress, row?.startLat, row?.startLng) ?? company
  const end = placeOf(row?.endAddress ?? 'End', row?.endLat, row?.endLng) ?? company
  const workStarts = wallMinutes(row?.workStarts) ?? DEFAULT_WORK_STARTS
  const workEnds = wallMinutes(row?.workEnds) ?? DEFAULT_WORK_ENDS
  return { start, end, workStarts, workEnds }
}

/** A technician's day (`technicianDayOf`), read in one statement: the company's row with the technician's joined. */
export async function technicianDay(
  companyId: string,
  technicianId: string | null,
  executor: Pick<Database, 'select'> = db(),
): Promise<TechnicianDayPlan> {
  const [row] = await executor
    .select(TECHNICIAN_DAY_COLUMNS)
    .from(companies)
    .leftJoin(
      profiles,
      and(eq(profiles.companyId, companies.id), technicianId ? eq(profiles.id, technicianId) : sql`false`),
    )
    .where(eq(companies.id, companyId))
    .limit(1)
  return technicianDayOf(row)
}

/** The timed problem of a day's routed stops (open, with a place), from its drive distances. */
function timedDay(
  day: Awaited<ReturnType<typeof technicianDay>>,
  routed: readonly RouteStop[],
  measured: { meters: number[][]; seconds?: number[][] },
) {
  const shape: TechnicianDay = {
    start: day.start?.point ?? null,
    end: day.end?.point ?? null,
    workStarts: day.workStarts,
    workEnds: day.workEnds,
  }
  const stops: DayStop[] = routed.map((stop) => ({
    ...stop.window,
    service: stop.minutesOnSite,
    point: stop.point as LatLng,
  }))
  return dayProblem(shape, stops, measured)
}

function dayPoints(day: Awaited<ReturnType<typeof technicianDay>>, routed: readonly RouteStop[]) {
  return [
    ...(day.start ? [day.start.point] : []),
    ...routed.map((stop) => stop.point as LatLng),
    ...(day.end ? [day.end.point] : []),
  ]
}

/**
 * The route page's model: the day's stops in order, the drive distance to each open stop from the one before (from
 * the start address for the first), the drive from the last to the end address, the total, and each open stop's estimated arrival ("ETA 10:40 AM": drives,
 * minutes on site and waits for windows from the start of the technician's working hours; docs/routing.md). Stops
 * without coordinates are listed without distances or times.
 */
export async function getDayRoute(args: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
  /** The technician's day when the caller read it already (with the visit it asks about): one statement fewer. */
  day?: TechnicianDayPlan
}) {
  const [stops, day] = await Promise.all([
    listDayStops(args),
    args.day ?? technicianDay(args.companyId, args.technicianId),
  ])
  const start = day.start
  const routed = stops.filter((stop) => stop.state === 'open' && stop.point)
  const measured = await driveDistances(dayPoints(day, routed))
  const legs = new Map<string, number>()
  const etas = new Map<string, { eta: number; late: number }>()
  let totalMeters = 0
  let endLegMeters: number | null = null
  if (measured.ok) {
    const offset = start ? 1 : 0
    routed.forEach((stop, index) => {
      const from = index + offset - 1
      if (from < 0) return
      const meters = measured.distances.meters[from]?.[index + offset] ?? 0
      legs.set(stop.id, meters)
      totalMeters += meters
    })
    // The drive home: from the last open stop (or the start, on a day with none) to the end address.
    if (day.end && (routed.length > 0 || start)) {
      const last = routed.length + offset - 1
      endLegMeters = measured.distances.meters[last]?.[routed.length + offset] ?? 0
      totalMeters += endLegMeters
    }
    const problem = timedDay(day, routed, measured.distances)
    const times = dayTimes(
      problem,
      routed.map((_, index) => index),
    )
    times.stops.forEach((time, index) => {
      const stop = routed[index]
      if (stop) etas.set(stop.id, { eta: time.start, late: time.late })
    })
  }
  return {
    start,
    /** Where the day ends (the company's address by default) and the drive there from the last open stop. */
    end: day.end && routed.length > 0 ? { ...day.end, legMeters: endLegMeters } : null,
    stops: stops.map((stop) => {
      const time = etas.get(stop.id)
      return {
        ...stop,
        legMeters: legs.get(stop.id) ?? null,
        eta: time ? formatClock(time.eta) : null,
        /** The ETA in minutes from midnight (reminders' and the portal's arrival window). */
        etaMinutes: time ? time.eta : null,
        lateBy: time && time.late > 1e-6 ? Math.ceil(time.late) : null,
      }
    }),
    totalMeters,
    source: measured.ok ? measured.distances.source : ('straight-line' as const),
    fallback: measured.ok ? (measured.distances.fallback ?? null) : measured.message,
  }
}

/**
 * Saves the order of a technician's open stops on a day ("reorder by hand", "Optimize route", "Undo"). `visitIds` must
 * be exactly the day's open stops; anything else (a stop added or finished meanwhile) is a conflict, not a guess.
 */
export async function setRouteOrder({
  companyId,
  timezone,
  technicianId,
  date,
  visitIds,
}: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
  visitIds: readonly string[]
}): Promise<Result<{ previous: string[] }>> {
  if (!isLocalDate(date)) return failure('not-found', 'Route not found.')
  const current = (await listDayStops({ companyId, timezone, technicianId, date })).filter(
    (stop) => stop.state === 'open',
  )
  const previous = current.map((stop) => stop.id)
  const same = visitIds.length === previous.length && new Set(visitIds).size === visitIds.length
  if (!same || !visitIds.every((id) => previous.includes(id))) {
    return failure('conflict', 'The day’s stops changed meanwhile. Reload the route and try again.')
  }
  await db().transaction(async (tx) => {
    // One statement: each stop's position from its place in the list.
    await tx.execute(sql`
      update ${visits} set route_position = ordered.position
      from (select unnest(${sql.param(visitIds)}::uuid[]) as id, generate_series(1, ${visitIds.length}) as position) ordered
      where ${visits.companyId} = ${companyId} and ${visits.id} = ordered.id`)
    await publishCompanyEvent({ companyId, type: 'visit.updated' }, tx)
  })
  return success({ previous })
}

/**
 * "Optimize route" (docs/routing.md, decision 040): reorders the day's open stops with coordinates so every window
 * and appointment is kept when possible with the least driving, else with the least lateness (the late stops are
 * named), from the technician's start at the start of their working hours; stops without coordinates stay at the
 * end. Never worse (lateness, then distance) than the office's own order. Returns the saving and the order before,
 * for "Undo".
 */
export async function optimizeDayRoute(args: {
  companyId: string
  timezone: string
  technicianId: string | null
  date: LocalDate
}): Promise<
  Result<{
    previous: string[]
    beforeMeters: number
    afterMeters: number
    lateBefore: number
    lateAfter: number
    /** "Harold Jenkins (by 9:00 AM)": stops the chosen order still reaches late. */
    late: string[]
  }>
> {
  const [stops, day] = await Promise.all([listDayStops(args), technicianDay(args.companyId, args.technicianId)])
  const open = stops.filter((stop) => stop.state === 'open')
  const routed = open.filter((stop) => stop.point)
  const unplaced = open.filter((stop) => !stop.point)
  if (routed.length < 2) return failure('invalid', 'There is nothing to optimize: the day has fewer than two stops.')
  const measured = await driveDistances(dayPoints(day, routed))
  if (!measured.ok) return measured
  const problem = timedDay(day, routed, measured.distances)
  const before = dayTimes(
    problem,
    routed.map((_, index) => index),
  )
  const optimized = optimizeTimedRoute(problem)
  const order = optimized.order.map((point) => point - problem.offset)
  const after = optimized.times
  // Never worse than the office's own order: less lateness, or as little and no longer.
  const better =
    after.late < before.late - 1e-6 || (Math.abs(after.late - before.late) <= 1e-6 && after.length <= before.length)
  const chosen = better ? order : routed.map((_, index) => index)
  const chosenTimes = better ? after : before
  const visitIds = [...chosen.map((index) => (routed[index] as RouteStop).id), ...unplaced.map((stop) => stop.id)]
  const saved = await setRouteOrder({ ...args, visitIds })
  if (!saved.ok) return saved
  const late = lateStops(chosenTimes).map((time) => {
    const stop = routed[time.point - problem.offset] as RouteStop
    return lateStopLabel(stop.customerName, stop.window.close)
  })
  return success({
    previous: saved.previous,
    beforeMeters: before.length,
    afterMeters: chosenTimes.length,
    lateBefore: before.late,
    lateAfter: chosenTimes.late,
    late,
  })
}

/**
 * The leg of the technician's day that ends at stop `visitId` ("On my way"'s arrival estimate, app/notices/eta.ts):
 * from the open stop before it in route order (still to finish there: its minutes on site), else from the last
 * stop finished before it, else from the company's start. Distances as the route page measures them; `opensAt` is
 * the stop's window opening (an appointment's time), before which the route's ETA never falls. `road: false` reads
 * the day without measuring the drive (meters null): a caller inside a transaction never waits on the road server
 * (docs/routing.md "No network call in a transaction").
 */
export async function legToStop(
  args: {
    companyId: string
    timezone: string
    technicianId: string
    visitId: string
    date: LocalDate
  },
  executor: Pick<Database, 'select'> = db(),
  { road = true }: { road?: boolean } = {},
): Promise<Leg> {
  // In the caller's transaction when given one (the embedded database has one connection: a query beside an open
  // transaction would wait for it forever).
  const stops = await listDayStops(args, executor)
  const start = await companyStart(args.companyId, executor)
  const index = stops.findIndex((stop) => stop.id === args.visitId)
  const before =
    index > 0 ? stops.slice(0, index).filter((stop) => stop.state !== 'skipped' && stop.state !== 'canceled') : []
  const previous = before.at(-1)
  const from = previous?.point ?? (previous ? null : (start?.point ?? null))
  const to = stops[index]?.point ?? null
  const minutesLeftThere = previous?.state === 'open' ? previous.minutesOnSite : 0
  const open = stops[index]?.window.open
  const opensAt = open === undefined ? null : instantAt(args.date, clockTime(open) as WallTime, args.timezone)
  if (!from || !to || !road) return { meters: null, minutesLeftThere, opensAt }
  const measured = await driveDistances([from, to])
  if (!measured.ok) return { meters: null, minutesLeftThere, opensAt }
  return {
    meters: measured.distances.meters[0]?.[1] ?? null,
    seconds: measured.distances.seconds?.[0]?.[1] ?? null,
    minutesLeftThere,
    opensAt,
  }
}
