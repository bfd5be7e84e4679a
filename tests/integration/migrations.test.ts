import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { currentDatabaseHandle, migrateDatabase, queryRows } from '~/utils/db.server'

describe('migrations', () => {
  it('create every table of the product', async () => {
    const rows = await queryRows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )
    const tables = rows.map((r) => r.table_name)
    for (const table of [
      'profiles',
      'companies',
      'visits',
      'chem_logs',
      'customers',
      'service_locations',
      'bodies_of_water',
      'equipment',
      'service_plans',
      'inventory_items',
      'user',
      'session',
      'email_outbox',
      'mailbox_messages',
    ]) {
      expect(tables).toContain(table)
    }
  })

  it('re-apply as a no-op', async () => {
    const handle = currentDatabaseHandle()
    if (!handle) throw new Error('no database')
    const count = async () =>
      (await queryRows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n
    const before = await count()
    await migrateDatabase(handle)
    expect(await count()).toBe(before)
    expect(before).toBeGreaterThan(0)
  })
})
