// The route optimizer's benchmark, for `npm run bench`: TSPLIB's berlin52 and eil51 and a day of 50 random stops
// around one office (the route page's case: an open route from the start, straight-line distances), each timed as
// the best and the median of `runs` runs in this process. The target: within 5 % of the optimum in under
// 200 ms. Pure CPU, no database or server.
import fs from 'node:fs'
import path from 'node:path'
import { type LatLng, straightLineDriveMeters } from '../app/routing/distance'
import { type Distance, optimizeRoute, optimizeTour, routeLength } from '../app/routing/optimize'
import { parseTsplib, tsplibDistance } from '../app/routing/tsplib'

export type RouteBenchRow = {
  name: string
  points: number
  length: number
  /** The published optimum, for the TSPLIB instances. */
  optimum?: number
  bestMs: number
  medianMs: number
  /** Within 5 % of the optimum (when known) and a best time under 200 ms. */
  meetsTarget: boolean
}

const TARGET_MS = 200
const FIXTURES = path.resolve(import.meta.dirname, '../tests/fixtures/tsplib')

function time(runs: number, optimize: () => number[]) {
  const times: number[] = []
  let order: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    order = optimize()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const round = (ms: number) => Math.round(ms * 100) / 100
  return { order, bestMs: round(times[0] ?? 0), medianMs: round(times[Math.floor(times.length / 2)] ?? 0) }
}

function tsplib(file: string, optimum: number, runs: number): RouteBenchRow {
  const parsed = parseTsplib(fs.readFileSync(path.join(FIXTURES, file)))
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`)
  const size = parsed.instance.nodes.length
  const distance = tsplibDistance(parsed.instance)
  const { order, bestMs, medianMs } = time(runs, () => optimizeTour(size, distance))
  const length = routeLength(order, distance, { closed: true })
  const meetsTarget = length <= optimum * 1.05 && bestMs < TARGET_MS
  return { name: parsed.instance.name, points: size, length, optimum, bestMs, medianMs, meetsTarget }
}

/** 50 stops within ≈ 15 km of an office, from a fixed seed: the same stops every run. */
function randomDay(stops: number): LatLng[] {
  let seed = 20_261_123
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647
    return seed / 2_147_483_647
  }
  const office = { lat: 26.1224, lng: -80.1373 }
  return [
    office,
    ...Array.from({ length: stops }, () => ({
      lat: office.lat + (random() - 0.5) * 0.27,
      lng: office.lng + (random() - 0.5) * 0.3,
    })),
  ]
}

export function benchRoute({ runs = 20 }: { runs?: number } = {}): RouteBenchRow[] {
  const places = randomDay(50)
  const distance: Distance = (i, j) => straightLineDriveMeters(places[i] as LatLng, places[j] as LatLng)
  const day = time(runs, () => optimizeRoute(places.length, distance, { start: 0 }))
  return [
    tsplib('berlin52.tsp', 7542, runs),
    tsplib('eil51.tsp', 426, runs),
    {
      name: '50 stops from the office',
      points: places.length,
      length: Math.round(routeLength(day.order, distance, { closed: false })),
      bestMs: day.bestMs,
      medianMs: day.medianMs,
      meetsTarget: day.bestMs < TARGET_MS,
    },
  ]
}
