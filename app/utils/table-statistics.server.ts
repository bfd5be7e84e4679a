// What PostgreSQL's autovacuum does, for the embedded database. PGlite runs PostgreSQL as a single process with no
// background workers, so autovacuum never runs there (measured: 100,000 rows inserted, `last_autoanalyze` still
// empty a minute later). Without statistics the planner guesses every table has a row or two: on the demo data the
// customer search then ran its match subquery once per customer, 3.3 s instead of 20 ms. This task applies
// autovacuum's default thresholds itself (ANALYZE after 50 + 10 % of a table's rows changed, VACUUM after 50 + 20 %
// of them died) and analyzes tables never analyzed. On PostgreSQL autovacuum does this already, and the task is not started (startup.server.ts).
// PGlite has one connection: while one of these statements runs, every request's statements wait for it. So while
// the server takes requests, no statement of this task may hold it long (issue 36: never more than 100 ms): ANALYZE
// reads a smaller sample, and VACUUM, which reads a whole table and its indexes, runs then only on small tables;
// a larger one is vacuumed at the next start, before the server listens (docs/decisions/068-pglite-in-a-worker-thread.md).
import { sql } from 'drizzle-orm'
import { db } from './db.server'
import { logger } from './logger.server'

type Due = { name: string; vacuum: boolean; bytes: number }
/** A table the task worked on, and whether it was vacuumed (else only analyzed). */
export type Refreshed = { name: string; vacuum: boolean }

/**
 * The largest table (its heap, indexes and TOAST) vacuumed while requests are served. Measured on PGlite on a busy
 * two-core machine: half the rows of a 6 MB table dead, 85 ms; of a 12 MB one, 75–95 ms; of a 45 MB one, 250–400 ms.
 */
export const VACUUM_WHILE_SERVING_BYTES = 4 * 1024 * 1024

/**
 * The statistics target of ANALYZE while requests are served: a sample of 3,000 rows (300 × 10) where the default 100
 * reads 30,000. Measured on PGlite: a 300,000-row table, 57 ms instead of 371 ms; enough for the row counts and common
 * values the app's plans turn on.
 */
const SERVING_STATISTICS_TARGET = 10

/**
 * The tables autovacuum would work on now, by its default thresholds, and those never analyzed (`reltuples` is -1):
 * the change counters start again from zero when the embedded database was not shut down cleanly, the catalog does not.
 */
async function dueTables(): Promise<Due[]> {
  // A backend reports its table counters at most once a second; the embedded database has only this one.
  await db().execute(sql`select pg_stat_force_next_flush()`)
  const result = await db().execute(sql`
    select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name,
           s.n_dead_tup > 50 + 0.2 * s.n_live_tup as vacuum,
           pg_total_relation_size(s.relid)::float8 as bytes
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where c.reltuples < 0 or s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup or s.n_dead_tup > 50 + 0.2 * s.n_live_tup
    order by s.relname`)
  // drizzle's node-postgres driver answers a QueryResult, its PGlite driver `{ rows }` too.
  return (result as unknown as { rows: Due[] }).rows
}

// Names come from the catalog, quoted by quote_ident: no user text reaches these statements.
async function vacuum(table: Due) {
  await db().execute(sql.raw(`vacuum ${table.name}`))
}

async function analyzeSample(table: Due) {
  await db().transaction(async (tx) => {
    await tx.execute(sql.raw(`set local default_statistics_target = ${SERVING_STATISTICS_TARGET}`))
    await tx.execute(sql.raw(`analyze ${table.name}`))
  })
}

/**
 * The background task, while requests are served: analyzes each table that changed enough since it was last
 * analyzed, and vacuums those where enough rows died if they are small enough to take no time from requests. One
 * statement at a time: requests' statements queued meanwhile run between them.
 */
export async function refreshTableStatistics(): Promise<Refreshed[]> {
  const refreshed: Refreshed[] = []
  for (const table of await dueTables()) {
    const vacuumNow = table.vacuum && table.bytes <= VACUUM_WHILE_SERVING_BYTES
    if (vacuumNow) await vacuum(table)
    else if (table.vacuum) logger.info({ table: table.name, bytes: table.bytes }, 'table vacuumed at the next start')
    await analyzeSample(table)
    refreshed.push({ name: table.name, vacuum: vacuumNow })
  }
  if (refreshed.length > 0) logger.debug({ tables: refreshed }, 'table statistics refreshed')
  return refreshed
}

/** At start-up, before the server listens: vacuums (and fully analyzes) every table where enough rows died. */
export async function vacuumBeforeServing(): Promise<Refreshed[]> {
  const due = (await dueTables()).filter((table) => table.vacuum)
  for (const table of due) await db().execute(sql.raw(`vacuum (analyze) ${table.name}`))
  if (due.length > 0) logger.info({ tables: due.map((table) => table.name) }, 'tables vacuumed before serving')
  return due.map((table) => ({ name: table.name, vacuum: true }))
}
