import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Distance, MAX_POINTS, optimizeRoute, optimizeTour, routeLength } from './optimize'
import { parseTsplib, tsplibDistance } from './tsplib'

const FIXTURES = path.resolve(import.meta.dirname, '../../tests/fixtures/tsplib')

function instance(file: string) {
  const result = parseTsplib(fs.readFileSync(path.join(FIXTURES, file)))
  if (!result.ok) throw new Error(result.message)
  return { size: result.instance.nodes.length, distance: tsplibDistance(result.instance) }
}

type Point = [number, number]
const euclidean =
  (points: readonly Point[]): Distance =>
  (i, j) =>
    Math.hypot((points[i] as Point)[0] - (points[j] as Point)[0], (points[i] as Point)[1] - (points[j] as Point)[1])

const range = (size: number) => Array.from({ length: size }, (_, i) => i)

/** The textbook nearest-neighbor order (ties to the lower index), written here independently of the optimizer. */
function nearestNeighbor(size: number, distance: Distance, start: number, end?: number) {
  const left = new Set(range(size).filter((point) => point !== start && point !== end))
  const order = [start]
  while (left.size > 0) {
    const current = order[order.length - 1] as number
    let best = -1
    for (const point of left) if (best === -1 || distance(current, point) < distance(current, best)) best = point
    order.push(best)
    left.delete(best)
  }
  if (end !== undefined && end !== start) order.push(end)
  return order
}

/** The gains of every 2-opt move (reversing order[i…j]) that keeps the first point, and the last one when fixed. */
function twoOptGains(
  order: number[],
  distance: Distance,
  { closed, fixedEnd }: { closed: boolean; fixedEnd: boolean },
) {
  const n = order.length
  const at = (k: number) => order[((k % n) + n) % n] as number
  const gains: number[] = []
  for (let i = 1; i < n - 1; i++) {
    for (let j = i + 1; j < n; j++) {
      const hasAfter = closed || j < n - 1
      if (!closed && fixedEnd && j === n - 1) continue
      if (closed && i === 1 && j === n - 1) continue // reversing everything but the first is the same tour
      const removed = distance(at(i - 1), at(i)) + (hasAfter ? distance(at(j), at(j + 1)) : 0)
      const added = distance(at(i - 1), at(j)) + (hasAfter ? distance(at(i), at(j + 1)) : 0)
      gains.push(removed - added)
    }
  }
  return gains
}

function expectPermutation(order: number[], size: number) {
  expect([...order].sort((a, b) => a - b)).toEqual(range(size))
}

const pointSets = (min: number, max: number) =>
  fc.oneof(
    // Integer grids: many equal distances, where a careless search cycles or breaks ties differently.
    fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), {
      minLength: min,
      maxLength: max,
    }),
    fc.array(fc.tuple(fc.double({ min: 0, max: 1000, noNaN: true }), fc.double({ min: 0, max: 1000, noNaN: true })), {
      minLength: min,
      maxLength: max,
    }),
  )

describe('the closed tour (TSPLIB)', () => {
  it.each([
    ['berlin52.tsp', 7542],
    ['eil51.tsp', 426],
  ])('comes within 1.05 × the optimum on %s (%i)', (file, optimum) => {
    const { size, distance } = instance(file)
    const order = optimizeTour(size, distance)
    expectPermutation(order, size)
    expect(order[0]).toBe(0)
    const length = routeLength(order, distance, { closed: true })
    expect(length).toBeGreaterThanOrEqual(optimum)
    expect(length).toBeLessThanOrEqual(optimum * 1.05)
  })

  it('handles 0, 1, 2 and 3 points', () => {
    const distance = euclidean([
      [0, 0],
      [3, 4],
      [6, 0],
    ])
    expect(optimizeTour(0, distance)).toEqual([])
    expect(optimizeTour(1, distance)).toEqual([0])
    expect(optimizeTour(2, distance)).toEqual([0, 1])
    expectPermutation(optimizeTour(3, distance), 3)
  })

  it('random points: a permutation from 0, never longer than nearest neighbor, 2-opt-optimal, the same every time', () => {
    fc.assert(
      fc.property(pointSets(0, 40), (points) => {
        const distance = euclidean(points)
        const order = optimizeTour(points.length, distance)
        expectPermutation(order, points.length)
        if (points.length > 0) expect(order[0]).toBe(0)
        const nearest = routeLength(nearestNeighbor(points.length, distance, 0), distance, { closed: true })
        const length = routeLength(order, distance, { closed: true })
        expect(length).toBeLessThanOrEqual(nearest * (1 + 1e-12))
        const tolerance = 1e-9 * Math.max(1, length)
        for (const gain of twoOptGains(order, distance, { closed: true, fixedEnd: false })) {
          expect(gain).toBeLessThanOrEqual(tolerance)
        }
        expect(optimizeTour(points.length, distance)).toEqual(order)
      }),
      { numRuns: 150 },
    )
  })
})

describe('the open route from the start address', () => {
  it('starts at the start and visits every stop once, for 0, 1, 2 and 3 stops', () => {
    const points: Point[] = [
      [5, 5],
      [0, 0],
      [10, 0],
      [10, 10],
    ]
    const distance = euclidean(points)
    expect(optimizeRoute(1, distance, { start: 0 })).toEqual([0])
    expect(optimizeRoute(2, distance, { start: 0 })).toEqual([0, 1])
    expect(optimizeRoute(2, distance, { start: 1 })).toEqual([1, 0])
    const three = optimizeRoute(3, distance, { start: 0 })
    expectPermutation(three, 3)
    expect(three[0]).toBe(0)
    const four = optimizeRoute(4, distance, { start: 1 })
    expectPermutation(four, 4)
    expect(four[0]).toBe(1)
    // Three routes from (0,0) tie at 10 + 10√2; the others are longer.
    expect(routeLength(four, distance, { closed: false })).toBeCloseTo(5 * Math.SQRT2 + 5 * Math.SQRT2 + 10, 9)
  })

  it('does not return to the start: the end is free', () => {
    // Stops on a line east of the start: the best route walks out along it and stops at the far end.
    const points: Point[] = [
      [0, 0],
      [4, 0],
      [1, 0],
      [3, 0],
      [2, 0],
    ]
    expect(optimizeRoute(points.length, euclidean(points), { start: 0 })).toEqual([0, 2, 4, 3, 1])
  })

  it('ends at the end when one is given, and a round trip is a closed tour from the start', () => {
    // Start (0,0) and end (0,1) side by side, two stops 5 east: out along one side, back along the other.
    const square: Point[] = [
      [0, 0],
      [5, 1],
      [0, 1],
      [5, 0],
    ]
    expect(optimizeRoute(4, euclidean(square), { start: 0, end: 2 })).toEqual([0, 3, 1, 2])
    expect(optimizeRoute(4, euclidean(square), { start: 0 })).toEqual([0, 2, 1, 3])
    const points: Point[] = [
      [0, 0],
      [4, 0],
      [1, 0],
      [3, 0],
      [2, 0],
    ]
    const distance = euclidean(points)
    const roundTrip = optimizeRoute(points.length, distance, { start: 3, end: 3 })
    expect(roundTrip[0]).toBe(3)
    expect(routeLength(roundTrip, distance, { closed: true })).toBe(8)
  })

  it('random stops: starts at the start, ends at the end, never longer than nearest neighbor, 2-opt-optimal', () => {
    fc.assert(
      fc.property(
        pointSets(1, 40).chain((points) =>
          fc.record({
            points: fc.constant(points),
            start: fc.nat(points.length - 1),
            end: fc.option(fc.nat(points.length - 1), { nil: undefined }),
          }),
        ),
        ({ points, start, end }) => {
          const distance = euclidean(points)
          const order = optimizeRoute(points.length, distance, { start, end })
          expectPermutation(order, points.length)
          expect(order[0]).toBe(start)
          const closed = end === start
          if (end !== undefined && !closed) expect(order[order.length - 1]).toBe(end)
          const nearest = routeLength(nearestNeighbor(points.length, distance, start, end), distance, { closed })
          const length = routeLength(order, distance, { closed })
          expect(length).toBeLessThanOrEqual(nearest * (1 + 1e-12))
          const tolerance = 1e-9 * Math.max(1, length)
          for (const gain of twoOptGains(order, distance, { closed, fixedEnd: end !== undefined })) {
            expect(gain).toBeLessThanOrEqual(tolerance)
          }
          expect(optimizeRoute(points.length, distance, { start, end })).toEqual(order)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('takes road distances that differ by direction, and a stop at the same place as another', () => {
    const points: Point[] = [
      [0, 0],
      [1, 0],
      [1, 0],
      [2, 0],
      [0, 1],
    ]
    const oneWay: Distance = (i, j) => euclidean(points)(i, j) * (i < j ? 1 : 1.5)
    const order = optimizeRoute(points.length, oneWay, { start: 0 })
    expectPermutation(order, points.length)
    expect(order[0]).toBe(0)
  })
})

describe('mistakes in the call', () => {
  const distance: Distance = () => 1

  it('refuses a start or end that is not a point, and more points than it takes', () => {
    expect(() => optimizeRoute(3, distance, { start: 3 })).toThrow(RangeError)
    expect(() => optimizeRoute(3, distance, { start: 0, end: -1 })).toThrow(RangeError)
    expect(() => optimizeRoute(0, distance, { start: 0 })).toThrow(RangeError)
    expect(() => optimizeTour(MAX_POINTS + 1, distance)).toThrow(RangeError)
    expect(() => optimizeTour(1.5, distance)).toThrow(RangeError)
  })

  it('refuses a distance that is not a finite, non-negative number', () => {
    expect(() => optimizeTour(3, (i, j) => (i + j === 3 ? Number.NaN : 1))).toThrow(/points 1 and 2/)
    expect(() => optimizeTour(3, (i, j) => (i + j === 1 ? -1 : 1))).toThrow(/points 0 and 1/)
    expect(() => optimizeTour(3, () => Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})
