// CPU per request of the floor page (`/about`, or another page) inside one process, without HTTP: the production
// build's React Router handler (as server.mjs loads it) answering Requests one after another, and the gzip of the page
// it answered.
// Process CPU time over many requests moves much less with other load on the machine than req/s does, so a lever
// (decision 065) can be compared on a busy machine: run it before and after, alternately, a few times.
//
//   npm run build
//   DATABASE_URL=postgres://…/scratch NODE_ENV=production node bench/floor-cpu.mjs [requests]
//
// The database only has to exist (start-up migrates it); /about reads nothing from it for a signed-out visitor.
// Another page, signed in: PAGE=/app/schedule COOKIE='pool-bud.session_token=…' with the DATABASE_URL and AUTH_SECRET of
// the server that signed the cookie (a bench database kept with `npm run bench -- --keep`).
import { register } from 'node:module'
import zlib from 'node:zlib'

process.env.NODE_ENV = 'production'
process.env.AUTH_SECRET ??= 'floor-cpu-secret-0123456789-abcdefghijkl'
process.env.LOG_LEVEL ??= 'warn'
register('../server/production-react-router.mjs', import.meta.url)
const { createRequestHandler } = await import('react-router')
const build = await import('../build/server/index.js')
await build.entry.module.startApp()
// Start-up's background tasks (visit generation, notices…) run once now: let them finish before measuring.
await new Promise((resolve) => setTimeout(resolve, 3_000))
const handle = createRequestHandler(build, 'production')
const serve = build.entry.module.serveRequest

const requests = Number(process.argv[2] ?? 2000)
const page = process.env.PAGE ?? '/about'
const url = `${build.entry.module.env().APP_URL}${page}`
const headers = { 'accept-encoding': 'gzip', ...(process.env.COOKIE ? { cookie: process.env.COOKIE } : {}) }
async function once() {
  // One turn of the event loop per request, as a server gets between requests: a loop of promises alone would starve
  // the database pool's I/O (and the background tasks would time out).
  await new Promise((resolve) => setImmediate(resolve))
  const response = await serve(new Request(url, { headers }), handle)
  if (response.status !== 200) throw new Error(`${page} answered ${response.status}`)
  return Buffer.from(await response.arrayBuffer())
}

// Warm-up: the code paths compiled, the caches (if any) filled.
let html = Buffer.alloc(0)
for (let i = 0; i < Math.min(500, requests); i++) html = await once()

const before = process.cpuUsage()
const started = performance.now()
for (let i = 0; i < requests; i++) await once()
const used = process.cpuUsage(before)
const wallMs = performance.now() - started

// gzip as the `compression` middleware does it (zlib's default level), on the same page.
const gzipBefore = process.cpuUsage()
for (let i = 0; i < requests; i++) zlib.gzipSync(html)
const gzipUsed = process.cpuUsage(gzipBefore)

const perRequest = (usage) => Math.round(((usage.user + usage.system) / 1000 / requests) * 1000) / 1000
console.log(
  JSON.stringify({
    requests,
    htmlBytes: html.length,
    renderCpuMsPerRequest: perRequest(used),
    renderWallMsPerRequest: Math.round((wallMs / requests) * 1000) / 1000,
    gzipCpuMsPerRequest: perRequest(gzipUsed),
  }),
)
await build.entry.module.stopApp()
process.exit(0)
