// This test file's own database: a copy of the run's migrated template (tests/setup/global-setup.ts), opened before
// the file's tests (tests/setup/test-env.ts) and dropped after them, or swapped for a copy of the demo.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { inject } from 'vitest'
import { type DatabaseHandle, db, installDatabase, openDatabase, queryRows } from '~/utils/db.server'

declare global {
  var __poolBudTestDatabase: { handle: DatabaseHandle; drop: () => Promise<void> } | undefined
}

async function adminQuery(adminUrl: string, query: string) {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(query)
  } finally {
    await admin.end()
  }
}

/**
 * A fresh copy of the run's migrated template (or of the seeded demo) that no model uses: for a test that needs more
 * than one database at once. `drop` closes and removes it; `remove` only removes it (its handle closed already).
 */
export async function openSpareDatabase(which: 'empty' | 'demo') {
  const testDatabase = inject('testDatabase')
  let handle: DatabaseHandle
  let remove = async () => {}
  if (testDatabase.kind === 'pglite') {
    const file = which === 'demo' ? testDatabase.demoDumpFile : testDatabase.dumpFile
    // A Blob of the file itself: one built from its bytes is copied in, then read back out slowly (Node 20).
    handle = await openDatabase({ loadDataDir: await fs.openAsBlob(file) })
  } else {
    const name = `pool_bud_test_${testDatabase.runId}_${randomBytes(4).toString('hex')}`
    const template = which === 'demo' ? testDatabase.demoTemplate : testDatabase.template
    await adminQuery(testDatabase.adminUrl, `create database "${name}" template "${template}"`)
    const url = new URL(testDatabase.adminUrl)
    url.pathname = `/${name}`
    handle = await openDatabase({ databaseUrl: url.toString() })
    remove = () => adminQuery(testDatabase.adminUrl, `drop database if exists "${name}" with (force)`)
  }
  const opened = handle
  return {
    handle: opened,
    remove,
    drop: async () => {
      await opened.close()
      await remove()
    },
  }
}

/** Opens a fresh copy of the migrated template, or of the seeded demo, and makes it the database every model uses. */
export async function openTestDatabase(which: 'empty' | 'demo') {
  await closeTestDatabase()
  const { handle, remove } = await openSpareDatabase(which)
  globalThis.__poolBudTestDatabase = { handle, drop: remove }
  installDatabase(handle)
  return handle
}

/** Closes and drops this file's database. */
export async function closeTestDatabase() {
  const current = globalThis.__poolBudTestDatabase
  globalThis.__poolBudTestDatabase = undefined
  installDatabase(undefined)
  if (!current) return
  await current.handle.close()
  await current.drop()
}

/**
 * Gives this file the demo data, photos included: what `seedDemoData(db())` makes on an empty database, seeded once
 * for the whole run. It replaces the file's database, so call it before the file writes anything.
 */
export async function useDemoData() {
  await openTestDatabase('demo')
  const testDatabase = inject('testDatabase')
  fs.cpSync(testDatabase.demoUploads, path.join(process.env.DATA_DIR as string, 'uploads'), { recursive: true })
}

/**
 * Runs `fill`, a large set-based insert into `tables`, with their plain indexes dropped, then builds each again from
 * its own definition: one bulk build each instead of an index update per row (a trigram index's is the costly one).
 * Primary keys and unique indexes stay, so every row is still checked against them.
 */
export async function fillBeforeIndexes(tables: string[], fill: () => Promise<void>) {
  const indexes = await queryRows<{ name: string; definition: string }>(sql`
    select i.indexname as name, i.indexdef as definition
    from pg_indexes i
    join pg_class c on c.relname = i.indexname and c.relnamespace = 'public'::regnamespace
    join pg_index x on x.indexrelid = c.oid
    where i.schemaname = 'public' and i.tablename in (${sql.join(
      tables.map((table) => sql`${table}`),
      sql`, `,
    )}) and not x.indisunique and not x.indisprimary`)
  for (const index of indexes) await db().execute(sql.raw(`drop index "${index.name}"`))
  await fill()
  for (const index of indexes) await db().execute(sql.raw(index.definition))
}
