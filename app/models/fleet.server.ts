// The fleet problem of a day (docs/routing.md "Balancing"): the company's technicians with their day's shape (start,
// end, working hours), and the distances and travel times between their stops, as app/routing/balance.ts solves it —
// for "Balance the day", "Cover this day" and "Suggest a day and technician".
import { and, asc, eq, isNull } from 'drizzle-orm'
import { profiles } from '~/db/schema'
import type { FleetProblem, Vehicle } from '~/routing/balance'
import type { LatLng } from '~/routing/distance'
import { driveDistances } from '~/routing/drive-distances.server'
import { DEFAULT_METERS_PER_MINUTE } from '~/routing/route-file'
import type { TimedStop } from '~/routing/windows'
import { DEFAULT_WORK_ENDS, DEFAULT_WORK_STARTS, wallMinutes } from '~/schedule/day-times'
import { db } from '~/utils/db.server'
import { success } from '~/utils/result'
import { companyStart } from './day-route.server'
import type { RouteStop } from './day-stops.server'

export type Technician = {
  id: string
  name: string
  start: LatLng | null
  end: LatLng | null
  workStarts: number
  workEnds: number
}

/** The company's active technicians with their day's shape (Team → technician; the company's address by default). */
export async function technicianDays(companyId: string): Promise<Technician[]> {
  const [company, rows] = await Promise.all([
    companyStart(companyId),
    db()
      .select({
        id: profiles.id,
        name: profiles.fullName,
        email: profiles.email,
        startLat: profiles.startLat,
        startLng: profiles.startLng,
        endLat: profiles.endLat,
        endLng: profiles.endLng,
        workStarts: profiles.workStarts,
        workEnds: profiles.workEnds,
      })
      .from(profiles)
      .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
      .orderBy(asc(profiles.fullName), asc(profiles.id)),
  ])
  const place = (lat: number | null, lng: number | null) => (lat !== null && lng !== null ? { lat, lng } : null)
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? row.email,
    start: place(row.startLat, row.startLng) ?? company?.point ?? null,
    end: place(row.endLat, row.endLng) ?? company?.point ?? null,
    workStarts: wallMinutes(row.workStarts) ?? DEFAULT_WORK_STARTS,
    workEnds: wallMinutes(row.workEnds) ?? DEFAULT_WORK_ENDS,
  }))
}

/**
 * The fleet problem of the day: each technician's start and end, then every visit with a place (`pointOf` maps a
 * visit's id to its point). "Suggest a day and technician" passes the visits of several days and the new pool.
 */
export async function fleetOf(
  technicians: readonly Technician[],
  visits: ReadonlyArray<Pick<RouteStop, 'id' | 'point' | 'window' | 'minutesOnSite'>>,
) {
  const points: LatLng[] = []
  const stops: TimedStop[] = []
  const add = (point: LatLng, stop: TimedStop = {}) => {
    points.push(point)
    stops.push(stop)
    return points.length - 1
  }
  const vehicles: Vehicle[] = technicians.map((technician) => ({
    ...(technician.start ? { start: add(technician.start) } : {}),
    ...(technician.end ? { end: add(technician.end) } : {}),
    startTime: technician.workStarts,
    dayEnd: technician.workEnds,
  }))
  const pointOf = new Map<string, number>()
  for (const visit of visits) {
    if (visit.point) pointOf.set(visit.id, add(visit.point, { ...visit.window, service: visit.minutesOnSite }))
  }
  const measured = await driveDistances(points)
  if (!measured.ok) return measured
  const { meters, seconds } = measured.distances
  const distance = (from: number, to: number) => meters[from]?.[to] ?? 0
  const travel = (from: number, to: number) => {
    const time = seconds?.[from]?.[to]
    return time != null && Number.isFinite(time) ? time / 60 : distance(from, to) / DEFAULT_METERS_PER_MINUTE
  }
  const fleet: FleetProblem = { size: points.length, stops, distance, travel, vehicles }
  return success({ fleet, pointOf, source: measured.distances.source })
}
