// A technician's day as the timed route engine sees it (docs/routing.md, decision 040): each stop's window (a fixed
// appointment is [T, T]; else the location's "Arrive between"), its minutes on site, the day's start point and
// working hours, and the estimated times the screens show ("ETA 10:40 AM"). Pure: the model measures the drives.
import type { LatLng } from '~/routing/distance'
import { DEFAULT_METERS_PER_MINUTE } from '~/routing/route-file'
import { type RouteTimes, routeTimes, type TimedRouteProblem, type TimedStop } from '~/routing/windows'

/** Working hours when a technician has none set: 8:00 AM to 5:00 PM. */
export const DEFAULT_WORK_STARTS = 8 * 60
export const DEFAULT_WORK_ENDS = 17 * 60

/** "08:30" or "08:30:00" (a PostgreSQL `time`) as minutes from midnight; null when absent or malformed. */
export function wallMinutes(time: string | null | undefined): number | null {
  const match = /^(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(time ?? '')
  if (!match) return null
  const hours = Number(match[1])
  const minutes = Number(match[2])
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null
}

/** Minutes from midnight as "10:40 AM" (rounded to the minute). */
export function formatClock(minutesFromMidnight: number) {
  const rounded = ((Math.round(minutesFromMidnight) % 1440) + 1440) % 1440
  const hours = Math.floor(rounded / 60)
  const minutes = rounded % 60
  const twelve = hours % 12 === 0 ? 12 : hours % 12
  return `${twelve}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`
}

/** A stop's window: a fixed appointment wins over the location's "Arrive between". */
export function stopWindow({
  appointment,
  arriveFrom,
  arriveUntil,
}: {
  /** Minutes from midnight of the appointment, on the visit's day. */
  appointment: number | null
  arriveFrom: number | null
  arriveUntil: number | null
}): { open?: number; close?: number } {
  if (appointment !== null) return { open: appointment, close: appointment }
  return {
    ...(arriveFrom !== null ? { open: arriveFrom } : {}),
    ...(arriveUntil !== null ? { close: arriveUntil } : {}),
  }
}

/** The latest arrival a window allows, for "Cannot be reached in time: Harold Jenkins (by 9:00 AM)". */
export function lateStopLabel(customerName: string, close: number | undefined) {
  return close === undefined ? customerName : `${customerName} (by ${formatClock(close)})`
}

export type DayStop = TimedStop & { point: LatLng }

export type TechnicianDay = {
  start: LatLng | null
  end: LatLng | null
  workStarts: number
  workEnds: number
}

/**
 * The timed problem for a day: points are [start?, ...stops, end?], in that order, with driving minutes from the
 * measured seconds when given, else meters at the default speed (30 mph).
 */
export function dayProblem(
  day: TechnicianDay,
  stops: readonly DayStop[],
  measured: { meters: number[][]; seconds?: number[][] },
): TimedRouteProblem & { offset: number } {
  const offset = day.start ? 1 : 0
  const endIndex = day.end ? offset + stops.length : undefined
  const size = offset + stops.length + (day.end ? 1 : 0)
  // Without a start, the route starts at a free point: no drive from it to any stop.
  const free = size
  const distance = (from: number, to: number) => (from === free || to === free ? 0 : (measured.meters[from]?.[to] ?? 0))
  const travel = (from: number, to: number) => {
    if (from === free || to === free) return 0
    const seconds = measured.seconds?.[from]?.[to]
    return seconds != null && Number.isFinite(seconds) ? seconds / 60 : distance(from, to) / DEFAULT_METERS_PER_MINUTE
  }
  const timed: TimedStop[] = [
    ...(day.start ? [{}] : []),
    ...stops.map(({ open, close, service }) => ({ open, close, service })),
    ...(day.end ? [{}] : []),
    {},
  ]
  return {
    size: day.start ? size : size + 1,
    start: day.start ? 0 : free,
    startTime: day.workStarts,
    ...(endIndex !== undefined ? { end: endIndex } : {}),
    dayEnd: day.workEnds,
    stops: timed,
    travel,
    distance,
    offset,
  }
}

/** Estimated times of the stops in their given order (indexes into `stops`). */
export function dayTimes(problem: TimedRouteProblem & { offset: number }, order: readonly number[]): RouteTimes {
  return routeTimes(
    problem,
    order.map((index) => index + problem.offset),
  )
}
