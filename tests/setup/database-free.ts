/**
 * Test files that touch no database: the pure cores (Biome keeps them from importing models or the database), the
 * scripts, and the dev server (which runs on an embedded database of its own whatever the run uses). CI runs the
 * suite once per database side by side; these need only one of the two passes, so the PGlite pass (the longer one) sets
 * DATABASE_FREE_TESTS=skip (.ci/run, decision 025). The setup opens no database for them (tests/setup/test-env.ts):
 * one that calls `db()` fails with "The database is not open yet". Each entry is a folder (`/**`) or a file.
 */
export const DATABASE_FREE = [
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
  'tests/integration/no-module-mocks.test.ts',
  // Lints planted files with Biome and loads the models in a child process: no database of the run's.
  'tests/integration/import-rules.test.ts',
]

/** Whether the file at `relativePath` (from the repository's root, with `/`) is one of the above. */
export function isDatabaseFree(relativePath: string) {
  return DATABASE_FREE.some((entry) =>
    entry.endsWith('/**') ? relativePath.startsWith(entry.slice(0, -2)) : relativePath === entry,
  )
}
