// What PostgreSQL's autovacuum does, for the embedded database. PGlite runs PostgreSQL as a single process with no
// background workers, so autovacuum never runs there (measured: 100,000 rows inserted, `last_autoanalyze` still
// empty a minute later). Without statistics the planner guesses every table has a row or two: on the demo data the
// customer search then ran its match subquery once per customer, 3.3 s instead of 20 ms. This task applies
// autovacuum's default thresholds itself (ANALYZE after 50 + 10 % of a table's rows changed, VACUUM after 50 + 20 %
// of them died) and analyses tables never analysed. On PostgreSQL autovacuum does this already, and the task is not started (startup.server.ts).
import { sql } from 'drizzle-orm'
import { db } from './db.server'
import { logger } from './logger.server'

type Due = { name: string; vacuum: boolean }

/**
 * The tables autovacuum would work on now, by its default thresholds, and those never analysed (`reltuples` is -1):
 * the change counters start again from zero when the embedded database was not shut down cleanly, the catalog does not.
 */
async function dueTables(): Promise<Due[]> {
  // A backend reports its table counters at most once a second; the embedded database has only this one.
  await db().execute(sql`select pg_stat_force_next_flush()`)
  const result = await db().execute(sql`
    select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name,
           s.n_dead_tup > 50 + 0.2 * s.n_live_tup as vacuum
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where c.reltuples < 0 or s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup or s.n_dead_tup > 50 + 0.2 * s.n_live_tup
    order by s.relname`)
  // drizzle's node-postgres driver answers a QueryResult, its PGlite driver `{ rows }` too.
  return (result as unknown as { rows: Due[] }).rows
}

/** Analyses (and where rows died, vacuums) each table that changed enough since it was last analysed. */
export async function refreshTableStatistics() {
  const tables = await dueTables()
  for (const table of tables) {
    // Names come from the catalog, quoted by quote_ident: no user text reaches this statement.
    await db().execute(sql.raw(`${table.vacuum ? 'vacuum (analyze)' : 'analyze'} ${table.name}`))
  }
  if (tables.length > 0) logger.debug({ tables: tables.map((table) => table.name) }, 'table statistics refreshed')
  return tables
}
