// A technician's stops of a day (or a week) in route order, as the route page, Today and the balancer read them
// (docs/routing.md "On the screens").
import { and, asc, eq, gte, isNull, lt, sql } from 'drizzle-orm'
import { serviceLocations, visits } from '~/db/schema'
import type { LatLng } from '~/routing/distance'
import { formatClock, stopWindow, wallMinutes } from '~/schedule/day-times'
import { addDays, instantAt, type LocalDate, localDateAt } from '~/schedule/local-date'
import { formatTime, zonedParts } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { visitLocation } from './service-location.server'
import { visitSummaryColumns } from './visit-record.server'
import { type VisitState, visitState } from './visit-state'

/** A day's route has at most this many stops. */
export const ROUTE_LIMIT = 200

export type RouteStop = {
  id: string
  customerName: string
  address: string
  time: string
  state: VisitState
  skipReason: string | null
  minutesOnSite: number
  /** Minutes from the day's midnight: a fixed appointment is [T, T], else the location's "Arrive between". */
  window: { open?: number; close?: number }
  /** "Appointment 8:00 AM" or "Arrive 9:00 AM–11:00 AM"; null without a window. */
  windowLabel: string | null
  point: LatLng | null
  /** The point is its ZIP code's center (docs/subsystems.md, "Positions"): routed, but shown as approximate. */
  approximate: boolean
  customerId: string
  locationId: string
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
}

export const stopColumns = {
  id: visits.id,
  ...visitSummaryColumns,
  lat: serviceLocations.lat,
  lng: serviceLocations.lng,
  positionSource: serviceLocations.positionSource,
  customerId: visits.customerId,
  locationId: visits.locationId,
  minutesOnSite: serviceLocations.minutesOnSite,
  appointmentAt: visits.appointmentAt,
  arriveFrom: serviceLocations.arriveFrom,
  arriveUntil: serviceLocations.arriveUntil,
  gateCode: serviceLocations.gateCode,
  accessNotes: serviceLocations.accessNotes,
  dogOnSite: serviceLocations.dogOnSite,
}

/** A technician's (or the unassigned) visits in [start, end); canceled one-offs are left out, skipped ones stay. */
function selectStops(
  companyId: string,
  technicianId: string | null,
  start: Date,
  end: Date,
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select(stopColumns)
    .from(visits)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(visits.companyId, companyId),
        technicianId ? eq(visits.technicianId, technicianId) : isNull(visits.technicianId),
        gte(visits.scheduledAt, start),
        lt(visits.scheduledAt, end),
        sql`(${visits.canceledAt} is null or ${visits.skipReason} is not null)`,
      ),
    )
}

/** The office's order first (route_position), then by time. */
const routeOrder = [sql`${visits.routePosition} asc nulls last`, asc(visits.scheduledAt), asc(visits.id)]

export function toRouteStop(row: Awaited<ReturnType<typeof selectStops>>[number], timezone: string): RouteStop {
  const appointment = row.appointmentAt ? zonedParts(row.appointmentAt, timezone) : null
  const window = stopWindow({
    appointment: appointment ? appointment.hour * 60 + appointment.minute : null,
    arriveFrom: wallMinutes(row.arriveFrom),
    arriveUntil: wallMinutes(row.arriveUntil),
  })
  return {
    window,
    windowLabel: windowLabel(window, appointment !== null),
    id: row.id,
    customerName: row.customerName,
    address: row.address,
    time: formatTime(row.scheduledAt, timezone),
    state: visitState(row),
    skipReason: row.skipReason,
    minutesOnSite: row.minutesOnSite,
    point: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    approximate: row.lat !== null && row.positionSource === 'zip',
    customerId: row.customerId,
    locationId: row.locationId,
    gateCode: row.gateCode,
    accessNotes: row.accessNotes,
    dogOnSite: row.dogOnSite,
  }
}

function windowLabel(window: { open?: number; close?: number }, appointment: boolean) {
  if (appointment && window.open !== undefined) return `Appointment ${formatClock(window.open)}`
  if (window.open !== undefined && window.close !== undefined) {
    return `Arrive ${formatClock(window.open)}–${formatClock(window.close)}`
  }
  if (window.open !== undefined) return `Arrive after ${formatClock(window.open)}`
  if (window.close !== undefined) return `Arrive by ${formatClock(window.close)}`
  return null
}

/**
 * A technician's visits on one local date, in route order: the office's order first (route_position), then by time.
 * Open and finished stops both (the technician's "Today" collapses finished ones); canceled one-offs are left out.
 */
export async function listDayStops(
  {
    companyId,
    timezone,
    technicianId,
    date,
  }: {
    companyId: string
    timezone: string
    technicianId: string | null
    date: LocalDate
  },
  executor: Pick<Database, 'select'> = db(),
): Promise<RouteStop[]> {
  const start = instantAt(date, '00:00', timezone)
  const end = instantAt(addDays(date, 1), '00:00', timezone)
  const rows = await selectStops(companyId, technicianId, start, end, executor)
    .orderBy(...routeOrder)
    .limit(ROUTE_LIMIT)
  return rows.map((row) => toRouteStop(row, timezone))
}

/**
 * A technician's week from Monday `weekStart` ("This week", docs/product.md "The visit", "Easy to get wrong") in one
 * query: seven days, each with its stops in route order as `listDayStops` gives them (a day with nothing has no stops).
 */
export async function listTechnicianWeek({
  companyId,
  timezone,
  technicianId,
  weekStart,
}: {
  companyId: string
  timezone: string
  technicianId: string
  weekStart: LocalDate
}): Promise<Array<{ date: LocalDate; stops: RouteStop[] }>> {
  const start = instantAt(weekStart, '00:00', timezone)
  const end = instantAt(addDays(weekStart, 7), '00:00', timezone)
  const rows = await selectStops(companyId, technicianId, start, end)
    // Route order holds within a day: the local day comes first.
    .orderBy(sql`(${visits.scheduledAt} at time zone ${timezone})::date`, ...routeOrder)
    .limit(7 * ROUTE_LIMIT)
  const days = Array.from({ length: 7 }, (_, i) => ({ date: addDays(weekStart, i), stops: [] as RouteStop[] }))
  const byDate = new Map(days.map((day) => [day.date, day.stops]))
  for (const row of rows) byDate.get(localDateAt(row.scheduledAt, timezone))?.push(toRouteStop(row, timezone))
  return days
}
