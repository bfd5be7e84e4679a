// `npx tsx bench/embedded-loaders.ts <database url> [page,…] [--runs N] [--worker script.mjs …]`: the hot pages'
// loaders (bench/hot-pages.ts) on the embedded database, without HTTP or rendering: a PGlite copy of a benchmark
// database (made once in a scratch folder), opened in its worker thread as the server opens it, each page's loaders
// run N times inside `withPreparedStatements` as the pages run them. It prints the process's CPU a page (this thread
// and the worker's). With several `--worker` scripts (another version of server/pglite-worker.mjs, say, copied into
// server/ to import its neighbors) they are run in turn, twice each, so that a change can be compared on a busy
// machine. docs/performance.md keeps the results.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import * as schema from '~/db/schema'
import { copyDatabase } from '~/utils/database-copy.server'
import { type Database, installDatabase, openDatabase, projectRoot } from '~/utils/db.server'
import { openPgliteWorker } from '~/utils/pglite-worker.server'
import { withPreparedStatements } from '~/utils/prepared-statements.server'
import { hotPages } from './hot-pages'

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '40' }, worker: { type: 'string', multiple: true } },
})
const [databaseUrl, only] = positionals
if (!databaseUrl) {
  console.error('usage: npx tsx bench/embedded-loaders.ts postgres://…/pool_bud_bench_… [page,…] [--runs N]')
  process.exit(2)
}
const runs = Number(args.runs)
const workers = args.worker?.map((script) => path.resolve(script)) ?? [
  path.join(projectRoot(), 'server', 'pglite-worker.mjs'),
]

// One copy per benchmark database, kept for the next run (the copy takes about as long as a round of pages).
const copy = path.join(os.tmpdir(), `pool-bud-embedded-${path.basename(new URL(databaseUrl).pathname)}`)
if (!fs.existsSync(copy)) {
  const from = await openDatabase({ databaseUrl })
  const to = await openDatabase({ dataDir: copy })
  try {
    await copyDatabase(from, to)
    // Statistics, as the server's statistics task gathers them (decision 029): without them the planner guesses.
    await to.db.execute(sql`analyze`)
  } finally {
    await to.close()
    await from.close()
  }
}

const figures = new Map<string, string[]>()
for (const script of workers.length > 1 ? [...workers, ...workers] : workers) {
  const client = await openPgliteWorker(script, copy)
  const db = drizzle(client as never, { schema }) as unknown as Database
  installDatabase({ kind: 'pglite', db, client, close: () => client.close() })
  try {
    for (const [name, load] of await hotPages(db)) {
      if (only && !only.split(',').some((part) => name.includes(part))) continue
      const run = () => withPreparedStatements(load)
      for (let warm = 0; warm < 15; warm += 1) await run()
      const before = process.cpuUsage()
      for (let time = 0; time < runs; time += 1) await run()
      const used = process.cpuUsage(before)
      const key = `${name.padEnd(22)} ${path.basename(script)}`
      figures.set(key, [...(figures.get(key) ?? []), ((used.user + used.system) / 1000 / runs).toFixed(2)])
    }
  } finally {
    await client.close()
    installDatabase(undefined)
  }
}
for (const [key, cpu] of [...figures].sort()) console.log(`${key}  ${cpu.join(' / ')} ms CPU a page`)
