// `npx tsx bench/explain.ts <database url> [page] [--generic]`: EXPLAIN (ANALYZE, BUFFERS) of every statement
// the hot pages run, on a benchmark database (`npm run bench -- --small --keep` leaves one behind). The
// statements are recorded from the app's own loaders, so the plans are of the SQL that really runs.
// Lines with sequential scans or sorts are marked `<<`; docs/performance.md keeps the results.
import fs from 'node:fs'
import pg from 'pg'
import { installDatabase, openDatabase, recordQueries } from '~/utils/db.server'
import { hotPages } from './hot-pages'

const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL
if (!databaseUrl) {
  console.error('usage: npx tsx bench/explain.ts postgres://…/pool_bud_bench_…')
  process.exit(2)
}
const handle = await openDatabase({ databaseUrl })
if (handle.kind !== 'postgres') throw new Error('PostgreSQL only')
const pool = handle.client
installDatabase(handle)
const pages = await hotPages(handle.db)

/**
 * `--generic`: the time of each statement with the plan PostgreSQL may keep for a prepared statement after a few runs
 * (a generic plan, made without the parameters' values: decision 073) against the plan made for its values.
 */
const GENERIC_RUNS = 150

async function compareGeneric(queries: { sql: string; params: unknown[] }[]) {
  const client = await pool.connect()
  try {
    for (const [index, query] of queries.entries()) {
      const literals = query.params.map((value) =>
        client.escapeLiteral(value instanceof Date ? value.toISOString() : String(value)),
      )
      const name = `explain_${index}`
      await client.query(`prepare ${name} as ${query.sql}`)
      const times: string[] = []
      for (const mode of ['force_custom_plan', 'force_generic_plan']) {
        await client.query(`set plan_cache_mode = ${mode}`)
        const args = literals.length ? `(${literals.join(', ')})` : ''
        const plan = await client.query(`explain (analyze, costs off) execute ${name}${args}`)
        const lines = plan.rows.map((row) => row['QUERY PLAN'] as string)
        times.push(
          `${mode}: ${lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '')}`,
        )
      }
      // What PostgreSQL does by itself (plan_cache_mode auto): custom plans for five runs, then the generic plan if
      // its estimated cost is not above theirs.
      const args = literals.length ? `(${literals.join(', ')})` : ''
      await client.query('reset plan_cache_mode')
      await client.query(`deallocate ${name}`)
      await client.query(`prepare ${name} as ${query.sql}`)
      for (let run = 0; run < 6; run += 1) await client.query(`execute ${name}${args}`)
      const [chosen] = (
        await client.query(`select generic_plans, custom_plans from pg_prepared_statements where name = $1`, [name])
      ).rows as { generic_plans: number; custom_plans: number }[]
      times.push(`auto: ${chosen?.generic_plans ? 'generic' : 'custom'} after six runs`)
      await client.query(`deallocate ${name}`)
      console.log(`-- ${times.join(', ')}  ${query.sql.replace(/\s+/g, ' ').slice(0, 120)}`)
    }
  } finally {
    client.release()
  }
  // The page's statements over and over, unnamed and prepared, on one connection: the database server's CPU for them
  // (read from /proc, so PostgreSQL must run on this machine).
  const cpuMs = (pid: number) => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  }
  const figures: string[] = []
  for (const prepared of [false, true, false, true]) {
    const connection = new pg.Client({ connectionString: databaseUrl })
    await connection.connect()
    try {
      const pid = (await connection.query('select pg_backend_pid() as pid')).rows[0].pid as number
      const runAll = async (times: number) => {
        for (let run = 0; run < times; run += 1) {
          for (const [index, query] of queries.entries()) {
            const name = prepared ? { name: `explain_${index}` } : {}
            await connection.query({ ...name, text: query.sql, values: query.params })
          }
        }
      }
      await runAll(10)
      const before = cpuMs(pid)
      await runAll(GENERIC_RUNS)
      figures.push(`${prepared ? 'prepared' : 'unnamed'} ${((cpuMs(pid) - before) / GENERIC_RUNS).toFixed(2)}`)
    } finally {
      await connection.end()
    }
  }
  console.log(`-- the database's CPU ms for the page's statements: ${figures.join(', ')}`)
}

const generic = process.argv.includes('--generic')
const onlyPage = process.argv.slice(3).find((arg) => !arg.startsWith('--'))
for (const [name, load] of pages) {
  if (onlyPage && !name.includes(onlyPage)) continue
  const { recorded: queries } = await recordQueries(handle, load)
  console.log(`\n######## ${name}: ${queries.length} statements`)
  if (generic) {
    await compareGeneric(queries)
    continue
  }
  for (const query of queries) {
    const plan = await pool.query(`explain (analyze, buffers, costs off) ${query.sql}`, query.params as unknown[])
    const lines = plan.rows.map((row) => row['QUERY PLAN'] as string)
    const time = lines.filter((line) => line.startsWith('Planning Time') || line.startsWith('Execution Time'))
    console.log(`\n-- ${time.join(', ')}\n${query.sql.replace(/\s+/g, ' ').slice(0, 600)}`)
    for (const line of lines) {
      if (line.startsWith('Planning') || line.startsWith('Execution')) continue
      const hot = /Seq Scan|Sort(?! Key)|Sort Method/.test(line) ? '   <<' : ''
      console.log(`  ${line}${hot}`)
    }
  }
}
await handle.close()
