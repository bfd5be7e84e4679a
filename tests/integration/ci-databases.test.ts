// CI shares the test files that use a database between its PGlite and PostgreSQL passes (tests/setup/ci-databases.ts,
// decision 025). Together the passes must still run every test file, and a file that does things at once must run
// where they happen at once.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ciDatabaseOf, filesForTheOtherDatabase, PINNED_FILES } from '../setup/ci-databases'
import { testFiles } from '../setup/database-free'

const root = path.resolve(import.meta.dirname, '../..')
const { all, databaseFree } = testFiles()
const usingADatabase = all.filter((file) => !databaseFree.includes(file))

describe("CI's two passes", () => {
  it('run every test file between them, each database-free file once', () => {
    // As .ci/run sets them: the PGlite pass skips the database-free files, each pass leaves the other's share.
    const pglitePass = usingADatabase.filter(
      (file) => !filesForTheOtherDatabase(usingADatabase, 'pglite').includes(file),
    )
    const postgresPass = all.filter((file) => !filesForTheOtherDatabase(usingADatabase, 'postgres').includes(file))
    expect(new Set([...pglitePass, ...postgresPass])).toEqual(new Set(all))
    expect(pglitePass.filter((file) => databaseFree.includes(file))).toEqual([])
    // Both passes have a real share, not one pass doing nearly all of it.
    for (const pass of [pglitePass, postgresPass]) expect(pass.length).toBeGreaterThan(usingADatabase.length / 3)
  })

  it('run a file that sends requests at once on PostgreSQL (PGlite answers one statement at a time)', () => {
    const atOnce = usingADatabase.filter((file) =>
      /\bPromise\.all\(/.test(fs.readFileSync(path.join(root, file), 'utf8')),
    )
    expect(atOnce).toContain('app/routes/resources/field-changes.test.ts')
    expect(atOnce.filter((file) => ciDatabaseOf(file) === 'pglite')).toEqual([])
  })

  it('run a file with parts only PostgreSQL runs on PostgreSQL', () => {
    const withPostgresParts = usingADatabase.filter((file) =>
      /runIf\(database\.kind === 'postgres'\)/.test(fs.readFileSync(path.join(root, file), 'utf8')),
    )
    expect(withPostgresParts).toContain('tests/integration/live-update-connections.test.ts')
    for (const file of withPostgresParts) expect(ciDatabaseOf(file), file).not.toBe('pglite')
  })

  it('name only files that exist and use a database in their pinned list', () => {
    for (const file of PINNED_FILES) expect(usingADatabase, file).toContain(file)
  })

  it('run the migrations of data on both databases', () => {
    const migrations = usingADatabase.filter((file) => /migrations?\.test\.ts$/.test(file))
    expect(migrations.length).toBeGreaterThan(3)
    for (const file of migrations) expect(ciDatabaseOf(file), file).toBe('both')
  })
})
