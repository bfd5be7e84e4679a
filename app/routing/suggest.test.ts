// "Suggest a day and technician" (docs/routing.md "Suggesting a day"): the minutes a new pool adds are never
// negative, a route that already passes its position costs nothing, the list is sorted and is exactly what trying
// every place on every route finds.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type FleetProblem, vehicleProblem } from './balance'
import { insertAt } from './insertion'
import { addedMinutes, rankSuggestions, SUGGESTIONS, type SuggestionCandidate } from './suggest'
import { routeTimes } from './windows'

type Point = [number, number]

/**
 * Points: the technicians' starts (0…vehicles−1), optional ends after them, the new pool, then the stops. Euclidean
 * plane; driving minutes are distance ÷ 2 (so minutes and distance differ); the distance is not what is ranked.
 */
function fleetOf(points: readonly Point[], vehicles: number, withEnds: boolean): FleetProblem {
  const euclid = (i: number, j: number) =>
    Math.hypot((points[i] as Point)[0] - (points[j] as Point)[0], (points[i] as Point)[1] - (points[j] as Point)[1])
  return {
    size: points.length,
    stops: points.map(() => ({ service: 10 })),
    distance: euclid,
    travel: (i, j) => euclid(i, j) / 2,
    vehicles: Array.from({ length: vehicles }, (_, index) => ({
      start: index,
      ...(withEnds ? { end: vehicles + index } : {}),
      startTime: 480,
      dayEnd: 600,
    })),
  }
}

const coordinate = fc.integer({ min: 0, max: 100 })
const point = fc.tuple(coordinate, coordinate)

/** A week: 1–4 technicians, a new pool, 0–30 stops dealt to (weekday, technician, occurrence) routes. */
const week = fc
  .record({
    vehicles: fc.integer({ min: 1, max: 4 }),
    withEnds: fc.boolean(),
    places: fc.array(point, { minLength: 9, maxLength: 9 }),
    pool: point,
    stops: fc.array(
      fc.record({ at: point, weekday: fc.integer({ min: 1, max: 3 }), occurrence: fc.integer({ min: 0, max: 1 }) }),
      { maxLength: 30 },
    ),
    owners: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
    occurrences: fc.integer({ min: 1, max: 2 }),
  })
  .map(({ vehicles, withEnds, places, pool, stops, owners, occurrences }) => {
    const points: Point[] = [...places.slice(0, vehicles * 2), pool, ...stops.map((stop) => stop.at)]
    const fleet = fleetOf(points, vehicles, withEnds)
    const poolPoint = vehicles * 2
    const candidates: SuggestionCandidate<string>[] = []
    for (let weekday = 1; weekday <= 3; weekday += 1) {
      for (let vehicle = 0; vehicle < vehicles; vehicle += 1) {
        const routes = Array.from({ length: occurrences }, (_, occurrence) =>
          stops.flatMap((stop, index) =>
            stop.weekday === weekday &&
            stop.occurrence === occurrence &&
            (owners[index] as number) % vehicles === vehicle
              ? [poolPoint + 1 + index]
              : [],
          ),
        )
        candidates.push({ key: `${weekday}:${vehicle}`, vehicle, routes })
      }
    }
    return { fleet, poolPoint, candidates, points }
  })

/** Every place for the stop tried, by the route's own times: the least added driving minutes. */
function exhaustive(fleet: FleetProblem, vehicle: number, order: readonly number[], stop: number) {
  const problem = vehicleProblem(fleet, fleet.vehicles[vehicle] as FleetProblem['vehicles'][number])
  const minutes = { ...problem, distance: problem.travel }
  const base = routeTimes(minutes, order).length
  let best = Number.POSITIVE_INFINITY
  for (let position = 0; position <= order.length; position += 1) {
    best = Math.min(best, routeTimes(minutes, insertAt(order, stop, position)).length - base)
  }
  return Math.max(0, best)
}

describe('suggesting a day and technician', () => {
  it('never adds negative minutes, even with road times that break the triangle inequality', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 100, maxLength: 100 }),
        (size, times) => {
          const travel = (i: number, j: number) => (i === j ? 0 : (times[(i * 10 + j) % 100] as number))
          const fleet: FleetProblem = {
            size,
            stops: Array.from({ length: size }, () => ({})),
            distance: travel,
            travel,
            vehicles: [{ start: 0, startTime: 480 }],
          }
          const order = Array.from({ length: size - 2 }, (_, index) => index + 2)
          expect(addedMinutes(fleet, 0, order, 1)).toBeGreaterThanOrEqual(0)
        },
      ),
    )
  })

  it('costs about nothing on a route that already passes the pool', () => {
    fc.assert(
      fc.property(week, fc.nat(), fc.integer({ min: 0, max: 10 }), ({ fleet, candidates, points }, pick, step) => {
        const withStops = candidates.filter((candidate) => (candidate.routes[0]?.length ?? 0) > 0)
        fc.pre(withStops.length > 0)
        const candidate = withStops[pick % withStops.length] as SuggestionCandidate<string>
        const order = candidate.routes[0] as readonly number[]
        // A new place on the way from one stop (or the start) to the next: a tenth-step along the straight line.
        const at = pick % order.length
        const from = at === 0 ? (fleet.vehicles[candidate.vehicle]?.start as number) : (order[at - 1] as number)
        const to = order[at] as number
        const [a, b] = [points[from] as Point, points[to] as Point]
        const on: Point = [a[0] + ((b[0] - a[0]) * step) / 10, a[1] + ((b[1] - a[1]) * step) / 10]
        const extended = fleetOf([...points, on], fleet.vehicles.length, fleet.vehicles[0]?.end !== undefined)
        expect(addedMinutes(extended, candidate.vehicle, order, points.length)).toBeCloseTo(0, 9)
      }),
    )
  })

  it('is sorted, at most five, and exactly what trying every place on every route finds', () => {
    fc.assert(
      fc.property(week, ({ fleet, poolPoint, candidates }) => {
        const ranked = rankSuggestions(fleet, poolPoint, candidates)
        expect(ranked).toHaveLength(Math.min(SUGGESTIONS, candidates.length))
        for (let index = 1; index < ranked.length; index += 1) {
          expect((ranked[index] as { extraMinutes: number }).extraMinutes).toBeGreaterThanOrEqual(
            (ranked[index - 1] as { extraMinutes: number }).extraMinutes,
          )
        }
        const expected = candidates
          .map((candidate) => {
            const costs = candidate.routes.map((order) => exhaustive(fleet, candidate.vehicle, order, poolPoint))
            return costs.reduce((sum, cost) => sum + cost, 0) / costs.length
          })
          .sort((a, b) => a - b)
          .slice(0, SUGGESTIONS)
        ranked.forEach((suggestion, index) => {
          expect(suggestion.extraMinutes).toBeGreaterThanOrEqual(0)
          expect(suggestion.extraMinutes).toBeCloseTo(expected[index] as number, 9)
        })
        // Each row's own cost is its pair's.
        for (const suggestion of ranked) {
          const candidate = candidates.find((c) => c.key === suggestion.key) as SuggestionCandidate<string>
          const costs = candidate.routes.map((order) => exhaustive(fleet, candidate.vehicle, order, poolPoint))
          expect(suggestion.extraMinutes).toBeCloseTo(costs.reduce((s, c) => s + c, 0) / costs.length, 9)
          expect(suggestion.stops).toBe(candidate.routes[0]?.length ?? 0)
        }
      }),
    )
  })

  it('ranks the technician whose route passes the pool first, with its stop count', () => {
    // Two technicians start at (0,0); Tuesday's route runs along y = 0 past the pool at (50, 0), Monday's far away.
    const points: Point[] = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [50, 0],
      [20, 0],
      [80, 0],
      [0, 90],
    ]
    const fleet = fleetOf(points, 2, false)
    const ranked = rankSuggestions(fleet, 4, [
      { key: 'Mon A', vehicle: 0, routes: [[7]] },
      { key: 'Tue B', vehicle: 1, routes: [[5, 6]] },
      { key: 'Tue A', vehicle: 0, routes: [[]] },
    ])
    expect(ranked.map((row) => row.key)).toEqual(['Tue B', 'Tue A', 'Mon A'])
    expect(ranked[0]).toEqual({ key: 'Tue B', extraMinutes: 0, stops: 2 })
    // An empty day: from the start to the pool (no end address: the day ends there), 50 ÷ 2 minutes.
    expect(ranked[1]?.extraMinutes).toBeCloseTo(25, 9)
  })
})
