// Balancing a day's stops between its technicians (docs/routing.md "Balancing", decision 045): "Balance the day"
// moves stops from one technician's route to another's, and within a route, only when the day's total driving gets
// shorter and no route gets later; "Cover this day" first places every stop of one technician on the others' routes
// (cheapest insertion that keeps each route on time), then improves the same way. Pure: the model measures the
// drives; budgets are counts, never a clock (decision 012), so the same day gives the same answer on any machine.

import { cheapestInsertion, detour, insertAt, LATE_EPSILON } from './insertion'
import type { Distance } from './optimize'
import { type RouteTimes, routeTimes, type TimedRouteProblem, type TimedStop } from './windows'

/** A technician's day: where it starts (none: anywhere, no drive to the first stop), ends, and its hours. */
export type Vehicle = { start?: number; end?: number; startTime: number; dayEnd?: number }

export type FleetProblem = {
  /** Points 0…size−1: the technicians' starts and ends and the stops. */
  size: number
  /** One entry per point. */
  stops: readonly TimedStop[]
  travel: Distance
  distance: Distance
  vehicles: readonly Vehicle[]
}

/** Each technician's stops (points), in visiting order. */
export type Plan = number[][]

const PASSES = 60

/** One technician's route as the single-route engine sees it. */
export function vehicleProblem(fleet: FleetProblem, vehicle: Vehicle): TimedRouteProblem {
  // Without a start, a point of its own with no drive to or from it.
  const free = fleet.size
  const start = vehicle.start ?? free
  const zero = (inner: Distance) => (from: number, to: number) => (from === free || to === free ? 0 : inner(from, to))
  return {
    size: fleet.size + 1,
    start,
    startTime: vehicle.startTime,
    ...(vehicle.end !== undefined ? { end: vehicle.end } : {}),
    ...(vehicle.dayEnd !== undefined ? { dayEnd: vehicle.dayEnd } : {}),
    stops: fleet.stops,
    travel: zero(fleet.travel),
    distance: zero(fleet.distance),
  }
}

export function planTimes(fleet: FleetProblem, plan: Plan): RouteTimes[] {
  return fleet.vehicles.map((vehicle, index) => routeTimes(vehicleProblem(fleet, vehicle), plan[index] ?? []))
}

export function totals(times: readonly RouteTimes[]) {
  return {
    late: times.reduce((sum, time) => sum + time.late, 0),
    length: times.reduce((sum, time) => sum + time.length, 0),
  }
}

export type BalanceOptions = {
  /** Stops that stay on their technician's route (started work). */
  pinned?: ReadonlySet<number>
  /** Technicians whose routes may take stops (default: all). */
  receivers?: readonly boolean[]
}

/**
 * Moves stops between routes (and within one) while the total driving gets shorter and no route gets later: never
 * longer in total, and every route on time that was.
 */
export function balancePlan(fleet: FleetProblem, plan: Plan, options: BalanceOptions = {}): Plan {
  const problems = fleet.vehicles.map((vehicle) => vehicleProblem(fleet, vehicle))
  const routes = plan.map((order) => [...order])
  const times = routes.map((order, index) => routeTimes(problems[index] as TimedRouteProblem, order))
  const pinned = options.pinned ?? new Set<number>()
  const receives = (index: number) => options.receivers?.[index] ?? true
  for (let pass = 0; pass < PASSES; pass += 1) {
    let improved = false
    for (let from = 0; from < routes.length; from += 1) {
      for (const point of [...(routes[from] as number[])]) {
        if (pinned.has(point)) continue
        if (relocate(problems, routes, times, from, point, receives)) improved = true
      }
    }
    if (!improved) break
  }
  return routes
}

/**
 * Moves `point` from route `from` to the place (any receiving route, or elsewhere in its own) that shortens the total
 * the most without making either route later. True when it moved.
 */
function relocate(
  problems: readonly TimedRouteProblem[],
  routes: number[][],
  times: RouteTimes[],
  from: number,
  point: number,
  receives: (index: number) => boolean,
) {
  const source = routes[from] as number[]
  const index = source.indexOf(point)
  const without = source.filter((other) => other !== point)
  const fromProblem = problems[from] as TimedRouteProblem
  const fromTimes = times[from] as RouteTimes
  const saving = detour(fromProblem, without, point, index)
  if (saving <= 1e-9) return false
  const withoutTimes = routeTimes(fromProblem, without)
  if (withoutTimes.late > fromTimes.late + LATE_EPSILON) return false
  let best: { to: number; order: number[]; times: RouteTimes; gain: number } | null = null
  for (let to = 0; to < routes.length; to += 1) {
    if (to !== from && !receives(to)) continue
    const problem = problems[to] as TimedRouteProblem
    const target = to === from ? without : (routes[to] as number[])
    const targetTimes = to === from ? withoutTimes : (times[to] as RouteTimes)
    const allowedLate = to === from ? fromTimes.late : targetTimes.late
    for (let position = 0; position <= target.length; position += 1) {
      if (to === from && position === index) continue
      const extra = detour(problem, target, point, position)
      const gain = saving - extra
      if (gain <= 1e-9 || (best && gain <= best.gain)) continue
      const order = insertAt(target, point, position)
      const inserted = routeTimes(problem, order)
      if (inserted.late > allowedLate + LATE_EPSILON) continue
      best = { to, order, times: inserted, gain }
    }
  }
  if (!best) return false
  if (best.to === from) {
    routes[from] = best.order
    times[from] = best.times
  } else {
    routes[from] = without
    times[from] = withoutTimes
    routes[best.to] = best.order
    times[best.to] = best.times
  }
  return true
}

export type CoverResult = {
  plan: Plan
  /** Stops no other route can take without being late: they stay with the covered technician. */
  unplaced: number[]
}

/**
 * "Cover this day": every stop of route `covered` not pinned goes to another route, cheapest insertion first (the
 * stop and place with the least extra driving among those keeping the receiving route no later), then the routes are
 * balanced among the others. Stops no route can take in time stay.
 */
export function coverRoute(fleet: FleetProblem, plan: Plan, covered: number, options: BalanceOptions = {}) {
  const problems = fleet.vehicles.map((vehicle) => vehicleProblem(fleet, vehicle))
  const routes = plan.map((order) => [...order])
  const pinned = options.pinned ?? new Set<number>()
  const receives = (index: number) => index !== covered && (options.receivers?.[index] ?? true)
  let waiting = (routes[covered] ?? []).filter((point) => !pinned.has(point))
  const staying = (routes[covered] ?? []).filter((point) => pinned.has(point))
  // Each stop's cheapest place on each route; only the route that took a stop is looked at again.
  const cache = new Map<number, Array<ReturnType<typeof cheapestInsertion> | undefined>>()
  while (waiting.length > 0) {
    let best: { point: number; to: number; position: number; extra: number } | null = null
    for (const point of waiting) {
      const places = cache.get(point) ?? []
      cache.set(point, places)
      for (let to = 0; to < routes.length; to += 1) {
        if (!receives(to)) continue
        if (places[to] === undefined) {
          places[to] = cheapestInsertion(problems[to] as TimedRouteProblem, routes[to] as number[], point)
        }
        const found = places[to]
        if (found && (!best || found.extra < best.extra - 1e-9)) best = { point, to, ...found }
      }
    }
    if (!best) break
    const { point: placed, to } = best
    routes[to] = insertAt(routes[to] as number[], placed, best.position)
    for (const places of cache.values()) places[to] = undefined
    waiting = waiting.filter((point) => point !== placed)
  }
  routes[covered] = [...staying, ...waiting]
  const keep = new Set([...pinned, ...(routes[covered] as number[])])
  const balanced = balancePlan(fleet, routes, {
    pinned: keep,
    receivers: routes.map((_, index) => receives(index)),
  })
  return { plan: balanced, unplaced: waiting } satisfies CoverResult
}
