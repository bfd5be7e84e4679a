// `npm run db:copy` (docs/scaling.md "Moving to PostgreSQL"): the demo company copied into an empty database arrives
// row for row — no trigger runs again (a second warehouse, a touched `updated_at`) — on this run's database kind and
// across kinds (PostgreSQL into the embedded database and back, on the PostgreSQL pass); a target that holds data and
// a source of an older version are refused with what to do.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { copyDatabase, DatabaseCopyError } from '~/utils/database-copy.server'
import { type Database, type DatabaseHandle, openDatabase, queryRows } from '~/utils/db.server'
import { openSpareDatabase, openTestDatabase } from '../helpers/test-database'

let demo: DatabaseHandle
const drops: (() => Promise<void>)[] = []

beforeAll(async () => {
  demo = await openTestDatabase('demo')
})

afterAll(async () => {
  for (const drop of drops.reverse()) await drop()
})

/** An empty database of the run's kind, migrated (a copy of the run's template). */
async function emptyDatabase() {
  const made = await openSpareDatabase('empty')
  drops.push(made.drop)
  return made.handle
}

/** A new embedded database, empty (the copy migrates it). */
async function emptyEmbedded() {
  const embedded = await openDatabase({})
  drops.push(() => embedded.close())
  return embedded
}

/** Every table's rows as one fingerprint: the count and a hash of the rows' text, in UTC and byte order. */
async function fingerprint(database: Database) {
  return database.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`)
    const tables = await queryRows<{ name: string }>(
      sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      tx,
    )
    const prints: Record<string, string> = {}
    for (const { name } of tables) {
      const [row] = await queryRows<{ n: number; hash: string }>(
        sql`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text collate "C"), '')) as hash
          from ${sql.identifier(name)} t`,
        tx,
      )
      prints[name] = `${row?.n} ${row?.hash}`
    }
    return prints
  })
}

describe('copying a whole database', () => {
  it('copies the demo row for row into an empty database of the same kind, and refuses to copy into it again', async () => {
    const target = await emptyDatabase()
    const copied = await copyDatabase(demo, target)
    const source = await fingerprint(demo.db)
    expect(await fingerprint(target.db)).toEqual(source)
    expect(copied.find((table) => table.table === 'visits')?.rows).toBeGreaterThan(100)
    // The companies' triggers did not make another warehouse each.
    const [warehouses] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from stock_locations where kind = 'warehouse'`,
      target.db,
    )
    const [companies] = await queryRows<{ n: number }>(sql`select count(*)::int as n from companies`, target.db)
    expect(warehouses?.n).toBe(companies?.n)
    await expect(copyDatabase(demo, target)).rejects.toThrow(
      new DatabaseCopyError('The target database already holds data (account): copy into an empty one.'),
    )
  })

  // On the PGlite pass the run's kind is the embedded one: the first test already copied embedded to embedded.
  it.runIf(inject('testDatabase').kind === 'postgres')(
    'crosses kinds: into the embedded database and from it, row for row',
    async () => {
      const embedded = await emptyEmbedded()
      await copyDatabase(demo, embedded)
      const back = await emptyDatabase()
      await copyDatabase(embedded, back)
      expect(await fingerprint(back.db)).toEqual(await fingerprint(demo.db))
    },
  )

  it('refuses a source that has not applied this version’s migrations, and says how to bring it up', async () => {
    // A database that has not applied the last migration yet, as one left by the version before.
    const older = await emptyDatabase()
    await older.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    )
    const target = await emptyDatabase()
    await expect(copyDatabase(older, target)).rejects.toThrow(
      /has \d+ of this version's \d+ migrations: start its server once on this version/,
    )
  })
})
