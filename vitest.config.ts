import os from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Tests that touch no database: the pure cores (Biome keeps them from importing models or the database), the
 * scripts, and the dev server (which runs on an embedded database of its own whatever the run uses). CI runs the
 * suite once per database side by side; these need only one of the two passes, so the PostgreSQL pass, the longer
 * one, sets DATABASE_FREE_TESTS=skip (.ci/run, decision 025). Unset, everything runs.
 */
const DATABASE_FREE = [
  'app/water/**',
  'app/schedule/**',
  'app/routing/**',
  'app/customer-import/**',
  'app/notices/**',
  'app/field/**',
  'app/emails/**',
  'scripts/**',
  'server/dev-server.test.ts',
  // The Express app, the adapter, the request guards and the route tree, each over a stand-in for the build.
  'server/app.test.ts',
  'server/http-adapter.test.ts',
  'server/request-guards.test.ts',
  'server/route-tree.test.ts',
  'server/production-react-router.test.ts',
  // Reads app/'s sources only (docs/decisions/063-no-import-cycles.md).
  'tests/integration/import-cycles.test.ts',
  // Starts its own server on its own embedded database, whatever the run's.
  'tests/integration/first-start.test.ts',
  // Read the build and the sources only (decision 064).
  'tests/integration/browser-bundles.test.ts',
  'tests/integration/us-spelling.test.ts',
  'tests/integration/comment-paths.test.ts',
  'tests/integration/one-outbox.test.ts',
  // Lints planted files with Biome and loads the models in a child process: no database of the run's.
  'tests/integration/import-rules.test.ts',
]

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'server/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, ...(process.env.DATABASE_FREE_TESTS === 'skip' ? DATABASE_FREE : [])],
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
  },
})
