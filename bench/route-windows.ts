// The timed route optimizer's measurements (docs/routing.md, docs/performance.md): 20, 60 and 200 stops around one
// office at 30 mph (straight-line × 1.3), 15–45 minutes on site, a third of the stops with a two-hour window and
// one in ten with a fixed appointment, all built around a known order's arrival times so every window can be kept;
// and 60 stops whose windows are drawn at random (most days then have late stops: the slower, lateness-first search).
// Each row: best and median of `runs` solves in this process, the lateness and the length against the known order's.
// `npx tsx bench/route-windows.ts [runs]`. Pure CPU, no database or server.
import { type LatLng, straightLineDriveMeters } from '../app/routing/distance'
import { optimizeTimedRoute, routeTimes, type TimedRouteProblem, type TimedStop } from '../app/routing/windows'

export type TimedRouteBenchRow = {
  name: string
  stops: number
  bestMs: number
  medianMs: number
  /** Minutes late in the optimizer's route (0: every window kept). */
  late: number
  lateStops: number
  /** The route's length over the known order's (the windows were built around it), when that order is on time. */
  lengthVsKnown?: number
}

const METERS_PER_MINUTE = (30 * 1609.344) / 60

function generator(seed: number) {
  let state = seed
  return () => {
    state = (state * 48_271) % 2_147_483_647
    return state / 2_147_483_647
  }
}

/** A day of `count` stops from the office at 7:00; windows around a sweep's arrivals, or at random. */
function day(count: number, windows: 'known' | 'random'): { problem: TimedRouteProblem; known: number[] } {
  const random = generator(20_261_128 + count)
  const office = { lat: 26.1224, lng: -80.1373 }
  const places: LatLng[] = [
    office,
    ...Array.from({ length: count }, () => ({
      lat: office.lat + (random() - 0.5) * 0.27,
      lng: office.lng + (random() - 0.5) * 0.3,
    })),
  ]
  const distance = (i: number, j: number) => straightLineDriveMeters(places[i] as LatLng, places[j] as LatLng)
  const service = places.map((_, point) => (point === 0 ? 0 : 15 + Math.floor(random() * 31)))
  const base = {
    size: places.length,
    start: 0,
    startTime: 420,
    distance,
    travel: (i: number, j: number) => distance(i, j) / METERS_PER_MINUTE,
  }
  // The known order: a sweep round the office by bearing.
  const bearing = (point: number) =>
    Math.atan2((places[point] as LatLng).lat - office.lat, (places[point] as LatLng).lng - office.lng)
  const known = Array.from({ length: count }, (_, k) => k + 1).sort((a, b) => bearing(a) - bearing(b))
  const stops: TimedStop[] = places.map((_, point) => ({ service: service[point] }))
  let time = base.startTime
  let at = 0
  for (const point of known) {
    const arrival = time + base.travel(at, point)
    const draw = random()
    const center = windows === 'known' ? arrival : 420 + random() * 600
    if (draw < 0.1) stops[point] = { ...stops[point], open: Math.round(center), close: Math.round(center) + 1 }
    else if (draw < 0.43) stops[point] = { ...stops[point], open: center - 60, close: center + 60 }
    time = arrival + (service[point] as number)
    at = point
  }
  // Appointments are rounded up to a whole minute: arriving on time waits for them, so the known order stays on time.
  if (windows === 'known') {
    let clock = base.startTime
    let from = 0
    for (const point of known) {
      const arrival = clock + base.travel(from, point)
      const stop = stops[point] as TimedStop
      if (stop.open !== undefined && stop.close !== undefined && stop.close - stop.open === 1) {
        stops[point] = { ...stop, open: Math.ceil(arrival), close: Math.ceil(arrival) }
      }
      const start = Math.max(arrival, stops[point]?.open ?? arrival)
      clock = start + (service[point] as number)
      from = point
    }
  }
  return { problem: { ...base, stops }, known }
}

function measure(name: string, count: number, windows: 'known' | 'random', runs: number): TimedRouteBenchRow {
  const { problem, known } = day(count, windows)
  const times: number[] = []
  let route = optimizeTimedRoute(problem)
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    route = optimizeTimedRoute(problem)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places
  const knownTimes = routeTimes(problem, known)
  return {
    name,
    stops: count,
    bestMs: round(times[0] ?? 0),
    medianMs: round(times[Math.floor(times.length / 2)] ?? 0),
    late: round(route.times.late),
    lateStops: route.times.stops.filter((stop) => stop.late > 1e-6).length,
    lengthVsKnown: knownTimes.late === 0 ? round(route.times.length / knownTimes.length, 3) : undefined,
  }
}

export function benchTimedRoute({ runs = 5 }: { runs?: number } = {}): TimedRouteBenchRow[] {
  return [
    measure('20 stops, windows that can be kept', 20, 'known', runs),
    measure('60 stops, windows that can be kept', 60, 'known', runs),
    measure('200 stops, windows that can be kept', 200, 'known', Math.max(1, Math.ceil(runs / 2))),
    measure('60 stops, random windows', 60, 'random', runs),
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 5)
  // The first solve in a fresh process runs interpreted: shown apart, as the CLI sees it.
  const cold = performance.now()
  optimizeTimedRoute(day(60, 'known').problem)
  console.log(`cold first solve of 60 stops: ${Math.round(performance.now() - cold)} ms`)
  console.table(benchTimedRoute({ runs }))
}
