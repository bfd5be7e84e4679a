// `npm run -s route -- <file.tsp>`: runs the route optimizer on a TSPLIB file (EUC_2D or GEO) and prints one JSON
// line, {"length": …, "ms": …, "order": […]}: the closed tour's length in TSPLIB's integer distances, the optimizer's
// own time in milliseconds, and the tour as 0-based positions in the file's node list (docs/product.md "Schedule",
// "Easy to get wrong"). `npm run -s route -- <problem.json>`: a day's route with time windows and minutes on site
// (docs/routing.md) and prints {"order": [stop ids], "length": …, "late": …, "finish": …, "ms": …}; late stops are
// named on stderr. A file that cannot be read or parsed prints why on stderr and exits 1; a wrong command line exits 2.
import fs from 'node:fs'
import { driveDistances } from '~/routing/drive-distances.server'
import { optimizeTour, routeLength } from '~/routing/optimize'
import { clockTime, isLatLngFile, parseRouteFile, routeFileLatLngs, routeFileProblem } from '~/routing/route-file'
import { parseTsplib, tsplibDistance } from '~/routing/tsplib'
import { lateStops, optimizeTimedRoute } from '~/routing/windows'

/** Far above any TSPLIB file the optimizer takes (2,000 nodes is ≈ 60 KB); stops a stray /dev/zero. */
const MAX_FILE_BYTES = 10 * 1024 * 1024

const files = process.argv.slice(2)
if (files.length !== 1) {
  console.error('Usage: npm run -s route -- <file.tsp>\n       npm run -s route -- <problem.json>')
  process.exit(2)
}
const file = files[0] as string

function read(path: string): Buffer | string {
  try {
    const stat = fs.statSync(path)
    if (!stat.isFile()) return 'not a file'
    if (stat.size > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB: not a route file this takes`
    return fs.readFileSync(path)
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : undefined
    return code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(error)})`
  }
}

const bytes = read(file)
if (typeof bytes === 'string') {
  console.error(`${file}: ${bytes}`)
  process.exit(1)
}
/** JSON by its extension, or by its first character when the name says neither. */
const isJson = /\.json$/i.test(file) || (!/\.tsp$/i.test(file) && /^\s*\{/.test(bytes.toString('utf8', 0, 64)))
if (isJson) await routeJson(bytes.toString('utf8'))
else routeTsplib(bytes)

function routeTsplib(bytes: Buffer) {
  const parsed = parseTsplib(bytes)
  if (!parsed.ok) {
    console.error(`${file}: ${parsed.message}`)
    process.exit(1)
  }
  const distance = tsplibDistance(parsed.instance)
  const started = performance.now()
  const order = optimizeTour(parsed.instance.nodes.length, distance)
  const ms = performance.now() - started
  const length = routeLength(order, distance, { closed: true })
  console.log(JSON.stringify({ length, ms: Math.round(ms * 10) / 10, order }))
}

/** "1 minute", "12 minutes": lateness rounded up, so a late stop never reads "0 minutes" late. */
function minutes(late: number) {
  const whole = Math.max(1, Math.ceil(late - 1e-9))
  return whole === 1 ? '1 minute' : `${whole} minutes`
}

async function routeJson(text: string) {
  const parsed = parseRouteFile(text)
  if (!parsed.ok) {
    for (const line of parsed.message.split('\n')) console.error(`${file}: ${line}`)
    process.exit(1)
  }
  const routeFile = parsed.file
  let distances: { meters: number[][]; seconds?: number[][] } | undefined
  if (isLatLngFile(routeFile)) {
    // Road distances through OSRM when OSRM_URL is set, straight-line × 1.3 otherwise (or when OSRM fails).
    const result = await driveDistances(routeFileLatLngs(routeFile))
    if (!result.ok) {
      console.error(`${file}: ${result.message}`)
      process.exit(1)
    }
    if (result.distances.fallback) console.error(result.distances.fallback)
    distances = result.distances
  }
  const problem = routeFileProblem(routeFile, distances)
  const started = performance.now()
  const route = optimizeTimedRoute(problem)
  const ms = performance.now() - started
  const round = (value: number) => Math.round(value * 1000) / 1000
  const ids = route.order.map((point) => routeFile.stops[point - 1]?.id as string)
  console.log(
    JSON.stringify({
      order: ids,
      length: round(route.times.length),
      late: round(route.times.late),
      finish: round(route.times.finish),
      ms: Math.round(ms * 10) / 10,
    }),
  )
  for (const stop of lateStops(route.times)) {
    const { id, at, close } = routeFile.stops[stop.point - 1] ?? {}
    const due = clockTime((at ?? close) as number)
    console.error(
      `${id} cannot be reached in time: arrives ${clockTime(stop.arrival)}, ${minutes(stop.late)} after ${at !== undefined ? 'its appointment' : 'its window closes'} (${due})`,
    )
  }
  if (route.times.endLate > 0 && routeFile.dayEnd !== undefined) {
    console.error(
      `The route ends at ${clockTime(route.times.finish)}, ${minutes(route.times.endLate)} after the day's end (${clockTime(routeFile.dayEnd)})`,
    )
  }
}
