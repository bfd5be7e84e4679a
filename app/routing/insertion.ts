// Cheapest insertion of one stop into a timed route (docs/routing.md, "Balancing"): where a new stop costs the least
// extra driving without making the route later than it was. "Balance the day", "Cover this day" and "Suggest a day and
// technician" share it. Pure: no database, no clock.
import { routeTimes, type TimedRouteProblem } from './windows'

/** Lateness differences below this (minutes) are rounding, not lateness. */
export const LATE_EPSILON = 1e-6

export type Insertion = {
  /** Index in the order the stop goes before (order.length: at the end). */
  position: number
  /** Driving length added (the route's length with the stop minus without it). */
  extra: number
  /** Total lateness of the route with the stop. */
  late: number
}

/** `order` with `point` at `position`. */
export function insertAt(order: readonly number[], point: number, position: number) {
  return [...order.slice(0, position), point, ...order.slice(position)]
}

/**
 * The length a stop adds between its neighbors: from the stop before (the start for the first) to it and on to the
 * stop after (the end, if any, for the last; nothing when the route ends at its last stop).
 */
export function detour(problem: TimedRouteProblem, order: readonly number[], point: number, position: number) {
  const before = position === 0 ? problem.start : (order[position - 1] as number)
  const after = position === order.length ? problem.end : order[position]
  if (after === undefined) return problem.distance(before, point)
  return problem.distance(before, point) + problem.distance(point, after) - problem.distance(before, after)
}

/**
 * The cheapest place for `point` in `order`: the least extra driving among the positions that leave the route no
 * later than `maxLate` (its lateness without the stop, by default: a route on time stays on time). Null when no
 * position does.
 */
export function cheapestInsertion(
  problem: TimedRouteProblem,
  order: readonly number[],
  point: number,
  { maxLate = routeTimes(problem, order).late }: { maxLate?: number } = {},
): Insertion | null {
  const base = routeTimes(problem, order).length
  const candidates = Array.from({ length: order.length + 1 }, (_, position) => ({
    position,
    detour: detour(problem, order, point, position),
  })).sort((a, b) => a.detour - b.detour || a.position - b.position)
  // Cheapest first: the first position on time is the answer.
  for (const { position } of candidates) {
    const times = routeTimes(problem, insertAt(order, point, position))
    if (times.late <= maxLate + LATE_EPSILON) return { position, extra: times.length - base, late: times.late }
  }
  return null
}
