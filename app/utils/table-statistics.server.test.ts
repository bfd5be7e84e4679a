// The embedded database's stand-in for autovacuum: tables never analysed or changed enough are analysed (and
// vacuumed where rows died); a table just analysed is not due again.
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { useDemoData } from '../../tests/helpers/test-database'
import { db } from './db.server'
import { refreshTableStatistics } from './table-statistics.server'

async function statsOf(table: string) {
  const result = await db().execute(
    sql`select coalesce(last_analyze, last_autoanalyze) as analyzed, coalesce(last_vacuum, last_autovacuum) as vacuumed
        from pg_stat_user_tables where relname = ${table}`,
  )
  return (result as unknown as { rows: { analyzed: unknown; vacuumed: unknown }[] }).rows[0]
}

/** Other connections report their counters within a second or so (PostgreSQL); the embedded database at once. */
const SOON = { timeout: 15_000, interval: 300 }

describe('table statistics', () => {
  beforeAll(async () => {
    await useDemoData()
  })

  it('analyses the tables the demo filled; one just analysed is not due again', async () => {
    await refreshTableStatistics()
    expect((await statsOf('customers'))?.analyzed).not.toBeNull()
    expect((await refreshTableStatistics()).map((table) => table.name)).not.toContain('public.customers')
  })

  it('analyses a table whose rows changed and vacuums one where enough rows died', async () => {
    await db().execute(sql`create table statistics_probe (id int)`)
    await db().execute(sql`insert into statistics_probe select generate_series(1, 1000)`)
    await expect
      .poll(async () => {
        await refreshTableStatistics()
        return (await statsOf('statistics_probe'))?.analyzed
      }, SOON)
      .not.toBeNull()
    await db().execute(sql`delete from statistics_probe where id <= 500`)
    await expect
      .poll(
        async () => (await refreshTableStatistics()).find((table) => table.name === 'public.statistics_probe'),
        SOON,
      )
      .toEqual({ name: 'public.statistics_probe', vacuum: true })
    expect((await statsOf('statistics_probe'))?.vacuumed).not.toBeNull()
  })
})
