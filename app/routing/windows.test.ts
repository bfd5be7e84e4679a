import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { optimizeRoute } from './optimize'
import { lateStops, optimizeTimedRoute, routeTimes, type TimedRouteProblem, type TimedStop } from './windows'

type Point = [number, number]

/** A problem on a grid: point 0 is the start, point 1 the end when `hasEnd`, the rest are stops. */
function gridProblem(
  points: readonly Point[],
  stops: readonly TimedStop[],
  options: { startTime?: number; hasEnd?: boolean; dayEnd?: number; extra?: readonly number[][] } = {},
): TimedRouteProblem {
  const manhattan = (i: number, j: number) =>
    Math.abs((points[i] as Point)[0] - (points[j] as Point)[0]) +
    Math.abs((points[i] as Point)[1] - (points[j] as Point)[1])
  return {
    size: points.length,
    start: 0,
    end: options.hasEnd ? 1 : undefined,
    startTime: options.startTime ?? 480,
    dayEnd: options.dayEnd,
    stops,
    distance: manhattan,
    travel: (i, j) => manhattan(i, j) + (options.extra?.[i]?.[j] ?? 0),
  }
}

/**
 * Every order of the stops, written here without the optimizer's code: the least total lateness, and the least
 * length among the orders with that lateness.
 */
function exhaustive(problem: TimedRouteProblem) {
  const stops = Array.from({ length: problem.size }, (_, i) => i).filter(
    (i) => i !== problem.start && i !== problem.end,
  )
  let best = { late: Number.POSITIVE_INFINITY, length: Number.POSITIVE_INFINITY }
  const used = new Array<boolean>(problem.size).fill(false)
  const walk = (at: number, time: number, late: number, length: number, placed: number) => {
    // Lateness and length only grow along an order: a prefix no better than the best cannot lead to a better one.
    if (late > best.late || (late === best.late && length > best.length)) return
    if (placed === stops.length) {
      let finish = time
      if (problem.end !== undefined) {
        finish += problem.travel(at, problem.end)
        length += problem.distance(at, problem.end)
      }
      if (problem.dayEnd !== undefined) late += Math.max(0, finish - problem.dayEnd)
      if (late < best.late || (late === best.late && length < best.length)) best = { late, length }
      return
    }
    for (const stop of stops) {
      if (used[stop]) continue
      const { open = -Infinity, close = Infinity, service = 0 } = problem.stops[stop] ?? {}
      const arrival = time + problem.travel(at, stop)
      used[stop] = true
      walk(
        stop,
        Math.max(arrival, open) + service,
        late + Math.max(0, arrival - close),
        length + problem.distance(at, stop),
        placed + 1,
      )
      used[stop] = false
    }
  }
  walk(problem.start, problem.startTime, 0, 0, 0)
  return best
}

/** Arrival times along an order with no waiting, for windows built around them. */
function arrivals(problem: Omit<TimedRouteProblem, 'stops'>, order: readonly number[], service: readonly number[]) {
  let time = problem.startTime
  let at = problem.start
  return order.map((stop) => {
    const arrival = time + problem.travel(at, stop)
    time = arrival + (service[stop] ?? 0)
    at = stop
    return arrival
  })
}

/**
 * Small problems (0–9 stops) on a 30×30 grid, integer minutes, with travel times that may exceed the distances
 * (traffic) and disagree with them. Half have windows built around a random order's arrivals, so a feasible order
 * is known to exist; the others have random windows, often impossible to keep.
 */
const problems = (minStops: number, maxStops: number) =>
  fc
    .record({
      stopCount: fc.integer({ min: minStops, max: maxStops }),
      hasEnd: fc.boolean(),
      seedPoints: fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })), {
        minLength: 13,
        maxLength: 13,
      }),
      extra: fc.array(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 13, maxLength: 13 }), {
        minLength: 13,
        maxLength: 13,
      }),
      traffic: fc.boolean(),
      feasible: fc.boolean(),
      service: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 13, maxLength: 13 }),
      shape: fc.array(
        fc.record({
          kind: fc.constantFrom('none', 'window', 'appointment', 'until'),
          before: fc.integer({ min: 0, max: 40 }),
          after: fc.integer({ min: 0, max: 40 }),
          at: fc.integer({ min: 480, max: 720 }),
        }),
        { minLength: 13, maxLength: 13 },
      ),
      permutation: fc.array(fc.nat(), { minLength: 13, maxLength: 13 }),
      dayEnd: fc.option(fc.integer({ min: 500, max: 900 }), { nil: undefined }),
    })
    .map((input) => {
      const size = input.stopCount + 1 + (input.hasEnd ? 1 : 0)
      const points = input.seedPoints.slice(0, size) as Point[]
      const base = gridProblem(points, [], {
        hasEnd: input.hasEnd,
        dayEnd: input.dayEnd,
        extra: input.traffic ? input.extra : undefined,
      })
      const stopPoints = Array.from({ length: size }, (_, i) => i).filter((i) => i !== base.start && i !== base.end)
      // A random order (sort by the generated keys) whose arrivals the windows are built around.
      const order = [...stopPoints].sort((a, b) => (input.permutation[a] ?? 0) - (input.permutation[b] ?? 0) || a - b)
      const times = arrivals(base, order, input.service)
      const stops: TimedStop[] = Array.from({ length: size }, () => ({}))
      order.forEach((stop, k) => {
        const { kind, before, after, at } = input.shape[stop] as (typeof input.shape)[number]
        const center = input.feasible ? (times[k] as number) : at
        const service = input.service[stop] ?? 0
        if (kind === 'none') stops[stop] = { service }
        else if (kind === 'appointment') stops[stop] = { open: center, close: center, service }
        else if (kind === 'until') stops[stop] = { close: center + after, service }
        else stops[stop] = { open: center - before, close: center + after, service }
      })
      // The day end is kept by the known order when the windows are.
      const dayEnd =
        input.feasible && input.dayEnd !== undefined
          ? Math.max(input.dayEnd, routeTimes({ ...base, stops }, order).finish)
          : input.dayEnd
      return { problem: { ...base, stops, dayEnd }, feasible: input.feasible }
    })

describe('routeTimes', () => {
  // Start (0, 0) at 8:00; a at (10, 0) open 8:30–9:00, 20 minutes on site; b at (10, 20) until 8:45, 10 minutes.
  const problem = gridProblem(
    [
      [0, 0],
      [0, 0],
      [10, 0],
      [10, 20],
    ],
    [{}, {}, { open: 510, close: 540, service: 20 }, { close: 525, service: 10 }],
    { hasEnd: true, dayEnd: 600 },
  )

  it('gives each stop its arrival, wait, service start, departure and lateness, and the route its finish', () => {
    const times = routeTimes(problem, [2, 3])
    expect(times.stops).toEqual([
      { point: 2, arrival: 490, wait: 20, start: 510, departure: 530, late: 0 },
      { point: 3, arrival: 550, wait: 0, start: 550, departure: 560, late: 25 },
    ])
    // Back to the end at (0, 0): 30 minutes.
    expect(times.finish).toBe(590)
    expect(times.endLate).toBe(0)
    expect(times.late).toBe(25)
    expect(times.length).toBe(10 + 20 + 30)
    expect(lateStops(times).map((stop) => stop.point)).toEqual([3])
  })

  it('moves every later stop’s times when a stop is moved', () => {
    const before = routeTimes(problem, [2, 3])
    const after = routeTimes(problem, [3, 2])
    // b first: 30 minutes' drive, on time at 8:30; 10 minutes on site and 20 minutes' drive bring a to 9:00.
    expect(after.stops.map((stop) => stop.point)).toEqual([3, 2])
    expect(after.stops[0]).toEqual({ point: 3, arrival: 510, wait: 0, start: 510, departure: 520, late: 0 })
    expect(after.stops[1]).toEqual({ point: 2, arrival: 540, wait: 0, start: 540, departure: 560, late: 0 })
    expect(after.finish).toBe(570)
    expect(after.late).toBe(0)
    expect(before.stops[1]?.arrival).not.toBe(after.stops[0]?.arrival)
  })

  it('counts the day’s end as late when the route comes back after it', () => {
    const times = routeTimes({ ...problem, dayEnd: 580 }, [2, 3])
    expect(times.endLate).toBe(10)
    expect(times.late).toBe(35)
  })

  it('finishes at the last departure when the end is free', () => {
    const times = routeTimes({ ...problem, end: undefined }, [3, 2])
    expect(times.finish).toBe(560)
    expect(times.length).toBe(30 + 20)
  })
})

describe('optimizeTimedRoute', () => {
  it('keeps appointments in time order where the plain optimizer put the noon stop first (issue 32)', () => {
    // The noon appointment is on the way to the 8 a.m. one: the shortest route passes it first.
    const points: Point[] = [
      [0, 0],
      [5, 0],
      [10, 0],
    ]
    const stops: TimedStop[] = [{}, { open: 720, close: 720, service: 30 }, { open: 480, close: 480, service: 30 }]
    const problem = gridProblem(points, stops, { startTime: 470 })
    const plain = optimizeRoute(3, problem.distance, { start: 0 })
    expect(plain).toEqual([0, 1, 2])
    const timed = optimizeTimedRoute(problem)
    expect(timed.order).toEqual([2, 1])
    expect(timed.times.late).toBe(0)
    expect(timed.times.stops.map((stop) => stop.start)).toEqual([480, 720])
  })

  it('names the stop that cannot be reached in time and keeps the lateness least', () => {
    // Two appointments at 8:00, 20 minutes apart with 10 minutes on site: the second is at least 30 minutes late.
    const points: Point[] = [
      [0, 0],
      [0, 1],
      [0, 21],
    ]
    const stops: TimedStop[] = [{}, { open: 480, close: 480, service: 10 }, { open: 480, close: 480, service: 10 }]
    const result = optimizeTimedRoute(gridProblem(points, stops, { startTime: 479 }))
    expect(result.order).toEqual([1, 2])
    expect(result.times.late).toBe(30)
    expect(lateStops(result.times).map((stop) => [stop.point, stop.late])).toEqual([[2, 30]])
    expect(result.exact).toBe(true)
  })

  it('is exact on up to 9 stops: the exhaustive optimum’s lateness, then its driving (property)', () => {
    fc.assert(
      fc.property(problems(0, 9), ({ problem, feasible }) => {
        const result = optimizeTimedRoute(problem)
        const optimum = exhaustive(problem)
        expect(result.exact).toBe(true)
        expect([...result.order].sort((a, b) => a - b)).toEqual(
          Array.from({ length: problem.size }, (_, i) => i).filter((i) => i !== problem.start && i !== problem.end),
        )
        if (feasible) expect(optimum.late).toBe(0)
        expect(result.times.late).toBe(optimum.late)
        expect(result.times.length).toBe(optimum.length)
        // The late stops named are exactly the ones the times make late.
        const late = lateStops(result.times)
        expect(late.reduce((sum, stop) => sum + stop.late, 0) + result.times.endLate).toBe(optimum.late)
      }),
      { numRuns: 300, seed: 34 },
    )
  }, 60_000)

  it('is exact on 10 and 11 stops too (the issue’s size for the exhaustive check; fewer cases, they are slow)', () => {
    fc.assert(
      fc.property(problems(10, 11), ({ problem }) => {
        const result = optimizeTimedRoute(problem)
        const optimum = exhaustive(problem)
        expect(result.exact).toBe(true)
        expect(result.times.late).toBe(optimum.late)
        expect(result.times.length).toBe(optimum.length)
      }),
      { numRuns: 20, seed: 11 },
    )
  }, 120_000)

  it('keeps every window on 60 stops when a known order keeps them, deterministically', () => {
    let seed = 60
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647
      return seed / 2_147_483_647
    }
    const points: Point[] = Array.from({ length: 61 }, () => [Math.floor(random() * 100), Math.floor(random() * 100)])
    const base = gridProblem(points, [])
    // The known order: around the points by angle from the center, 5–20 minutes on site.
    const order = Array.from({ length: 60 }, (_, k) => k + 1).sort(
      (a, b) =>
        Math.atan2((points[a] as Point)[1] - 50, (points[a] as Point)[0] - 50) -
        Math.atan2((points[b] as Point)[1] - 50, (points[b] as Point)[0] - 50),
    )
    const service = points.map(() => 5 + Math.floor(random() * 16))
    const times = arrivals(base, order, service)
    const stops: TimedStop[] = points.map((_, point) => ({ service: service[point] }))
    order.forEach((stop, k) => {
      // Every third stop has a window of an hour around the known arrival; the others none.
      if (k % 3 === 0)
        stops[stop] = { ...stops[stop], open: (times[k] as number) - 30, close: (times[k] as number) + 30 }
    })
    const problem = { ...base, stops }
    const known = routeTimes(problem, order)
    expect(known.late).toBe(0)
    const result = optimizeTimedRoute(problem)
    expect(result.times.late).toBe(0)
    expect(result.times.length).toBeLessThanOrEqual(known.length)
    expect(optimizeTimedRoute(problem).order).toEqual(result.order)
  })

  it.each([
    [20, false],
    [60, false],
    [60, true],
    [150, false],
  ])(
    'with no windows, %i stops (end fixed: %s) are driven no longer than the window-free optimizer drives them',
    (count, hasEnd) => {
      let seed = count + (hasEnd ? 1 : 0)
      const random = () => {
        seed = (seed * 48_271) % 2_147_483_647
        return seed / 2_147_483_647
      }
      const points: [number, number][] = Array.from({ length: count + 1 + (hasEnd ? 1 : 0) }, () => [
        random() * 100,
        random() * 100,
      ])
      const distance = (i: number, j: number) =>
        Math.hypot((points[i] as Point)[0] - (points[j] as Point)[0], (points[i] as Point)[1] - (points[j] as Point)[1])
      const problem: TimedRouteProblem = {
        size: points.length,
        start: 0,
        end: hasEnd ? 1 : undefined,
        startTime: 480,
        stops: points.map(() => ({ service: 10 })),
        distance,
        travel: distance,
      }
      const plain = optimizeRoute(points.length, distance, { start: 0, end: problem.end })
      const plainLength = routeTimes(
        problem,
        plain.filter((point) => point !== 0 && point !== problem.end),
      ).length
      const timed = optimizeTimedRoute(problem)
      expect(timed.times.late).toBe(0)
      expect(timed.times.length).toBeLessThanOrEqual(plainLength + 1e-9)
    },
  )

  it('falls back to the heuristic’s route, marked not exact, when the labels outgrow their budget', () => {
    fc.assert(
      fc.property(problems(4, 9), ({ problem }) => {
        const result = optimizeTimedRoute(problem, { labelBudget: 3 })
        expect(result.exact).toBe(false)
        expect(result.order).toHaveLength(problem.size - 1 - (problem.end === undefined ? 0 : 1))
        expect(routeTimes(problem, result.order)).toEqual(result.times)
        // Never better than the optimum (which the full budget finds).
        const optimum = optimizeTimedRoute(problem)
        expect(result.times.late).toBeGreaterThanOrEqual(optimum.times.late)
      }),
      { numRuns: 30, seed: 3 },
    )
  })

  it('refuses a window that closes before it opens and a negative time on site', () => {
    const points: Point[] = [
      [0, 0],
      [1, 1],
    ]
    expect(() => optimizeTimedRoute(gridProblem(points, [{}, { open: 600, close: 540 }]))).toThrow(RangeError)
    expect(() => optimizeTimedRoute(gridProblem(points, [{}, { service: -5 }]))).toThrow(RangeError)
  })

  it('routes no stops to an empty order', () => {
    const result = optimizeTimedRoute(gridProblem([[0, 0]], [{}]))
    expect(result.order).toEqual([])
    expect(result.times.finish).toBe(480)
  })
})
