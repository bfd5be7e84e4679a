// `npm run load [-- --duration 60]`: drives a realistic mix against the production server on
// PostgreSQL for a fixed time — dispatchers creating and assigning visits and watching the board,
// technicians saving readings and photos, customers reading their portals — then checks that
// every write the server acknowledged is in the database. Fails on any lost write or 5xx.
//
// It starts its own server (a fresh database on the DATABASE_URL server, seeded with the demo
// data), so it never touches your data.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import sharp from 'sharp'
import {
  buildIfNeeded,
  createScratchDatabase,
  dropDatabase,
  type RunningServer,
  signIn as signInAt,
  startServer,
} from './lib/app-server'

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    port: { type: 'string', default: '3311' },
  },
})
const DURATION_S = Number(args.duration)
const ADMIN_URL = process.env.DATABASE_URL
if (!ADMIN_URL) {
  console.error(
    'npm run load needs PostgreSQL: set DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/postgres).',
  )
  process.exit(2)
}
const root = path.resolve(import.meta.dirname, '..')
const origin = `http://localhost:${args.port}`
const PASSWORD = 'pooldemo123'
const signIn = (email: string, clientIp: string) => signInAt(origin, email, PASSWORD, clientIp)

type Tally = { ok: number; clientError: number; serverError: number; statuses: Record<number, number> }
const newTally = (): Tally => ({ ok: 0, clientError: 0, serverError: 0, statuses: {} })
function count(tally: Tally, status: number) {
  tally.statuses[status] = (tally.statuses[status] ?? 0) + 1
  if (status >= 500) tally.serverError++
  else if (status >= 400) tally.clientError++
  else tally.ok++
}

/** `YYYY-MM-DDTHH:mm` a few days ahead, as the schedule inputs send it. */
function scheduleInput(daysAhead: number, hour: number) {
  const date = new Date(Date.now() + daysAhead * 86_400_000)
  return `${date.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00`
}

async function main() {
  buildIfNeeded(root, 'load')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-load-'))
  const database = await createScratchDatabase(ADMIN_URL as string, 'pool_bud_load')
  let server: RunningServer | undefined
  const db = new pg.Client({ connectionString: database.url })
  try {
    server = await startServer(root, {
      port: args.port,
      databaseUrl: database.url,
      dataDir: path.join(runDir, 'data'),
      logPath: path.join(runDir, 'server.log'),
      env: { SEED_DEMO: '1' },
    })
    await db.connect()
    await run(db, runDir)
  } finally {
    await db.end().catch(() => {})
    await server?.stop()
    await dropDatabase(ADMIN_URL as string, database.name)
    console.log(`server log: ${path.join(runDir, 'server.log')}`)
  }
}

async function run(db: pg.Client, runDir: string) {
  const one = async <T>(text: string, params: unknown[] = []) => (await db.query(text, params)).rows[0] as T
  const blueLagoon = await one<{ id: string }>(`select id from companies where name = 'Blue Lagoon Pool Co.'`)
  const techs = (
    await db.query(`select id, email from profiles where company_id = $1 and role = 'tech' and has_completed_setup`, [
      blueLagoon.id,
    ])
  ).rows as Array<{ id: string; email: string }>
  const tech = techs.find((t) => t.email === 'tech@bluelagoon.test') as { id: string }
  const customer = await one<{ id: string; customer_name: string; address: string }>(
    `select c.id, c.customer_name, l.street || coalesce(', ' || l.city, '') as address
     from customers c join service_locations l on l.company_id = c.company_id and l.customer_id = c.id
     where c.company_id = $1 and c.status = 'active' order by c.customer_name, l.position limit 1`,
    [blueLagoon.id],
  )
  const portal = await one<{ id: string }>(
    `select id from customers where portal_user_id is not null and company_id = $1`,
    [blueLagoon.id],
  )
  const techVisits = (
    await db.query(
      `select id from visits where company_id = $1 and technician_id = $2 and completed_at is null order by scheduled_at limit 4`,
      [blueLagoon.id, tech.id],
    )
  ).rows.map((row) => row.id as string)
  const assignVisits = (
    await db.query(
      `select id from visits where company_id = $1 and completed_at is null order by scheduled_at desc limit 8`,
      [blueLagoon.id],
    )
  ).rows.map((row) => row.id as string)
  const readingsBefore = Number(
    (await one<{ n: string }>(`select count(*) as n from chem_logs where visit_id = any($1)`, [techVisits])).n,
  )

  const cookies = {
    dispatcher: await signIn('dispatch@bluelagoon.test', '10.77.0.1'),
    tech: await signIn('tech@bluelagoon.test', '10.77.0.2'),
    customer: await signIn('customer@bluelagoon.test', '10.77.0.3'),
  }
  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2a9bd8' } })
    .jpeg({ quality: 80 })
    .toBuffer()
  const boundary = '----poolbudload'
  // One photo from the phone's queue, sent over and over (a queue replaying after lost answers): stored once.
  const photoClientKey = crypto.randomUUID()
  const photoBody = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="label"\r\n\r\nbefore\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="clientKey"\r\n\r\n${photoClientKey}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="pool.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    photo,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
  const formHeaders = (cookie: string, ip: string) => ({
    cookie,
    origin,
    'x-forwarded-for': ip,
    'content-type': 'application/x-www-form-urlencoded',
  })
  let created = 0
  let readingSeq = 0
  let assignSeq = 0

  type Scenario = { name: string; connections: number; request: autocannon.Request; tally: Tally; writes?: true }
  const scenario = (
    name: string,
    connections: number,
    request: Omit<autocannon.Request, 'onResponse'>,
    writes?: true,
  ): Scenario => {
    const tally = newTally()
    return { name, connections, tally, writes, request: { ...request, onResponse: (status) => count(tally, status) } }
  }
  const scenarios: Scenario[] = [
    scenario(
      'dispatcher creates a visit',
      2,
      {
        method: 'POST',
        path: '/app?index',
        headers: formHeaders(cookies.dispatcher, '10.77.1.1'),
        setupRequest: (request) => ({
          ...request,
          body: form({
            intent: 'create-visit',
            customerId: customer.id,
            customerName: `Load visit ${++created}`,
            address: customer.address,
            scheduledAt: scheduleInput(3, 9 + (created % 8)),
            technicianId: '',
          }),
        }),
      },
      true,
    ),
    scenario('dispatcher assigns a visit', 2, {
      method: 'POST',
      path: '/app?index',
      headers: formHeaders(cookies.dispatcher, '10.77.1.2'),
      setupRequest: (request) => {
        assignSeq++
        return {
          ...request,
          body: form({
            intent: 'assign',
            visitId: assignVisits[assignSeq % assignVisits.length] as string,
            technicianId: (techs[assignSeq % techs.length] as { id: string }).id,
            scheduledAt: scheduleInput(5, 8 + (assignSeq % 9)),
          }),
        }
      },
    }),
    scenario('dispatcher watches the board', 2, {
      method: 'GET',
      path: '/app',
      headers: { cookie: cookies.dispatcher, 'x-forwarded-for': '10.77.1.3' },
    }),
    scenario(
      'technician saves a reading',
      3,
      {
        method: 'POST',
        path: `/app/visits/${techVisits[0]}`,
        headers: formHeaders(cookies.tech, '10.77.2.1'),
        setupRequest: (request) => {
          readingSeq++
          return {
            ...request,
            path: `/app/visits/${techVisits[readingSeq % techVisits.length]}`,
            body: form({ intent: 'reading', ph: '7.4', chlorinePpm: String(1 + (readingSeq % 4)), alkalinity: '90' }),
          }
        },
      },
      true,
    ),
    scenario('technician uploads a photo (the queue replaying it)', 1, {
      method: 'POST',
      path: `/app/visits/${techVisits[0]}/photos`,
      headers: {
        cookie: cookies.tech,
        origin,
        'x-forwarded-for': '10.77.2.2',
        accept: 'application/json',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: photoBody,
    }),
    scenario('customer reads the portal', 3, {
      method: 'GET',
      path: `/customer/${portal.id}`,
      headers: { cookie: cookies.customer, 'x-forwarded-for': '10.77.3.1' },
    }),
  ]

  console.log(`Load: ${scenarios.length} scenarios, ${DURATION_S} s, against ${origin} (PostgreSQL)…`)
  const results = await Promise.all(
    scenarios.map((s) =>
      autocannon({
        url: origin,
        connections: s.connections,
        duration: DURATION_S,
        requests: [s.request],
      }),
    ),
  )

  const acknowledgedCreates = (scenarios[0] as Scenario).tally.ok
  const acknowledgedReadings = (scenarios[3] as Scenario).tally.ok
  const storedCreates = Number(
    (
      await one<{ n: string }>(
        `select count(*) as n from visits where company_id = $1 and customer_name like 'Load visit %'`,
        [blueLagoon.id],
      )
    ).n,
  )
  const storedReadings =
    Number((await one<{ n: string }>(`select count(*) as n from chem_logs where visit_id = any($1)`, [techVisits])).n) -
    readingsBefore
  const photoRows = await db.query<{ storage_key: string }>(
    `select storage_key from visit_photos where visit_id = $1 and client_key = $2`,
    [techVisits[0], photoClientKey],
  )
  const photoKey = photoRows.rows[0]?.storage_key
  const photoOnDisk = photoKey ? fs.existsSync(path.join(runDir, 'data', 'uploads', `${photoKey}.jpg`)) : false

  const rows = scenarios.map((s, index) => {
    const result = results[index] as autocannon.Result
    return {
      scenario: s.name,
      requests: result.requests.total,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p97.5 ms': result.latency.p97_5,
      'p99 ms': result.latency.p99,
      '2xx/3xx': s.tally.ok,
      '4xx': s.tally.clientError,
      '5xx': s.tally.serverError,
    }
  })
  console.table(rows)
  const total = rows.reduce((sum, row) => sum + row.requests, 0)
  const serverErrors = rows.reduce((sum, row) => sum + row['5xx'], 0)
  const lost = Math.max(0, acknowledgedCreates - storedCreates) + Math.max(0, acknowledgedReadings - storedReadings)
  console.log(`Throughput: ${Math.round(total / DURATION_S)} requests/s overall (${total} requests)`)
  console.log(`Visits created: ${acknowledgedCreates} acknowledged, ${storedCreates} stored`)
  console.log(`Readings saved: ${acknowledgedReadings} acknowledged, ${storedReadings} stored`)
  console.log(
    `Photo: ${photoRows.rows.length === 1 && photoOnDisk ? 'stored once and on disk' : `${photoRows.rows.length} rows, on disk: ${photoOnDisk}`}`,
  )
  console.log(`Lost writes: ${lost}. Server errors: ${serverErrors}.`)
  const clientErrors = scenarios.filter((s) => s.tally.clientError > 0)
  for (const s of clientErrors) console.log(`  4xx in "${s.name}": ${JSON.stringify(s.tally.statuses)}`)
  // More stored than acknowledged is fine: requests still in flight when the clock stopped.
  if (lost > 0 || serverErrors > 0 || !photoOnDisk) process.exitCode = 1
}

await main()
