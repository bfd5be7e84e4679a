// Databases as they were at an earlier migration, for tests that load yesterday's rows and then apply the rest:
// PGlite in memory, or a scratch database on the test run's PostgreSQL when DATABASE_URL is set (its name carries
// the run's id, so the run's teardown drops it even if a test crashes).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inject } from 'vitest'
import { type DatabaseHandle, MIGRATIONS_DIR, migrateDatabase, openDatabase } from '~/utils/db.server'
import { createScratchDatabase, dropDatabase } from '../../scripts/lib/app-server'

/** A copy of the migrations folder holding only the migrations up to `lastTag`; the caller removes it. */
export function migrationsUpTo(lastTag: string) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-migrations-'))
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>
  }
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag)
  if (last < 0) throw new Error(`no migration ${lastTag}`)
  journal.entries = journal.entries.slice(0, last + 1)
  fs.mkdirSync(path.join(folder, 'meta'))
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal))
  for (const { tag } of journal.entries)
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), path.join(folder, `${tag}.sql`))
  return folder
}

/** A new, empty database migrated up to `lastTag` (included); `drop` closes and removes it. */
export async function databaseMigratedTo(
  lastTag: string,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const testDatabase = inject('testDatabase')
  const folder = migrationsUpTo(lastTag)
  try {
    if (testDatabase.kind === 'pglite') {
      const handle = await openDatabase({})
      await migrateDatabase(handle, folder)
      return { handle, drop: () => handle.close() }
    }
    const scratch = await createScratchDatabase(testDatabase.adminUrl, `pool_bud_test_${testDatabase.runId}_mig`)
    const handle = await openDatabase({ databaseUrl: scratch.url })
    const drop = async () => {
      await handle.close()
      await dropDatabase(testDatabase.adminUrl, scratch.name)
    }
    try {
      await migrateDatabase(handle, folder)
    } catch (error) {
      await drop()
      throw error
    }
    return { handle, drop }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true })
  }
}
