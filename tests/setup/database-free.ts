import { importGraph, loadedBy } from './import-graph'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `databaseFreeFiles()`, worked out once per run in vitest.config.ts. */
    databaseFreeFiles: string[]
  }
}

/**
 * Test files that touch no database of the run's, besides those whose imports never reach one (below): the scripts
 * and the dev server run on embedded databases of their own, and some files read sources or start servers over a
 * stand-in. CI runs the suite once per database side by side; database-free files need only one of the two passes, so
 * the PGlite pass (the longer one) sets DATABASE_FREE_TESTS=skip (.ci/run, decision 025). The setup opens no database
 * for them (tests/setup/test-env.ts): one that calls `db()` fails with "The database is not open yet". Each entry is a
 * folder (`/**`) or a file.
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

/** The modules through which a test file reaches the run's database. */
const DATABASE_MODULES = ['app/utils/db.server.ts', 'tests/helpers/test-database.ts']
const TEST_FILE = /\.test\.tsx?$/

function isListed(relativePath: string) {
  return DATABASE_FREE.some((entry) =>
    entry.endsWith('/**') ? relativePath.startsWith(entry.slice(0, -2)) : relativePath === entry,
  )
}

/**
 * The test files (paths from the repository's root, with `/`) that touch no database: those listed above, and every
 * other whose imports, followed all the way, never load a module of DATABASE_MODULES (a pure core's test, a
 * component's, a schema's). Those need neither a copy of the template (about 0.7 s of processor time on PGlite) nor a
 * run on both databases.
 */
export function databaseFreeFiles(): string[] {
  const graph = importGraph(['app', 'scripts', 'server', 'tests/helpers', 'tests/setup', 'tests/integration'], {
    tests: true,
  })
  return [...graph.keys()]
    .filter((file) => TEST_FILE.test(file))
    .filter((file) => {
      if (isListed(file)) return true
      const loaded = loadedBy(graph, file)
      return !DATABASE_MODULES.some((module) => loaded.has(module))
    })
    .sort()
}
