// Balancing a day between technicians (docs/routing.md "Balancing"): never longer in total, never later, every stop
// kept exactly once, pinned stops where they were; "Cover this day" empties the covered route of every stop another
// can take in time; cheapest insertion's cost is the route's length difference.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { balancePlan, coverRoute, type FleetProblem, type Plan, planTimes, totals, vehicleProblem } from './balance'
import { cheapestInsertion, insertAt } from './insertion'
import { routeTimes, type TimedStop } from './windows'

type Point = [number, number]

/** Points 0…vehicles−1 are the technicians' starts; the rest are stops. Euclidean plane, speed 1. */
function fleet(points: readonly Point[], vehicles: number, stops: readonly TimedStop[], dayEnd?: number): FleetProblem {
  const distance = (i: number, j: number) =>
    Math.hypot((points[i] as Point)[0] - (points[j] as Point)[0], (points[i] as Point)[1] - (points[j] as Point)[1])
  return {
    size: points.length,
    stops,
    distance,
    travel: distance,
    vehicles: Array.from({ length: vehicles }, (_, index) => ({ start: index, startTime: 480, dayEnd })),
  }
}

const coordinate = fc.integer({ min: 0, max: 100 })
const point = fc.tuple(coordinate, coordinate)

/** A day: 2–5 technicians, 0–24 stops dealt round-robin (or as drawn), some with windows, minutes on site. */
const day = fc
  .record({
    vehicles: fc.integer({ min: 2, max: 5 }),
    stops: fc.array(
      fc.record({
        at: point,
        window: fc.option(
          fc.tuple(fc.integer({ min: 480, max: 900 }), fc.integer({ min: 0, max: 240 })).map(([open, span]) => ({
            open,
            close: open + span,
          })),
          { freq: 3 },
        ),
        service: fc.integer({ min: 0, max: 30 }),
        owner: fc.nat(),
      }),
      { maxLength: 24 },
    ),
    starts: fc.array(point, { minLength: 5, maxLength: 5 }),
    dayEnd: fc.option(fc.integer({ min: 600, max: 1200 }), { nil: undefined }),
  })
  .map(({ vehicles, stops, starts, dayEnd }) => {
    const points: Point[] = [...starts.slice(0, vehicles), ...stops.map((stop) => stop.at)]
    const timed: TimedStop[] = [
      ...starts.slice(0, vehicles).map(() => ({})),
      ...stops.map((stop) => ({ ...(stop.window ?? {}), service: stop.service })),
    ]
    const plan: Plan = Array.from({ length: vehicles }, () => [])
    for (const [index, stop] of stops.entries()) plan[stop.owner % vehicles]?.push(vehicles + index)
    return { problem: fleet(points, vehicles, timed, dayEnd), plan }
  })

const sorted = (plan: Plan) => plan.flat().sort((a, b) => a - b)

describe('balancePlan', () => {
  it('never lengthens the total, never makes a route later, and keeps every stop once', () => {
    fc.assert(
      fc.property(day, ({ problem, plan }) => {
        const before = planTimes(problem, plan)
        const after = planTimes(problem, balancePlan(problem, plan))
        expect(totals(after).length).toBeLessThanOrEqual(totals(before).length + 1e-9)
        // Every route on time stays on time (a feasible day stays feasible); no route gets later.
        after.forEach((times, index) => {
          expect(times.late).toBeLessThanOrEqual((before[index]?.late ?? 0) + 1e-6)
        })
        expect(sorted(balancePlan(problem, plan))).toEqual(sorted(plan))
      }),
      { numRuns: 150 },
    )
  })

  it('keeps pinned stops on their route and moves a stop that sits far away onto the route beside it', () => {
    // Two technicians at opposite corners; technician 0 has a stop next to technician 1's start.
    const problem = fleet(
      [
        [0, 0],
        [100, 100],
        [1, 1],
        [99, 99],
        [98, 98],
      ],
      2,
      [{}, {}, {}, {}, {}],
    )
    const plan: Plan = [[2, 3], [4]]
    const balanced = balancePlan(problem, plan)
    expect(balanced[0]).toEqual([2])
    expect(sorted(balanced)).toEqual([2, 3, 4])
    expect(balancePlan(problem, plan, { pinned: new Set([3]) })[0]).toContain(3)
  })

  it('keeps a window: a far stop whose window only its own technician can make stays', () => {
    // Stop 3 (near technician 1) must be reached by 8:02: only technician 0, who is already there, can make it.
    const problem = fleet(
      [
        [0, 0],
        [100, 100],
        [1, 1],
        [0, 1],
        [98, 98],
      ],
      2,
      [{}, {}, {}, { open: 480, close: 482 }, {}],
    )
    const balanced = balancePlan(problem, [[3, 2], [4]])
    expect(balanced[0]).toContain(3)
  })
})

describe('coverRoute', () => {
  it('places every stop another route can take in time, leaves the rest, and never makes another route later', () => {
    fc.assert(
      fc.property(day, ({ problem, plan }) => {
        const before = planTimes(problem, plan)
        const { plan: covered, unplaced } = coverRoute(problem, plan, 0)
        expect(sorted(covered)).toEqual(sorted(plan))
        expect([...(covered[0] ?? [])].sort((a, b) => a - b)).toEqual([...unplaced].sort((a, b) => a - b))
        const after = planTimes(problem, covered)
        after.forEach((times, index) => {
          if (index > 0) expect(times.late).toBeLessThanOrEqual((before[index]?.late ?? 0) + 1e-6)
        })
      }),
      { numRuns: 100 },
    )
  })
})

describe('cheapestInsertion', () => {
  it('costs exactly the route length difference, at the least extra length among the on-time places', () => {
    fc.assert(
      fc.property(day, fc.boolean(), ({ problem, plan }, hasEnd) => {
        const vehicle = { ...(problem.vehicles[0] ?? { startTime: 480 }), ...(hasEnd ? { end: 1 } : {}) }
        const single = vehicleProblem(problem, vehicle)
        const [point, ...rest] = plan.slice(0).flat()
        if (point === undefined) return
        const order = rest.slice(0, 8)
        const found = cheapestInsertion(single, order, point)
        const base = routeTimes(single, order)
        const places = Array.from({ length: order.length + 1 }, (_, position) =>
          routeTimes(single, insertAt(order, point, position)),
        )
        const onTime = places.filter((times) => times.late <= base.late + 1e-6)
        if (onTime.length === 0) {
          expect(found).toBeNull()
          return
        }
        expect(found).not.toBeNull()
        if (!found) return
        const inserted = routeTimes(single, insertAt(order, point, found.position))
        expect(found.extra).toBeCloseTo(inserted.length - base.length, 9)
        expect(found.extra).toBeCloseTo(Math.min(...onTime.map((times) => times.length)) - base.length, 9)
      }),
      { numRuns: 200 },
    )
  })
})
