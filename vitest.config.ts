import os from 'node:os'
import path from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'
import { filesForTheOtherDatabase } from './tests/setup/ci-databases'
// The files that touch no database run on one CI pass only, and open none (tests/setup/database-free.ts).
import { testFiles } from './tests/setup/database-free'

const { all: TEST_FILES, databaseFree: DATABASE_FREE } = testFiles()
// CI's passes share the files that use a database (DATABASE_TESTS=pglite or postgres, tests/setup/ci-databases.ts);
// unset, as anywhere but CI, every file runs on the database the run is given.
const DATABASE_TESTS = process.env.DATABASE_TESTS
if (DATABASE_TESTS !== undefined && DATABASE_TESTS !== 'pglite' && DATABASE_TESTS !== 'postgres') {
  throw new Error(`DATABASE_TESTS is "${DATABASE_TESTS}": "pglite", "postgres" or unset`)
}
const OTHER_DATABASE = DATABASE_TESTS
  ? filesForTheOtherDatabase(
      TEST_FILES.filter((file) => !DATABASE_FREE.includes(file)),
      DATABASE_TESTS,
    )
  : []

export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    // The built stylesheet's address, which Vitest does not build (tests/setup/stylesheet-url.ts).
    alias: [
      { find: /^~\/app\.css\?url$/, replacement: path.resolve(import.meta.dirname, 'tests/setup/stylesheet-url.ts') },
    ],
  },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.DATABASE_FREE_TESTS === 'skip' ? DATABASE_FREE : []),
      ...OTHER_DATABASE,
    ],
    environment: 'node',
    pool: 'forks',
    // Files share their worker's modules instead of importing the app afresh each: that import was about 40 % of a
    // run. Each file still gets its own database, data folder and environment (tests/setup/test-env.ts).
    isolate: false,
    // Never fewer than two files at once, even on two cores (Vitest's default there is one): the slowest files mostly
    // wait — a server restarted after a kill, an email lease running out — and another file runs meanwhile.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/test-env.ts'],
    // Generous: in CI this run shares two cores with the other database's run and its browsers, and the largest
    // tests (every route as every persona, a migration of a whole demo database) then take minutes, not seconds.
    // A test fails on what it asserts, never on the machine being busy.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    env: { NODE_ENV: 'test' },
    provide: { databaseFreeFiles: DATABASE_FREE },
  },
})
