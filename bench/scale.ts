// `npx tsx bench/scale.ts <databaseUrl>` (or `npm run bench:scale -- <databaseUrl>`): what one app server on one
// PostgreSQL carries, and whether a second app server on the same database adds to it. On a database that already
// holds the bench dataset (`npm run bench -- --small --keep`), it starts one production server, measures a mix of
// staff pages, then a second server on another port, and measures both at once; then the technicians' 7 am sync.
// It records where the machine's CPU went in each window, prints a table and writes
// bench/results/scale-<timestamp>.json. See docs/scaling.md. The database is read and signed in to, never dropped.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { buildIfNeeded, type RunningServer, SERVER_AUTH_SECRET, signIn, startServer } from '../scripts/lib/app-server'
import { freePort } from '../scripts/lib/free-port'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    'sync-connections': { type: 'string', default: '50' },
    /** Seconds to wait, before each window, for the machine to be idle (other work on these cores skews it). */
    'idle-timeout': { type: 'string', default: '300' },
  },
})
const DATABASE_URL = positionals[0] ?? process.env.DATABASE_URL
if (!DATABASE_URL?.startsWith('postgres')) {
  console.error(
    'usage: npx tsx bench/scale.ts postgres://user@host:5432/database   (a database with the bench dataset)',
  )
  process.exit(2)
}
const DURATION_S = Number(args.duration)
const CONNECTIONS = Number(args.connections)
const SYNC_CONNECTIONS = Number(args['sync-connections'])
const IDLE_TIMEOUT_S = Number(args['idle-timeout'])
/** Below this many cores busy over a second, with our servers idle, the machine counts as idle. */
const IDLE_CORES = 0.3
/** A window in which other processes used more than this many cores is measured again, up to ATTEMPTS times. */
const OTHERS_CORES = 0.2
const ATTEMPTS = 3
/**
 * Seconds of unrecorded load on a new instance before it is measured: a fresh Node process runs its first thousand
 * requests slower (modules loaded on first use, V8 not yet optimized), which would count against the second instance.
 */
const WARM_UP_S = 8
const PASSWORD = 'pooldemo123'
/** The app's pool size per instance (app/utils/db.server.ts), plus its one LISTEN connection for live updates. */
const POOL_MAX = 10
/** A technician's phone saves at most this many of the day's stops (decision 019); we take a typical day's. */
const STOPS_PER_DAY = 15
const root = path.resolve(import.meta.dirname, '..')

type Page = { name: string; path: string; cookie: string }
type Load = {
  requests: number
  rps: number
  p50: number
  p97_5: number
  p99: number
  errors: number
  statuses: Record<number, number>
}

/**
 * `pages` in turn on every connection for DURATION_S. Anything but a 200 counts as an error: a redirect here would
 * be a lost sign-in (say, a cookie one instance cannot verify), not a page.
 */
async function underLoad(origin: string, pages: Page[], connections: number, seconds = DURATION_S): Promise<Load> {
  const statuses: Record<number, number> = {}
  let notOk = 0
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: pages.map((page) => ({
      method: 'GET' as const,
      path: page.path,
      headers: { cookie: page.cookie, 'accept-encoding': 'gzip' },
      onResponse: (status: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1
        if (status !== 200) notOk++
      },
    })),
  })
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: notOk + result.errors + result.timeouts,
    statuses,
  }
}

// ---- Where the CPU went: Linux's /proc, in clock ticks (USER_HZ, 100 a second on Linux). ----

const TICKS_PER_SECOND = 100

function processTicks(stat: string) {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

function readStat(pid: number | string) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
}

/** Ticks of every `postgres` process (server, backends, autovacuum, WAL writer), by pid. */
function postgresTicks() {
  const byPid = new Map<string, number>()
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    const stat = readStat(pid)
    if (stat?.includes(' (postgres) ')) byPid.set(pid, processTicks(stat))
  }
  return byPid
}

function machineBusyTicks() {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number)
  const total = [user, nice, system, idle, iowait, irq, softirq, steal].reduce<number>((sum, n) => sum + (n ?? 0), 0)
  return { busy: total - (idle ?? 0) - (iowait ?? 0), total }
}

/**
 * Waits until the machine is idle — under IDLE_CORES busy over one second while our servers wait — so a window
 * measures our processes, not someone else's build; gives up after IDLE_TIMEOUT_S. Returns the last second's cores.
 */
async function waitUntilMachineIdle() {
  if (!fs.existsSync('/proc/stat')) return undefined
  const deadline = Date.now() + IDLE_TIMEOUT_S * 1000
  let waited = false
  for (;;) {
    const before = machineBusyTicks()
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const after = machineBusyTicks()
    const cores = Math.round(((after.busy - before.busy) / TICKS_PER_SECOND) * 100) / 100
    if (cores < IDLE_CORES) return cores
    if (Date.now() > deadline) {
      console.log(`[scale] the machine stayed busy (${cores} cores used by others); measuring anyway`)
      return cores
    }
    if (!waited) console.log(`[scale] waiting for the machine to be idle (${cores} cores busy)…`)
    waited = true
  }
}

type CpuSnapshot = {
  at: number
  busy: number
  total: number
  servers: number[]
  postgres: Map<string, number>
  /** Backends of other databases on the same PostgreSQL (someone else's tests): their work is not ours. */
  othersBackends: Set<string>
  self: NodeJS.CpuUsage
}

async function cpuSnapshot(servers: RunningServer[], client: pg.Client): Promise<CpuSnapshot | undefined> {
  if (!fs.existsSync('/proc/stat')) return undefined
  const { rows } = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where backend_type = 'client backend' and datname <> current_database()`,
  )
  return {
    othersBackends: new Set(rows.map((row) => String(row.pid))),
    at: performance.now(),
    ...machineBusyTicks(),
    servers: servers.map((server) => {
      const stat = server.child.pid ? readStat(server.child.pid) : undefined
      return stat ? processTicks(stat) : 0
    }),
    postgres: postgresTicks(),
    self: process.cpuUsage(),
  }
}

/** Cores in use on average between two snapshots, by whom; `other` is the machine's busy time nobody here owns. */
function coresBetween(before: CpuSnapshot | undefined, after: CpuSnapshot | undefined) {
  if (!before || !after) return undefined
  const seconds = (after.at - before.at) / 1000
  const cores = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 100) / 100
  let postgres = 0
  for (const [pid, ticks] of after.postgres) {
    if (before.othersBackends.has(pid) || after.othersBackends.has(pid)) continue
    postgres += ticks - (before.postgres.get(pid) ?? 0)
  }
  const selfUs = process.cpuUsage(before.self)
  const appServers = after.servers.map((ticks, index) => ticks - (before.servers[index] ?? 0))
  const generator = ((selfUs.user + selfUs.system) / 1e6) * TICKS_PER_SECOND
  const busy = after.busy - before.busy
  const ours = appServers.reduce((sum, n) => sum + n, 0) + postgres + generator
  return {
    appServers: appServers.map(cores),
    postgres: cores(postgres),
    loadGenerator: cores(generator),
    other: Math.max(0, cores(busy - ours)),
    busy: cores(busy),
    idle: cores(after.total - before.total - busy),
  }
}

// ---- The database ----

/** Waits until no statement but ours runs on the database for ~1 s (start-up runs background tasks). */
async function waitUntilQuiet(client: pg.Client, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  let quietSince: number | undefined
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
         and state <> 'idle'`,
    )
    if ((rows[0]?.n ?? 0) === 0) {
      quietSince ??= Date.now()
      if (Date.now() - quietSince >= 1_000) return true
    } else quietSince = undefined
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  console.log('[scale] the database never went quiet for 1 s; measuring anyway')
  return false
}

/**
 * Samples, every 200 ms until stopped, how many of the app's connections to the database are open and how many run a
 * statement: whether the pools (POOL_MAX each) are what requests wait for.
 */
function sampleConnections(client: pg.Client) {
  const samples: { open: number; active: number }[] = []
  let stopped = false
  const done = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ open: number; active: number }>(
        `select count(*)::int as open, (count(*) filter (where state = 'active'))::int as active
         from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      )
      if (rows[0]) samples.push(rows[0])
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })()
  return async () => {
    stopped = true
    await done
    const mean = samples.reduce((sum, sample) => sum + sample.active, 0) / Math.max(1, samples.length)
    return {
      open: Math.max(0, ...samples.map((sample) => sample.open)),
      activeMean: Math.round(mean * 10) / 10,
      activeMax: Math.max(0, ...samples.map((sample) => sample.active)),
    }
  }
}

async function datasetFigures(client: pg.Client) {
  const { rows } = await client.query<Record<string, number>>(
    `select (select count(*)::int from companies) as companies,
            (select count(*)::int from profiles where role = 'tech') as technicians,
            (select count(*)::int from customers) as customers,
            (select count(*)::int from service_locations) as pools,
            (select count(*)::int from visits) as visits,
            (select count(*)::int from chem_logs) as readings`,
  )
  return rows[0] ?? {}
}

type Phase = {
  name: string
  instances: number
  connectionsEach: number
  perInstance: Load[]
  rps: number
  cores: ReturnType<typeof coresBetween>
  /** Requests answered per second of app-server CPU: whether throughput follows the CPU the instances get. */
  rpsPerAppCore: number | null
  /** The app's database connections (all instances): the most open, and statements running, mean and most. */
  connections: { open: number; activeMean: number; activeMax: number }
  /** Cores busy in the second before the window, while our servers waited: others' work on the machine. */
  busyBefore: number | undefined
  /** Others' work during a window makes it run again: the least disturbed of `tries` windows is kept (`attempt`). */
  attempt: number
  tries: number
  loadAverage: number[]
}

async function main() {
  buildIfNeeded(root, 'scale')
  const databaseUrl = DATABASE_URL as string
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-scale-'))
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const servers: RunningServer[] = []
  const start = async (label: string) => {
    const port = String(await freePort())
    console.log(`[scale] starting app server ${label} on port ${port}…`)
    const server = await startServer(root, {
      port,
      databaseUrl,
      // Each instance its own folder, as on separate machines: nothing may depend on sharing it.
      dataDir: path.join(runDir, `data-${label}`),
      logPath: path.join(runDir, `server-${label}.log`),
      // Every instance must sign sessions with the same secret, or a cookie from one is nobody on the other.
      env: { AUTH_SECRET: SERVER_AUTH_SECRET, SEED_DEMO: '0' },
    })
    servers.push(server)
    return server
  }
  const phases: Phase[] = []
  const measure = async (name: string, runs: { server: RunningServer; pages: Page[]; connections: number }[]) => {
    let phase: Phase | undefined
    let tries = 0
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      tries = attempt
      await waitUntilQuiet(client)
      const busyBefore = await waitUntilMachineIdle()
      const before = await cpuSnapshot(servers, client)
      const stopSampling = sampleConnections(client)
      const perInstance = await Promise.all(runs.map((run) => underLoad(run.server.origin, run.pages, run.connections)))
      const cores = coresBetween(before, await cpuSnapshot(servers, client))
      const connections = await stopSampling()
      const appCores = cores?.appServers.reduce((sum, n) => sum + n, 0) ?? 0
      const tried: Phase = {
        name,
        instances: runs.length,
        connectionsEach: runs[0]?.connections ?? 0,
        perInstance,
        rps: perInstance.reduce((sum, load) => sum + load.rps, 0),
        cores,
        rpsPerAppCore:
          appCores > 0 ? Math.round(perInstance.reduce((sum, load) => sum + load.rps, 0) / appCores) : null,
        connections,
        busyBefore,
        attempt,
        tries: attempt,
        loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      }
      const others = cores?.other ?? 0
      console.log(
        `[scale] ${name}: ${tried.rps} req/s (${perInstance.map((load) => load.rps).join(' + ')}), p97.5 ` +
          `${perInstance.map((load) => load.p97_5).join(' / ')} ms, errors ` +
          `${perInstance.reduce((sum, load) => sum + load.errors, 0)}; cores ${JSON.stringify(cores)}; ` +
          `connections ${JSON.stringify(connections)}`,
      )
      // The window with the least of others' work is the one that measured us.
      if (!phase || others < (phase.cores?.other ?? 0)) phase = tried
      if (others <= OTHERS_CORES) break
      if (attempt < ATTEMPTS) console.log(`[scale]   other processes used ${others} cores meanwhile: again`)
    }
    const kept = { ...(phase as Phase), tries }
    phases.push(kept)
    return kept
  }

  const loadBefore = os.loadavg()
  try {
    const dataset = await datasetFigures(client)
    console.log(`[scale] dataset: ${JSON.stringify(dataset)}`)
    const a = await start('A')
    const cookies = {
      owner: await signIn(a.origin, 'owner@bluelagoon.test', PASSWORD, '10.77.0.1'),
      dispatcher: await signIn(a.origin, 'dispatch@bluelagoon.test', PASSWORD, '10.77.0.2'),
      tech: await signIn(a.origin, 'tech@bluelagoon.test', PASSWORD, '10.77.0.3'),
    }
    const mix: Page[] = [
      { name: 'owner /app', path: '/app', cookie: cookies.owner },
      { name: 'dispatcher /app', path: '/app', cookie: cookies.dispatcher },
      { name: 'tech /app', path: '/app', cookie: cookies.tech },
      { name: 'inventory (owner)', path: '/app/inventory', cookie: cookies.owner },
    ]
    const techToday: Page[] = [{ name: 'tech /app', path: '/app', cookie: cookies.tech }]
    // What a phone fetches to keep the day offline (decision 019): Today and its data, then each stop's visit page
    // and its data. The technician's next open stops stand in for one day's.
    const { rows: stops } = await client.query<{ id: string }>(
      `select j.id from visits j join profiles p on p.id = j.technician_id
       where p.email = 'tech@bluelagoon.test' and j.completed_at is null and j.scheduled_at >= current_date
       order by j.scheduled_at limit $1`,
      [STOPS_PER_DAY],
    )
    const dayAhead: Page[] = [
      { name: 'Today', path: '/app', cookie: cookies.tech },
      { name: 'Today data', path: '/app.data', cookie: cookies.tech },
      ...stops.flatMap((stop) => [
        { name: 'visit', path: `/app/visits/${stop.id}`, cookie: cookies.tech },
        { name: 'visit data', path: `/app/visits/${stop.id}.data`, cookie: cookies.tech },
      ]),
    ]

    const warmUp = async (server: RunningServer) => {
      for (const pages of [mix, dayAhead]) await underLoad(server.origin, pages, 10, WARM_UP_S / 2)
    }
    await warmUp(a)
    console.log(`[scale] one app server: ${DURATION_S} s per window…`)
    const one = await measure(`mix, 1 instance × ${CONNECTIONS} conn`, [
      { server: a, pages: mix, connections: CONNECTIONS },
    ])
    const oneDouble = await measure(`mix, 1 instance × ${CONNECTIONS * 2} conn`, [
      { server: a, pages: mix, connections: CONNECTIONS * 2 },
    ])
    await measure(`7 am: tech /app, 1 instance × ${SYNC_CONNECTIONS} conn`, [
      { server: a, pages: techToday, connections: SYNC_CONNECTIONS },
    ])
    await measure(`7 am: day-ahead sync, 1 instance × ${SYNC_CONNECTIONS} conn`, [
      { server: a, pages: dayAhead, connections: SYNC_CONNECTIONS },
    ])

    const b = await start('B')
    await warmUp(b)
    console.log('[scale] two app servers on the same database, measured at once (cookies signed in on A)…')
    const two = await measure(`mix, 2 instances × ${CONNECTIONS} conn`, [
      { server: a, pages: mix, connections: CONNECTIONS },
      { server: b, pages: mix, connections: CONNECTIONS },
    ])
    const half = Math.ceil(SYNC_CONNECTIONS / 2)
    await measure(`7 am: tech /app, 2 instances × ${half} conn`, [
      { server: a, pages: techToday, connections: half },
      { server: b, pages: techToday, connections: half },
    ])
    await measure(`7 am: day-ahead sync, 2 instances × ${half} conn`, [
      { server: a, pages: dayAhead, connections: half },
      { server: b, pages: dayAhead, connections: half },
    ])

    const postgres = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version
    const maxConnections = (await client.query<{ max_connections: string }>('show max_connections')).rows[0]
      ?.max_connections
    console.table(
      phases.map((phase) => ({
        window: phase.name,
        'req/s': phase.rps,
        'per instance': phase.perInstance.map((load) => load.rps).join(' + '),
        'p50 ms': phase.perInstance.map((load) => load.p50).join(' / '),
        'p97.5 ms': phase.perInstance.map((load) => load.p97_5).join(' / '),
        errors: phase.perInstance.reduce((sum, load) => sum + load.errors, 0),
        'app cores': phase.cores?.appServers.join(' + '),
        'pg cores': phase.cores?.postgres,
        'generator cores': phase.cores?.loadGenerator,
        'other cores': phase.cores?.other,
        'idle cores': phase.cores?.idle,
        'req/s per app core': phase.rpsPerAppCore,
        'pg active (mean/max)': `${phase.connections.activeMean} / ${phase.connections.activeMax}`,
        tries: phase.tries,
      })),
    )
    const ratio = (x: number | null, y: number | null) => Math.round(((x ?? 0) / Math.max(1, y ?? 0)) * 100) / 100
    const addsUp = {
      twoVsOne: ratio(two.rps, one.rps),
      twoVsOneAtSameConnections: ratio(two.rps, oneDouble.rps),
      perAppCoreTwoVsOne: ratio(two.rpsPerAppCore, oneDouble.rpsPerAppCore),
    }
    console.log(
      `[scale] two instances give ${addsUp.twoVsOne}× one instance's req/s at ${CONNECTIONS} connections, ` +
        `${addsUp.twoVsOneAtSameConnections}× one instance at ${CONNECTIONS * 2}; per app-server core, ` +
        `${addsUp.perAppCoreTwoVsOne}×.`,
    )

    const resultsDir = path.join(root, 'bench/results')
    fs.mkdirSync(resultsDir, { recursive: true })
    const file = path.join(resultsDir, `scale-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    const url = new URL(databaseUrl)
    const report = {
      when: new Date().toISOString(),
      database: `${url.hostname}:${url.port}${url.pathname}`,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        postgres,
        maxConnections: Number(maxConnections),
        loadAverageBefore: loadBefore,
        loadAverageAfter: os.loadavg(),
      },
      appPoolMaxPerInstance: POOL_MAX,
      durationSeconds: DURATION_S,
      dataset,
      mix: mix.map((page) => page.name),
      dayAheadRequests: dayAhead.length,
      phases,
      addsUp,
    }
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
    console.log(`[scale] results in ${path.relative(root, file)}; server logs in ${runDir}`)
    if (phases.some((phase) => phase.perInstance.some((load) => load.errors > 0))) {
      console.log('[scale] some requests did not answer 200: see the server logs')
      process.exitCode = 1
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await client.end().catch(() => {})
  }
}

await main()
