import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { currentDatabaseHandle, db, migrateDatabase } from '~/utils/db.server'

describe('migrations', () => {
  it('create every table of the product', async () => {
    const result = await db().execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
    const tables = result.rows.map((r) => r.table_name)
    for (const table of ['profiles', 'companies', 'jobs', 'chem_logs', 'customers', 'inventory_items', 'user', 'session', 'email_outbox', 'mailbox_messages']) {
      expect(tables).toContain(table)
    }
  })

  it('re-apply as a no-op', async () => {
    const handle = currentDatabaseHandle()
    if (!handle) throw new Error('no database')
    const count = async () =>
      (await db().execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows[0]?.n
    const before = await count()
    await migrateDatabase(handle)
    expect(await count()).toBe(before)
    expect(before).toBeGreaterThan(0)
  })
})
