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
import {
  buildIfNeeded,
  createScratchDatabase,
  dropDatabase,
  type RunningServer,
  signIn,
  startServer,
  superviseServer,
} from '../scripts/lib/app-server'
import { FULL, generateDataset, LARGE_COMPANY, PORTAL_CUSTOMER, SMALL } from './dataset'

const { values: args } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    port: { type: 'string', default: '3321' },
    'baseline-port': { type: 'string', default: '3322' },
    keep: { type: 'boolean', default: false },
  },
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
type Target = { name: string; request: Omit<autocannon.Request, 'onResponse'>; durationSeconds?: number }
/**
 * Sign-in hashes the password with scrypt on purpose (≈250 ms of CPU each): 20 at once take
 * seconds before the first answer, so a 3 s window would measure nothing. It gets 10 s always.
 */
const LOGIN_DURATION_S = 10

async function measure(origin: string, target: Target) {
  const tally: Tally = { ok: 0, errors: 0, statuses: {} }
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: target.durationSeconds ?? DURATION_S,
    requests: [
      {
        ...target.request,
        onResponse: (status) => {
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1
          if (status >= 400) tally.errors++
          else tally.ok++
        },
      },
    ],
  })
  const row = {
    route: target.name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    errors: tally.errors + result.errors + result.timeouts,
    statuses: tally.statuses,
  }
  console.log(
    `[bench] ${target.name}: ${row.rps} req/s, p50 ${row.p50} ms, p97.5 ${row.p97_5} ms, errors ${row.errors} ${JSON.stringify(tally.statuses)}`,
  )
  return row
}

async function startBaseline(databaseUrl: string, companyId: string, timezone: string, logPath: string) {
  const port = args['baseline-port'] as string
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['bench/baseline.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      COMPANY_ID: companyId,
      TIMEZONE: timezone,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const origin = `http://localhost:${port}`
  return superviseServer(child, { origin, healthUrl: origin, logPath, timeoutMs: 60_000 })
}

async function main() {
  const started = performance.now()
  const seconds = () => Math.round((performance.now() - started) / 1000)
  buildIfNeeded(root, 'bench')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-bench-'))
  const logPath = path.join(runDir, 'server.log')
  const database = await createScratchDatabase(ADMIN_URL as string, 'pool_bud_bench')
  const serverOptions = {
    port: args.port as string,
    databaseUrl: database.url,
    dataDir: path.join(runDir, 'data'),
    logPath,
  }
  let server: RunningServer | undefined
  const client = new pg.Client({ connectionString: database.url })
  try {
    console.log(
      `[bench] ${args.small ? 'small' : 'full'} dataset into ${database.name}; migrating and seeding the demo data…`,
    )
    server = await startServer(root, { ...serverOptions, env: { SEED_DEMO: '1' } })
    await server.stop()
    await client.connect()
    console.log('[bench] generating the dataset…')
    const { largeCompanyId, totals } = await generateDataset(client, SIZE)
    console.log(`[bench] dataset ready after ${seconds()} s: ${JSON.stringify(totals)}`)

    const one = async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows[0] as T
    const { timezone } = await one<{ timezone: string }>(`select timezone from companies where id = $1`, [
      largeCompanyId,
    ])
    const portal = await one<{ id: string; visits: number }>(
      `select c.id, (select count(*)::int from jobs j where j.company_id = c.company_id and j.customer_id = c.id) as visits
       from customers c join "user" u on u.id = c.portal_user_id where u.email = $1`,
      [PORTAL_CUSTOMER],
    )
    const techJob = await one<{ id: string }>(
      `select j.id from jobs j join profiles p on p.id = j.technician_id
       where j.company_id = $1 and p.email = 'tech@bluelagoon.test' and j.completed_at is null
       order by j.scheduled_at limit 1`,
      [largeCompanyId],
    )
    const search = await one<{ q: string }>(
      `select split_part(customer_name, ' ', 2) as q from customers where company_id = $1 order by id limit 1`,
      [largeCompanyId],
    )

    server = await startServer(root, serverOptions)
    const origin = server.origin
    const cookies = {
      owner: await signIn(origin, 'owner@bluelagoon.test', PASSWORD, '10.88.0.1'),
      admin: await signIn(origin, 'office@bluelagoon.test', PASSWORD, '10.88.0.2'),
      dispatcher: await signIn(origin, 'dispatch@bluelagoon.test', PASSWORD, '10.88.0.3'),
      tech: await signIn(origin, 'tech@bluelagoon.test', PASSWORD, '10.88.0.4'),
      customer: await signIn(origin, PORTAL_CUSTOMER, PASSWORD, '10.88.0.5'),
    }
    const get = (name: string, pathname: string, cookie: string): Target => ({
      name,
      request: { method: 'GET', path: pathname, headers: { cookie, 'accept-encoding': 'gzip' } },
    })
    let readingSeq = 0
    let loginSeq = 0
    const targets: Target[] = [
      get('owner dashboard /app', '/app', cookies.owner),
      get('admin dashboard /app', '/app', cookies.admin),
      get('dispatcher dashboard /app', '/app', cookies.dispatcher),
      get('tech dashboard /app', '/app', cookies.tech),
      get(`customers ?q=${search.q}`, `/app/customers?q=${encodeURIComponent(search.q)}`, cookies.owner),
      get('inventory', '/app/inventory', cookies.owner),
      get('job page', `/app/jobs/${techJob.id}`, cookies.tech),
      get(`portal (${portal.visits} visits)`, `/customer/${portal.id}`, cookies.customer),
      {
        name: 'save a reading (POST)',
        request: {
          method: 'POST',
          path: `/app/jobs/${techJob.id}`,
          headers: { cookie: cookies.tech, origin, 'content-type': 'application/x-www-form-urlencoded' },
          setupRequest: (request) => ({
            ...request,
            body: new URLSearchParams({
              intent: 'reading',
              ph: '7.4',
              chlorinePpm: String(1 + (++readingSeq % 4)),
              alkalinity: '90',
            }).toString(),
          }),
        },
      },
      {
        name: 'login (POST)',
        durationSeconds: Math.max(DURATION_S, LOGIN_DURATION_S),
        request: {
          method: 'POST',
          path: '/login',
          headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ intent: 'login', email: 'owner@bluelagoon.test', password: PASSWORD }).toString(),
          // A distinct client address per request, so the per-IP sign-in limit measures nothing.
          setupRequest: (request) => {
            loginSeq++
            return {
              ...request,
              headers: {
                ...request.headers,
                'x-forwarded-for': `10.${90 + (loginSeq >> 16)}.${(loginSeq >> 8) & 255}.${loginSeq & 255}`,
              },
            }
          },
        },
      },
    ]
    console.log(`[bench] measuring ${targets.length} routes, ${DURATION_S} s each at ${CONNECTIONS} connections…`)
    const rows = []
    for (const target of targets) rows.push(await measure(origin, target))
    await server.stop()
    server = await startBaseline(database.url, largeCompanyId, timezone, logPath)
    const baseline = await measure(server.origin, {
      name: 'baseline: owner dashboard data (node:http)',
      request: { method: 'GET', path: '/' },
    })
    await server.stop()
    server = undefined

    const table = [...rows, baseline].map((row) => ({
      route: row.route,
      'req/s': row.rps,
      'p50 ms': row.p50,
      'p90 ms': row.p90,
      'p97.5 ms': row.p97_5,
      'p99 ms': row.p99,
      errors: row.errors,
      'vs baseline': `${Math.round((row.rps / Math.max(1, baseline.rps)) * 100)}%`,
    }))
    console.table(table)
    const resultsDir = path.join(root, 'bench/results')
    fs.mkdirSync(resultsDir, { recursive: true })
    const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    const report = {
      when: new Date().toISOString(),
      preset: args.small ? 'small' : 'full',
      database: 'PostgreSQL',
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      durationSeconds: DURATION_S,
      connections: CONNECTIONS,
      largeCompany: LARGE_COMPANY,
      dataset: { size: SIZE, totals, portalVisits: portal.visits },
      routes: rows,
      baseline,
      totalSeconds: seconds(),
    }
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
    console.log(`[bench] done in ${seconds()} s; results in ${path.relative(root, file)}`)
    if (rows.some((row) => row.errors > 0) || baseline.errors > 0) {
      console.log(`[bench] some requests failed: see ${logPath}`)
      process.exitCode = 1
    }
  } finally {
    await client.end().catch(() => {})
    await server?.stop()
    if (args.keep) console.log(`[bench] kept database ${database.url}`)
    else await dropDatabase(ADMIN_URL as string, database.name)
  }
}

await main()
