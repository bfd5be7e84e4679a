// The per-page baselines: a bare `node:http` server that, for page k (`GET /k`), runs exactly the statements that
// page sent to the database in bench/capture.ts — same driver, same pool size, each statement prepared — and answers
// a small JSON. No routing, session logic, React or compression: the ceiling for that page on this machine, measured
// in the same run. A statement that writes a new row gets fresh ids each time (the captured ones exist already); the
// sign-in baseline also verifies the same scrypt password hash the sign-in does.
// Env: DATABASE_URL, BASELINE_PAGES (a JSON file written by bench/run.ts), PORT.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import { verifyPassword } from 'better-auth/crypto'
import pg from 'pg'
import type { Statement } from './capture'

export type BaselinePage = { name: string; statements: Statement[]; password?: { hash: string; password: string } }

const { DATABASE_URL, BASELINE_PAGES, PORT = '3322' } = process.env
if (!DATABASE_URL || !BASELINE_PAGES) {
  console.error('bench/baseline.ts needs DATABASE_URL and BASELINE_PAGES')
  process.exit(2)
}
const pages = JSON.parse(fs.readFileSync(BASELINE_PAGES, 'utf8')) as BaselinePage[]
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const TOKEN = /^[A-Za-z0-9_-]{20,}$/

/** Values an INSERT introduces (not seen in an earlier statement): new ids and tokens, fresh for every replay. */
function freshValues(statements: Statement[]) {
  const seen = new Set<unknown>()
  const fresh = new Set<string>()
  for (const { text, values } of statements) {
    if (/^\s*insert\b/i.test(text)) {
      for (const value of values) {
        if (typeof value === 'string' && !seen.has(value) && (UUID.test(value) || TOKEN.test(value))) fresh.add(value)
      }
    }
    for (const value of values) seen.add(value)
  }
  return fresh
}

const plans = pages.map((page) => ({
  ...page,
  fresh: freshValues(page.statements),
  names: page.statements.map(({ text }) => `b${createHash('sha1').update(text).digest('hex').slice(0, 16)}`),
}))

function replacement(value: string) {
  return UUID.test(value)
    ? randomUUID()
    : randomBytes(Math.ceil(value.length * 0.75))
        .toString('base64url')
        .slice(0, value.length)
}

async function replay(plan: (typeof plans)[number]) {
  const substitutes = new Map<string, string>()
  const client = await pool.connect()
  let rows = 0
  try {
    for (const [index, { text, values }] of plan.statements.entries()) {
      const actual = values.map((value) => {
        if (typeof value !== 'string' || !plan.fresh.has(value)) return value
        const substitute = substitutes.get(value) ?? replacement(value)
        substitutes.set(value, substitute)
        return substitute
      })
      const result = await client.query({ name: plan.names[index], text, values: actual })
      rows += result.rowCount ?? 0
    }
  } finally {
    client.release()
  }
  if (plan.password) await verifyPassword({ hash: plan.password.hash, password: plan.password.password })
  return rows
}

const server = http.createServer(async (request, response) => {
  const plan = plans[Number((request.url ?? '/').slice(1))]
  if (!plan) {
    response.writeHead(request.url === '/' ? 200 : 404)
    response.end()
    return
  }
  try {
    const rows = await replay(plan)
    const body = JSON.stringify({ page: plan.name, statements: plan.statements.length, rows })
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(body)
  } catch (error) {
    console.error(plan.name, error)
    response.writeHead(500)
    response.end()
  }
})
server.listen(Number(PORT), () => console.log(`baseline listening on ${PORT}`))
process.on('SIGTERM', () => {
  server.close()
  void pool.end().then(() => process.exit(0))
})
