import { importGraph, loadedBy } from './import-graph'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `testFiles().databaseFree`, worked out once per run in vitest.config.ts. */
    databaseFreeFiles: string[]
  }
}

/**
 * Test files that reach the database module but use no database of the run's: the first start runs a server on an
 * embedded database of its own, whatever the run uses, and so does `npm run db:migrate` on a data folder of its own.
 * Every other database-free file is found by its imports (below).
 */
const DATABASE_FREE = ['tests/integration/first-start.test.ts', 'tests/integration/db-migrate-command.test.ts']

/** The modules through which a test file reaches the run's database. */
const DATABASE_MODULES = ['app/utils/db.server.ts', 'tests/helpers/test-database.ts']
const TEST_FILE = /\.test\.tsx?$/

/**
 * The run's test files (paths from the repository's root, with `/`), and of them those that touch no database: those
 * listed above, and every other whose imports, followed all the way, never load a module of DATABASE_MODULES (a pure
 * core's test, a component's, a schema's, a script's on its own embedded database, a house test that reads sources).
 * CI runs the suite once per database side by side; these need only one of the two passes, so the PGlite pass sets
 * DATABASE_FREE_TESTS=skip (.ci/run, decision 025), and the set-up opens no database for them (tests/setup/test-env.ts):
 * one that calls `db()` fails with "The database is not open yet". That saves a copy of the template each (about 0.7 s
 * of processor time on PGlite). The others are shared between the passes (tests/setup/ci-databases.ts).
 */
export function testFiles(): { all: string[]; databaseFree: string[] } {
  const graph = importGraph(['app', 'scripts', 'server', 'tests/helpers', 'tests/setup', 'tests/integration'], {
    tests: true,
  })
  const all = [...graph.keys()].filter((file) => TEST_FILE.test(file)).sort()
  const databaseFree = all.filter((file) => {
    if (DATABASE_FREE.includes(file)) return true
    const loaded = loadedBy(graph, file)
    return !DATABASE_MODULES.some((module) => loaded.has(module))
  })
  return { all, databaseFree }
}
