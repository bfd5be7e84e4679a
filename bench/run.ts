// `npm run bench [-- --small]`: generates a large dataset into a scratch PostgreSQL database, then
// measures the production server's pages with autocannon (fixed time, 20 connections each) against
// a baseline (bench/baseline.ts) and prints requests/s, latency percentiles and the ratio to the
// baseline; the figures also go to bench/results/<timestamp>.json. See docs/performance.md.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { copyDatabase } from '../app/utils/database-copy.server'
import { openDatabase } from '../app/utils/db.server'
import {
  buildIfNeeded,
  createScratchDatabase,
  dropDatabase,
  type RunningServer,
  SERVER_AUTH_SECRET,
  signIn,
  startServer,
  superviseServer,
} from '../scripts/lib/app-server'
import type { BaselinePage } from './baseline'
import { type CapturedPage, capturePages } from './capture'
import { existingDataset, FULL, generateDataset, LARGE_COMPANY, PORTAL_CUSTOMER, SMALL } from './dataset'
import { benchGenerateDb } from './generate-db'
import { benchImportDb } from './import-db'
import { benchInvoicesDb } from './invoices-db'
import { benchRoute } from './route'
import { benchSchedule } from './schedule'

const { values: args } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    port: { type: 'string', default: '3321' },
    'baseline-port': { type: 'string', default: '3322' },
    'bare-react-port': { type: 'string', default: '3323' },
    keep: { type: 'boolean', default: false },
    // A database kept by an earlier run (`--keep`): measure a change on the same data without generating it again.
    reuse: { type: 'string' },
    // Only the pages whose name contains this text (the floor is always measured).
    pages: { type: 'string' },
    workloads: { type: 'boolean', default: true },
    // Issue 36 item 5: the signed-in pages again on the embedded database (PGlite), on a copy of the same data.
    embedded: { type: 'boolean', default: true },
  },
  allowNegative: true,
})
const ADMIN_URL = process.env.DATABASE_URL
if (!ADMIN_URL) {
  console.error(
    'npm run bench needs PostgreSQL: set DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/postgres).',
  )
  process.exit(2)
}
const SIZE = args.small ? SMALL : FULL
const DURATION_S = args.small ? 3 : 10
const CONNECTIONS = 20
const PASSWORD = 'pooldemo123'
const root = path.resolve(import.meta.dirname, '..')

type Tally = { ok: number; errors: number; statuses: Record<number, number> }
/** A benchmarked page or action: one request, varied per send by `vary` (a new reading, a new client address). */
type Target = {
  name: string
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
  vary?: () => { body?: string; headers?: Record<string, string> }
  durationSeconds?: number
  /** The sign-in: its baseline also verifies the same password hash. */
  hashesPassword?: boolean
}
type Load = {
  rps: number
  /** Requests answered in the run (autocannon's total), for CPU per request. */
  requests: number
  p50: number
  p95: number
  p97_5: number
  p99: number
  errors: number
  statuses: Record<number, number>
}
type Latency = { p50: number; p95: number; samples: number; errors: number }

/**
 * Sign-in hashes the password with scrypt on purpose (≈250 ms of CPU each): 20 at once take
 * seconds before the first answer, so a 3 s window would measure nothing. It gets 10 s always.
 */
const LOGIN_DURATION_S = 10
/** Seconds of one-connection requests per page: latency without queueing, where a page's own cost shows. */
const C1_SECONDS = args.small ? 2 : 5

/**
 * Load before the measured windows, one second of each GET page, on every server measured (the app, the app on the
 * embedded database, the bare React anchor): a fresh Node process compiles its code on the first few hundred
 * requests, and without this the page measured first — the floor — paid for the warm-up of the code every page shares.
 * Posts are left out: they add rows (readings) or hash a password (sign-in) and warm nothing the GETs do not.
 */
const WARM_UP_SECONDS = 1
async function warmUp(origin: string, targets: Target[]) {
  for (const target of targets.filter((each) => each.method === 'GET')) {
    await underLoad(origin, { ...target, durationSeconds: WARM_UP_SECONDS })
  }
}

/** Throughput and latency at CONNECTIONS connections (autocannon, fixed time). */
async function underLoad(origin: string, target: Target, path = target.path): Promise<Load> {
  const tally: Tally = { ok: 0, errors: 0, statuses: {} }
  const vary = target.vary
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: target.durationSeconds ?? DURATION_S,
    requests: [
      {
        method: target.method,
        path,
        headers: target.headers,
        body: target.body,
        ...(vary && {
          setupRequest: (request: autocannon.Request) => {
            const change = vary()
            return { ...request, body: change.body ?? request.body, headers: { ...request.headers, ...change.headers } }
          },
        }),
        onResponse: (status) => {
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1
          if (status >= 400) tally.errors++
          else tally.ok++
        },
      },
    ],
  })
  return {
    rps: Math.round(result.requests.average),
    requests: result.requests.total,
    p50: result.latency.p50,
    // autocannon reports p97.5, not p95; the stricter figure stands in for it.
    p95: result.latency.p97_5,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: tally.errors + result.errors + result.timeouts,
    statuses: tally.statuses,
  }
}

/** Latency at one connection: requests one after another for C1_SECONDS, exact percentiles. */
async function oneAtATime(origin: string, target: Target, path = target.path): Promise<Latency> {
  const times: number[] = []
  let errors = 0
  const until = performance.now() + Math.max(C1_SECONDS, target.hashesPassword ? 3 : 0) * 1000
  while (performance.now() < until || times.length < 5) {
    const change = target.vary?.() ?? {}
    const started = performance.now()
    const response = await fetch(`${origin}${path}`, {
      method: target.method,
      headers: { ...target.headers, ...change.headers },
      body: change.body ?? target.body,
      redirect: 'manual',
    })
    await response.arrayBuffer()
    times.push(performance.now() - started)
    if (response.status >= 400) errors++
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => Math.round((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0) * 10) / 10
  return { p50: at(0.5), p95: at(0.95), samples: times.length, errors }
}

/**
 * Waits until nothing but this client has spoken to the database for a second: a server just started runs its
 * background tasks (visit generation, notices, autopay) over every company, and the first page measured must not
 * share the CPU with them.
 */
async function databaseQuiet(client: pg.Client, name: string) {
  // A connection's `state_change` moves with every statement it runs: none in the last second, none running now.
  for (let waited = 0; waited < 120_000; waited += 250) {
    const { rows } = await client.query<{ busy: number }>(
      `select count(*)::int as busy from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid()
         and (state = 'active' or state_change > now() - interval '1 second')`,
      [name],
    )
    if (rows[0]?.busy === 0) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * CPU time (user + system, ms) the process `pid` has used so far: read before and after a run, it gives the server's
 * own CPU per request whatever else shares the machine. Linux only (`/proc`); elsewhere null.
 */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const fields = (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : null
  } catch {
    return null
  }
}
/** `getconf CLK_TCK`: 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100

/**
 * CPU time (ms) of each PostgreSQL backend serving `name`, read from /proc like the server's (the bench and the
 * database share the machine): with the server's own, what a page costs on PostgreSQL in all, to set against the
 * embedded server, whose process does both.
 */
async function backendCpuMs(client: pg.Client, name: string) {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  )
  return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid) ?? 0]))
}

/** The load run of `target` with the server process's CPU per request over it (and the database's, when given). */
async function measuredLoad(
  origin: string,
  target: Target,
  pid: number | undefined,
  path = target.path,
  database?: { client: pg.Client; name: string },
) {
  const backendsBefore = database ? await backendCpuMs(database.client, database.name) : undefined
  const before = processCpuMs(pid)
  const load = await underLoad(origin, target, path)
  const after = processCpuMs(pid)
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, load.requests)) * 100) / 100
  const cpuMsPerRequest = before === null || after === null || load.requests === 0 ? null : perRequest(after - before)
  let databaseCpuMsPerRequest: number | null = null
  if (database && backendsBefore) {
    const backendsAfter = await backendCpuMs(database.client, database.name)
    let spent = 0
    for (const [backend, cpu] of backendsAfter) spent += cpu - (backendsBefore.get(backend) ?? 0)
    databaseCpuMsPerRequest = perRequest(spent)
  }
  return { load, cpuMsPerRequest, databaseCpuMsPerRequest }
}

/** Waits until the process `pid` is idle (under 50 ms of CPU a second, twice running): a server's start-up tasks. */
async function processQuiet(pid: number | undefined) {
  let quietSeconds = 0
  for (let waited = 0; waited < 180 && quietSeconds < 2; waited++) {
    const before = processCpuMs(pid) ?? 0
    await new Promise((resolve) => setTimeout(resolve, 1000))
    quietSeconds = (processCpuMs(pid) ?? 0) - before < 50 ? quietSeconds + 1 : 0
  }
}

/**
 * The "bare React" anchor (bench/bare-react.tsx): node:http, the floor page's component tree rendered by React,
 * gzip. Run under the same node as the app, with tsx's loader in the process itself (so its pid is the server's).
 */
async function startBareReact(logPath: string) {
  const port = args['bare-react-port'] as string
  const origin = `http://localhost:${port}`
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-react.tsx'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: port, APP_URL: origin },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return superviseServer(child, { origin, healthUrl: `${origin}/about`, logPath, timeoutMs: 60_000 })
}

async function startBaseline(databaseUrl: string, pagesFile: string, logPath: string) {
  const port = args['baseline-port'] as string
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['bench/baseline.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl, BASELINE_PAGES: pagesFile, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const origin = `http://localhost:${port}`
  return superviseServer(child, { origin, healthUrl: origin, logPath, timeoutMs: 60_000 })
}

/** The stage-two workloads that have landed, each against its target (pure CPU or a scratch database). */
async function workloads() {
  const rows: { name: string; seconds: number; size: number; target: number; meetsTarget: boolean }[] = []
  for (const row of benchSchedule({ runs: 3 })) {
    rows.push({
      name: row.name,
      seconds: Math.round(row.medianMs) / 1000,
      size: row.plans,
      target: 5,
      meetsTarget: row.meetsTarget,
    })
  }
  for (const row of benchRoute({ runs: 10 })) {
    rows.push({
      name: `optimize: ${row.name}`,
      seconds: Math.round(row.medianMs) / 1000,
      size: row.points,
      target: 0.2,
      meetsTarget: row.meetsTarget,
    })
  }
  const imported = await benchImportDb({ rows: 2_000, runs: args.small ? 1 : 3 })
  for (const step of imported.steps) {
    const target = step.step.includes('preview') ? 5 : 10
    rows.push({
      name: `CSV ${step.step}`,
      seconds: step.medianMs / 1000,
      size: imported.rows,
      target,
      meetsTarget: step.medianMs / 1000 < target,
    })
  }
  const generated = await benchGenerateDb({ plans: 5_000, runs: args.small ? 1 : 3 })
  for (const step of generated.steps) {
    rows.push({
      name: `visit generation (${generated.database}): ${step.step}`,
      seconds: step.medianMs / 1000,
      size: generated.plans,
      target: 5,
      meetsTarget: step.medianMs / 1000 < 5,
    })
  }
  const invoiced = await benchInvoicesDb({ customers: 5_000, runs: args.small ? 1 : 3 })
  for (const step of invoiced.steps) {
    rows.push({
      name: `month's invoices (${invoiced.database}): ${step.step}`,
      seconds: step.medianMs / 1000,
      size: invoiced.customers,
      target: 10,
      meetsTarget: step.medianMs / 1000 < 10,
    })
  }
  return rows
}

async function main() {
  const started = performance.now()
  const seconds = () => Math.round((performance.now() - started) / 1000)
  buildIfNeeded(root, 'bench')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-bench-'))
  const logPath = path.join(runDir, 'server.log')
  const database = args.reuse
    ? { url: args.reuse, name: new URL(args.reuse).pathname.slice(1) }
    : await createScratchDatabase(ADMIN_URL as string, 'pool_bud_bench')
  const serverOptions = {
    port: args.port as string,
    databaseUrl: database.url,
    dataDir: path.join(runDir, 'data'),
    logPath,
  }
  let server: RunningServer | undefined
  const client = new pg.Client({ connectionString: database.url })
  try {
    if (!args.reuse) {
      console.log(
        `[bench] ${args.small ? 'small' : 'full'} dataset into ${database.name}; migrating and seeding the demo data…`,
      )
      server = await startServer(root, { ...serverOptions, env: { SEED_DEMO: '1' } })
      await server.stop()
    }
    await client.connect()
    if (!args.reuse) console.log('[bench] generating the dataset…')
    const { largeCompanyId, totals } = args.reuse ? await existingDataset(client) : await generateDataset(client, SIZE)
    console.log(`[bench] dataset ready after ${seconds()} s: ${JSON.stringify(totals)}`)

    const one = async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows[0] as T
    const portal = await one<{ id: string; visits: number }>(
      `select c.id, (select count(*)::int from visits j where j.company_id = c.company_id and j.customer_id = c.id) as visits
       from customers c join "user" u on u.id = c.portal_user_id where u.email = $1`,
      [PORTAL_CUSTOMER],
    )
    const techVisit = await one<{ id: string }>(
      `select j.id from visits j join profiles p on p.id = j.technician_id
       where j.company_id = $1 and p.email = 'tech@bluelagoon.test' and j.completed_at is null
       order by j.scheduled_at limit 1`,
      [largeCompanyId],
    )
    // "Save a reading" posts to the technician's next open visit, not the one the visit page shows: each run adds
    // readings to the visit it posts to, and a reused dataset's visit page would get heavier from run to run.
    const readingVisit = await one<{ id: string }>(
      `select j.id from visits j join profiles p on p.id = j.technician_id
       where j.company_id = $1 and p.email = 'tech@bluelagoon.test' and j.completed_at is null
       order by j.scheduled_at offset 1 limit 1`,
      [largeCompanyId],
    )
    // The busiest technician's route today (the board's busiest row), in the company's zone.
    const route = await one<{ technician: string; day: string }>(
      `select j.technician_id as technician, to_char(j.scheduled_at at time zone c.timezone, 'YYYY-MM-DD') as day
       from visits j join companies c on c.id = j.company_id
       where j.company_id = $1 and j.technician_id is not null and j.completed_at is null and j.scheduled_at >= now()
       group by 1, 2 order by count(*) desc limit 1`,
      [largeCompanyId],
    )
    const search = await one<{ q: string }>(
      `select split_part(customer_name, ' ', 2) as q from customers where company_id = $1 order by id limit 1`,
      [largeCompanyId],
    )

    server = await startServer(root, serverOptions)
    const origin = server.origin
    await databaseQuiet(client, database.name)
    const cookies = {
      owner: await signIn(origin, 'owner@bluelagoon.test', PASSWORD, '10.88.0.1'),
      admin: await signIn(origin, 'office@bluelagoon.test', PASSWORD, '10.88.0.2'),
      dispatcher: await signIn(origin, 'dispatch@bluelagoon.test', PASSWORD, '10.88.0.3'),
      tech: await signIn(origin, 'tech@bluelagoon.test', PASSWORD, '10.88.0.4'),
      customer: await signIn(origin, PORTAL_CUSTOMER, PASSWORD, '10.88.0.5'),
    }
    const get = (name: string, pathname: string, cookie: string): Target => ({
      name,
      method: 'GET',
      path: pathname,
      headers: cookie ? { cookie, 'accept-encoding': 'gzip' } : { 'accept-encoding': 'gzip' },
    })
    let readingSeq = 0
    let loginSeq = 0
    const loginBody = new URLSearchParams({ intent: 'login', email: 'owner@bluelagoon.test', password: PASSWORD })
    const allTargets: Target[] = [
      // The floor: a page with no SQL and no session through the same stack (Express, React Router, React,
      // compression). No page can be faster; its baseline answers without touching the database.
      get('floor: /about (no SQL)', '/about', ''),
      get('owner dashboard /app', '/app', cookies.owner),
      get('admin dashboard /app', '/app', cookies.admin),
      get('dispatcher dashboard /app', '/app', cookies.dispatcher),
      get('tech dashboard /app', '/app', cookies.tech),
      get(`customers ?q=${search.q}`, `/app/customers?q=${encodeURIComponent(search.q)}`, cookies.owner),
      get('inventory', '/app/inventory', cookies.owner),
      get('schedule (week board)', '/app/schedule', cookies.dispatcher),
      get('route of a day', `/app/schedule/${route.technician}/${route.day}`, cookies.dispatcher),
      get('visit page', `/app/visits/${techVisit.id}`, cookies.tech),
      get(`portal (${portal.visits} visits)`, `/customer/${portal.id}`, cookies.customer),
      {
        name: 'save a reading (POST)',
        method: 'POST',
        path: `/app/visits/${readingVisit.id}`,
        headers: { cookie: cookies.tech, origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'reading', ph: '7.4', chlorinePpm: '2', alkalinity: '90' }).toString(),
        vary: () => ({
          body: new URLSearchParams({
            intent: 'reading',
            ph: '7.4',
            chlorinePpm: String(1 + (++readingSeq % 4)),
            alkalinity: '90',
          }).toString(),
        }),
      },
      {
        name: 'login (POST)',
        method: 'POST',
        path: '/login',
        durationSeconds: Math.max(DURATION_S, LOGIN_DURATION_S),
        hashesPassword: true,
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: loginBody.toString(),
        // A distinct client address per request, so the per-IP sign-in limit measures nothing.
        vary: () => {
          loginSeq++
          return {
            headers: { 'x-forwarded-for': `10.${90 + (loginSeq >> 16)}.${(loginSeq >> 8) & 255}.${loginSeq & 255}` },
          }
        },
      },
    ]
    const only = args.pages
    const targets = only ? allTargets.filter((target, index) => index === 0 || target.name.includes(only)) : allTargets

    console.log("[bench] recording each page's statements and HTML…")
    const captured = await capturePages({
      root,
      databaseUrl: database.url,
      env: {
        APP_URL: origin,
        DATA_DIR: serverOptions.dataDir,
        AUTH_SECRET: SERVER_AUTH_SECRET,
        DATABASE_URL: database.url,
      },
      pages: targets.map(({ name, method, path: pagePath, headers, body }) => ({
        name,
        method,
        path: pagePath,
        headers,
        body,
      })),
    })
    for (const page of captured) {
      if (page.status >= 400) throw new Error(`${page.name} answered ${page.status} while recording its statements`)
    }
    const { hash } = await one<{ hash: string }>(
      `select a.password as hash from account a join "user" u on u.id = a.user_id
       where u.email = 'owner@bluelagoon.test' and a.provider_id = 'credential'`,
    )

    console.log(
      `[bench] measuring ${targets.length} routes: ${DURATION_S} s each at ${CONNECTIONS} connections, then ${C1_SECONDS} s at one…`,
    )
    await warmUp(origin, targets)
    const measured = []
    for (const target of targets) {
      const { load, cpuMsPerRequest, databaseCpuMsPerRequest } = await measuredLoad(
        origin,
        target,
        server.child.pid,
        target.path,
        { client, name: database.name },
      )
      const c1 = await oneAtATime(origin, target)
      console.log(
        `[bench] ${target.name}: ${load.rps} req/s, p50 ${load.p50} ms, p97.5 ${load.p97_5} ms; c=1 p50 ${c1.p50} ms, p95 ${c1.p95} ms; ${cpuMsPerRequest} ms CPU/request; errors ${load.errors + c1.errors} ${JSON.stringify(load.statuses)}`,
      )
      measured.push({ target, load, c1, cpuMsPerRequest, databaseCpuMsPerRequest })
    }
    await server.stop()
    server = undefined

    // Issue 36 item 5: the same signed-in pages on the embedded database, a copy of this one (decision 071), served by
    // the same build on the same port (the sessions and their cookies are copied too).
    const embedded = new Map<string, { rps: number; cpuMsPerRequest: number | null; c1P50: number }>()
    let embeddedCopySeconds: number | null = null
    if (args.embedded) {
      console.log('[bench] copying the dataset into an embedded database…')
      const copyStarted = performance.now()
      const embeddedDir = path.join(runDir, 'embedded')
      const from = await openDatabase({ databaseUrl: database.url })
      const to = await openDatabase({ dataDir: path.join(embeddedDir, 'db') })
      try {
        await copyDatabase(from, to)
      } finally {
        await to.close()
        await from.close()
      }
      embeddedCopySeconds = Math.round((performance.now() - copyStarted) / 100) / 10
      server = await startServer(root, { ...serverOptions, databaseUrl: undefined, dataDir: embeddedDir })
      await processQuiet(server.child.pid)
      await warmUp(server.origin, targets)
      for (const target of targets.filter((each) => each.method === 'GET')) {
        const { load, cpuMsPerRequest } = await measuredLoad(server.origin, target, server.child.pid)
        const c1 = await oneAtATime(server.origin, target)
        console.log(
          `[bench] embedded ${target.name}: ${load.rps} req/s; c=1 p50 ${c1.p50} ms; ${cpuMsPerRequest} ms CPU/request; errors ${load.errors + c1.errors}`,
        )
        embedded.set(target.name, { rps: load.rps, cpuMsPerRequest, c1P50: c1.p50 })
      }
      await server.stop()
      server = undefined
    }

    // The floor's anchor, in the same run: React and gzip alone, for the same page.
    server = await startBareReact(logPath)
    const floorTarget = targets[0] as Target
    await warmUp(server.origin, [floorTarget])
    const bareReact = {
      ...(await measuredLoad(server.origin, floorTarget, server.child.pid)),
      c1: await oneAtATime(server.origin, floorTarget),
    }
    console.log(
      `[bench] bare React floor: ${bareReact.load.rps} req/s; c=1 p50 ${bareReact.c1.p50} ms, p95 ${bareReact.c1.p95} ms; ${bareReact.cpuMsPerRequest} ms CPU/request; errors ${bareReact.load.errors + bareReact.c1.errors}`,
    )
    await server.stop()

    const pagesFile = path.join(runDir, 'baseline-pages.json')
    const baselinePages: BaselinePage[] = targets.map((target, index) => ({
      name: target.name,
      statements: captured[index]?.statements ?? [],
      password: target.hashesPassword ? { hash, password: PASSWORD } : undefined,
    }))
    fs.writeFileSync(pagesFile, JSON.stringify(baselinePages))
    server = await startBaseline(database.url, pagesFile, logPath)
    const baselines: { load: Load; c1: Latency }[] = []
    for (const [index, target] of targets.entries()) {
      const bare: Target = { ...target, method: 'GET', headers: {}, body: undefined, vary: undefined }
      const load = await underLoad(server.origin, bare, `/${index}`)
      const c1 = await oneAtATime(server.origin, bare, `/${index}`)
      console.log(
        `[bench] baseline of ${target.name}: ${load.rps} req/s; c=1 p50 ${c1.p50} ms, p95 ${c1.p95} ms; errors ${load.errors + c1.errors}`,
      )
      baselines.push({ load, c1 })
    }
    await server.stop()
    server = undefined

    const floorRun = measured[0] as (typeof measured)[number]
    const pages = measured.map(({ target, load, c1, cpuMsPerRequest, databaseCpuMsPerRequest }, index) => {
      const baseline = baselines[index] as (typeof baselines)[number]
      const page = captured[index] as CapturedPage
      const onEmbedded = embedded.get(target.name)
      const ratioTo = (part: number | null | undefined, whole: number | null) =>
        part == null || !whole ? null : Math.round((part / whole) * 100) / 100
      return {
        name: target.name,
        rps: load.rps,
        baselineRps: baseline.load.rps,
        ratio: Math.round((load.rps / Math.max(1, baseline.load.rps)) * 100) / 100,
        // Issue 36: against the floor of the same run, not only against a bare handler of the page's SQL.
        floorRatio: Math.round((load.rps / Math.max(1, floorRun.load.rps)) * 100) / 100,
        cpuMsPerRequest,
        // PostgreSQL's own backends' CPU for the page, on the same machine.
        databaseCpuMsPerRequest,
        c1P50OverFloorMs: Math.round((c1.p50 - floorRun.c1.p50) * 10) / 10,
        // Issue 36 item 5: the embedded server's CPU for the page (its process does the SQL too), and that over the
        // PostgreSQL app server's alone and over the app server's and the database's together.
        embedded: onEmbedded
          ? {
              ...onEmbedded,
              cpuRatio: ratioTo(onEmbedded.cpuMsPerRequest, cpuMsPerRequest),
              cpuRatioWithDatabase: ratioTo(
                onEmbedded.cpuMsPerRequest,
                cpuMsPerRequest === null ? null : cpuMsPerRequest + (databaseCpuMsPerRequest ?? 0),
              ),
            }
          : null,
        p50: load.p50,
        p95: load.p95,
        p97_5: load.p97_5,
        p99: load.p99,
        c1P50: c1.p50,
        c1P95: c1.p95,
        baselineC1P50: baseline.c1.p50,
        baselineC1P95: baseline.c1.p95,
        htmlBytes: page.htmlBytes,
        htmlGzipBytes: page.htmlGzipBytes,
        queries: page.statements.length,
        errors: load.errors + c1.errors + baseline.load.errors + baseline.c1.errors,
        statuses: load.statuses,
      }
    })
    console.table(
      pages.map((page) => ({
        page: page.name,
        'req/s': page.rps,
        'baseline req/s': page.baselineRps,
        'vs baseline': `${Math.round(page.ratio * 100)}%`,
        'vs floor': `${Math.round(page.floorRatio * 100)}%`,
        'CPU ms/req': page.cpuMsPerRequest,
        'DB CPU ms/req': page.databaseCpuMsPerRequest,
        'embedded CPU ms/req': page.embedded?.cpuMsPerRequest ?? null,
        'embedded ÷ app': page.embedded?.cpuRatio ?? null,
        'p97.5 ms': page.p97_5,
        'c=1 p50': page.c1P50,
        'c=1 p95': page.c1P95,
        'HTML kB': Math.round(page.htmlBytes / 100) / 10,
        'gzip kB': Math.round(page.htmlGzipBytes / 100) / 10,
        queries: page.queries,
        errors: page.errors,
      })),
    )

    if (args.workloads) console.log('[bench] stage-two workloads…')
    const workloadRows = args.workloads ? await workloads() : []
    if (args.workloads) console.table(workloadRows)

    const postgres = await one<{ server_version: string }>('show server_version')
    const resultsDir = path.join(root, 'bench/results')
    fs.mkdirSync(resultsDir, { recursive: true })
    const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    const report = {
      when: new Date().toISOString(),
      preset: args.small ? 'small' : 'full',
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        postgres: postgres.server_version,
        loadAverage: os.loadavg(),
      },
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      largeCompany: LARGE_COMPANY,
      dataset: { size: SIZE, totals, portalVisits: portal.visits, reused: Boolean(args.reuse) },
      embeddedCopySeconds,
      nodeOptions: process.env.NODE_OPTIONS ?? null,
      // The floor (`/about` through the whole app) against the bare React server rendering the same page (issue 36).
      floor: {
        rps: floorRun.load.rps,
        c1P50: floorRun.c1.p50,
        cpuMsPerRequest: floorRun.cpuMsPerRequest,
        bareReactRps: bareReact.load.rps,
        bareReactC1P50: bareReact.c1.p50,
        bareReactCpuMsPerRequest: bareReact.cpuMsPerRequest,
        bareReactRatio: Math.round((floorRun.load.rps / Math.max(1, bareReact.load.rps)) * 100) / 100,
        compression: process.env.COMPRESSION ?? 'on',
      },
      pages,
      workloads: workloadRows.map(({ name, seconds, size }) => ({ name, seconds, size })),
      totalSeconds: seconds(),
    }
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
    console.log(`[bench] done in ${seconds()} s; results in ${path.relative(root, file)}`)
    console.log(
      `[bench] floor ${floorRun.load.rps} req/s = ${Math.round((floorRun.load.rps / Math.max(1, bareReact.load.rps)) * 100)} % of the bare React server's ${bareReact.load.rps}`,
    )
    if (pages.some((page) => page.errors > 0) || bareReact.load.errors + bareReact.c1.errors > 0) {
      console.log(`[bench] some requests failed: see ${logPath}`)
      process.exitCode = 1
    }
  } finally {
    await client.end().catch(() => {})
    await server?.stop()
    if (args.keep || args.reuse) console.log(`[bench] kept database ${database.url}`)
    else await dropDatabase(ADMIN_URL as string, database.name)
  }
}

await main()
