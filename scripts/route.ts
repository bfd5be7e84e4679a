// `npm run -s route -- <file.tsp>`: runs the route optimiser on a TSPLIB file (EUC_2D or GEO) and prints one JSON
// line, {"length": …, "ms": …, "order": […]}: the closed tour's length in TSPLIB's integer distances, the optimiser's
// own time in milliseconds, and the tour as 0-based positions in the file's node list (OPERATIONS §4, §8).
// A file that cannot be read or parsed prints why on stderr and exits 1; a wrong command line exits 2.
import fs from 'node:fs'
import { optimiseTour, routeLength } from '~/routing/optimise'
import { parseTsplib, tsplibDistance } from '~/routing/tsplib'

/** Far above any TSPLIB file the optimiser takes (2,000 nodes is ≈ 60 KB); stops a stray /dev/zero. */
const MAX_FILE_BYTES = 10 * 1024 * 1024

const files = process.argv.slice(2)
if (files.length !== 1) {
  console.error('Usage: npm run -s route -- <file.tsp>')
  process.exit(2)
}
const file = files[0] as string

function read(path: string): Buffer | string {
  try {
    const stat = fs.statSync(path)
    if (!stat.isFile()) return 'not a file'
    if (stat.size > MAX_FILE_BYTES)
      return `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB: not a TSPLIB file this takes`
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
const parsed = parseTsplib(bytes)
if (!parsed.ok) {
  console.error(`${file}: ${parsed.message}`)
  process.exit(1)
}
const distance = tsplibDistance(parsed.instance)
const started = performance.now()
const order = optimiseTour(parsed.instance.nodes.length, distance)
const ms = performance.now() - started
const length = routeLength(order, distance, { closed: true })
console.log(JSON.stringify({ length, ms: Math.round(ms * 10) / 10, order }))
