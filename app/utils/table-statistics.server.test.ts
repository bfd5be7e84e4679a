// The embedded database's stand-in for autovacuum: tables never analysed or changed enough are analysed (and
// vacuumed where rows died); a table just analysed is not due again.
import { type SQL, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { useDemoData } from '../../tests/helpers/test-database'
import { db } from './db.server'
import { refreshTableStatistics } from './table-statistics.server'

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

  it('analyses a table never analysed at once, and then not again until it changes', async () => {
    // PostgreSQL's own autovacuum stays off it: this test is about what the task does.
    await db().execute(sql`create table statistics_probe (id int) with (autovacuum_enabled = false)`)
    await changeRows(sql`insert into statistics_probe select generate_series(1, 1000)`)
    // Counted before it is analysed (PostgreSQL: another connection's counters arrive a moment later).
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
})
