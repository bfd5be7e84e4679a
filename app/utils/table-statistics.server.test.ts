// The embedded database's stand-in for autovacuum: tables never analyzed or changed enough are analyzed (and
// vacuumed where rows died); a table just analyzed is not due again. While requests are served, none of its statements
// holds the database long: a large table's VACUUM waits for the next start, and ANALYZE reads a small sample. How long
// each takes is measured, not asserted (the figures are in table-statistics.server.ts): a test's clock on a shared
// machine says more about the machine.
import { type SQL, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { useDemoData } from '../../tests/helpers/test-database'
import { currentDatabaseHandle, db, installDatabase, openDatabase, queryRows } from './db.server'
import { refreshTableStatistics, VACUUM_WHILE_SERVING_BYTES, vacuumBeforeServing } from './table-statistics.server'

async function statsOf(table: string) {
  const result = await db().execute(
    sql`select coalesce(last_analyze, last_autoanalyze) as analyzed, coalesce(last_vacuum, last_autovacuum) as vacuumed,
               n_mod_since_analyze::int as changed
        from pg_stat_user_tables where relname = ${table}`,
  )
  return (result as unknown as { rows: { analyzed: unknown; vacuumed: unknown; changed: number }[] }).rows[0]
}

/** Runs `statement` and has its connection report its counters as soon as it is idle, not up to 10 s later. */
async function changeRows(statement: SQL) {
  await db().transaction(async (tx) => {
    await tx.execute(statement)
    await tx.execute(sql`select pg_stat_force_next_flush()`)
  })
}

/** Other connections report their counters within a second or so (PostgreSQL); the embedded database at once. */
const SOON = { timeout: 15_000, interval: 300 }

describe('table statistics', () => {
  beforeAll(async () => {
    await useDemoData()
  })

  it('analyzes a table never analyzed at once, and then not again until it changes', async () => {
    // PostgreSQL's own autovacuum stays off it: this test is about what the task does.
    await db().execute(sql`create table statistics_probe (id int) with (autovacuum_enabled = false)`)
    await changeRows(sql`insert into statistics_probe select generate_series(1, 1000)`)
    // Counted before it is analyzed (PostgreSQL: another connection's counters arrive a moment later).
    await expect.poll(async () => (await statsOf('statistics_probe'))?.changed, SOON).toBe(1000)
    expect((await statsOf('statistics_probe'))?.analyzed).toBeNull()
    expect(await refreshTableStatistics()).toContainEqual({ name: 'public.statistics_probe', vacuum: false })
    expect((await statsOf('statistics_probe'))?.analyzed).not.toBeNull()
    expect((await refreshTableStatistics()).map((table) => table.name)).not.toContain('public.statistics_probe')
  })

  it('vacuums a table where enough rows died', async () => {
    await changeRows(sql`delete from statistics_probe where id <= 500`)
    await expect
      .poll(
        async () => (await refreshTableStatistics()).find((table) => table.name === 'public.statistics_probe'),
        SOON,
      )
      .toEqual({ name: 'public.statistics_probe', vacuum: true })
    expect((await statsOf('statistics_probe'))?.vacuumed).not.toBeNull()
  })

  it('leaves a large VACUUM to the next start and analyzes a small sample while serving, requests going on', async () => {
    // As the server runs it: PGlite in its worker thread (decision 068), with this one table.
    const testDatabase = currentDatabaseHandle()
    const served = await openDatabase({ worker: true })
    installDatabase(served)
    try {
      await db().execute(sql`create table statistics_large (id int primary key, note text)`)
      await db().execute(sql`insert into statistics_large select g, repeat('x', 200) from generate_series(1, 100000) g`)
      expect(await refreshTableStatistics()).toEqual([{ name: 'public.statistics_large', vacuum: false }])
      const [size] = await queryRows<{ bytes: number }>(
        sql`select pg_total_relation_size('statistics_large')::float8 as bytes`,
      )
      expect(size?.bytes).toBeGreaterThan(VACUUM_WHILE_SERVING_BYTES)
      await changeRows(sql`delete from statistics_large where id % 2 = 0`)
      // A request's statement every millisecond or so while the task runs: none waits long for the database.
      let running = true
      const waits: number[] = []
      const requests = (async () => {
        while (running) {
          const sent = performance.now()
          await db().execute(sql`select 1`)
          waits.push(performance.now() - sent)
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
      })()
      const refreshed = await refreshTableStatistics()
      running = false
      await requests
      expect(refreshed).toEqual([{ name: 'public.statistics_large', vacuum: false }])
      // Requests' statements ran between the task's, not after it.
      expect(waits.length).toBeGreaterThan(1)
      expect((await statsOf('statistics_large'))?.vacuumed).toBeNull()
      // The ANALYZE read the serving sample: its histogram has at most the serving target's 10 buckets (the default
      // target of 100 would give 100).
      const [histogram] = await queryRows<{ bounds: number }>(
        sql`select coalesce(array_length(histogram_bounds::text::text[], 1), 0) as bounds from pg_stats
          where tablename = 'statistics_large' and attname = 'id'`,
      )
      expect(histogram?.bounds).toBeGreaterThan(1)
      expect(histogram?.bounds).toBeLessThanOrEqual(11)
      // At start-up no request is waiting: it is vacuumed then, and analyzed in full.
      expect(await vacuumBeforeServing()).toEqual([{ name: 'public.statistics_large', vacuum: true }])
      expect((await statsOf('statistics_large'))?.vacuumed).not.toBeNull()
      const [full] = await queryRows<{ bounds: number }>(
        sql`select coalesce(array_length(histogram_bounds::text::text[], 1), 0) as bounds from pg_stats
          where tablename = 'statistics_large' and attname = 'id'`,
      )
      expect(full?.bounds).toBeGreaterThan(11)
    } finally {
      installDatabase(testDatabase)
      await served.close()
    }
  })
})
