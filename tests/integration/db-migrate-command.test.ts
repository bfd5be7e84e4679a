// `npm run db:migrate` upgrades an embedded demo database on disk from 0006 (before service locations) to the latest
// migration without losing a row. It opens databases of its own, whatever database the run uses, so it runs on one CI
// pass (tests/setup/database-free.ts); the migration itself runs on both kinds in customer-locations-migration.test.ts.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS_DIR, migrateDatabase, openDatabase, projectRoot, queryRows } from '~/utils/db.server'
import { BEFORE, counts, loadFixture } from '../helpers/demo-0006'
import { migrationsUpTo } from '../helpers/migrations'

describe('npm run db:migrate', () => {
  it('upgrades an embedded demo database on disk and keeps every row', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-db-migrate-'))
    const folder = migrationsUpTo(BEFORE)
    try {
      const old = await openDatabase({ dataDir: path.join(dataDir, 'db') })
      await migrateDatabase(old, folder)
      await loadFixture(old)
      const before = await counts(old)
      await old.close()

      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }
      const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'db:migrate'], { cwd: projectRoot(), env })
      expect(stdout).toContain('Migrations applied')

      const upgraded = await openDatabase({ dataDir: path.join(dataDir, 'db') })
      try {
        expect(await counts(upgraded)).toEqual(before)
        const [moved] = await queryRows<{ locations: number; bodies: number; migrations: number }>(
          sql`select (select count(*)::int from service_locations) as locations,
                (select count(*)::int from bodies_of_water) as bodies,
                (select count(*)::int from drizzle.__drizzle_migrations) as migrations`,
          upgraded.db,
        )
        const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'))
        expect(moved).toEqual({
          locations: before.customers,
          bodies: before.customers,
          migrations: journal.entries.length,
        })
      } finally {
        await upgraded.close()
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
