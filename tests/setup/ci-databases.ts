import fs from 'node:fs'
import path from 'node:path'
import { repositoryRoot } from '../helpers/source-text'

/** Where CI runs a test file that uses a database: on both passes, or on the pass of one database. */
export type CiDatabase = 'both' | 'pglite' | 'postgres'

/**
 * Files whose subject is a database, on the database (or both) they are about: migrations of data and the
 * whole-database copy run on both kinds (the copy crosses kinds on the PostgreSQL pass); the server's fault drills
 * have parts for each; a lost connection and a killed mid-send outbox exist only with PostgreSQL; the embedded
 * database's worker thread and its stand-in for autovacuum are PGlite's. And one file placed where it costs least.
 */
const PINNED: Record<string, CiDatabase> = {
  'tests/integration/migrations.test.ts': 'both',
  'tests/integration/database-copy.test.ts': 'both',
  'tests/integration/server-faults.test.ts': 'both',
  'tests/integration/database-reconnect.test.ts': 'postgres',
  'tests/integration/outbox-crash.test.ts': 'postgres',
  'app/utils/pglite-worker.server.test.ts': 'pglite',
  'app/utils/table-statistics.server.test.ts': 'pglite',
  // The demo's seeding at chosen clock times, ten seedings: 117 s on PGlite's pass against 52 on PostgreSQL's (session
  // 46). Every PGlite pass still seeds the demo into PGlite, in the set-up of both kinds of tests.
  'app/demo/seed.server.test.ts': 'postgres',
  // Every route as ten personas, about 3,000 calls: 55 s of processor time on PGlite against 35 on PostgreSQL,
  // measured alone (session 47).
  'tests/integration/permission-matrix.test.ts': 'postgres',
}
/** A data migration's own test (the rows of an older schema carried over): both kinds. */
const MIGRATION_TEST = /-migration\.test\.ts$/
/**
 * A file that does things at once — copies of a request sent together, two offices at the same record, a webhook
 * delivered twice — tests what it means to only where they happen at once: PGlite answers one statement at a time.
 */
const AT_ONCE = /\bPromise\.all(Settled)?\(/
/** A file with parts that only PostgreSQL runs (`describe.runIf(database.kind === 'postgres')`, …). */
const POSTGRES_PARTS = /\.kind [!=]== 'postgres'/

/** FNV-1a: a stable number for a path, the same on every machine and run. */
function pathHash(file: string) {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(file)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return hash
}

/**
 * Which pass of CI runs a test file that uses the database (`file` from the repository's root, with `/`). CI runs
 * the suite once per database side by side on two cores (.ci/run, decision 025); running every such file on both
 * took the larger part of the run. The same SQL runs on both (PGlite is PostgreSQL), so each file runs on one, but
 * for those above; the rest are shared out by a hash of their path, so a new file lands on one side without moving
 * the others. Run locally, `npm test` runs every file on the database it is given.
 */
export function ciDatabaseOf(file: string): CiDatabase {
  const pinned = PINNED[file]
  if (pinned) return pinned
  if (MIGRATION_TEST.test(file)) return 'both'
  const source = fs.readFileSync(path.join(repositoryRoot, file), 'utf8')
  if (AT_ONCE.test(source) || POSTGRES_PARTS.test(source)) return 'postgres'
  return pathHash(file) % 2 === 0 ? 'pglite' : 'postgres'
}

/** The pinned files, for the test that keeps the list true. */
export const PINNED_FILES = Object.keys(PINNED)

/** Of `databaseFiles`, those CI leaves to the other pass when this pass runs `database`. */
export function filesForTheOtherDatabase(databaseFiles: string[], database: 'pglite' | 'postgres') {
  return databaseFiles.filter((file) => {
    const ci = ciDatabaseOf(file)
    return ci !== 'both' && ci !== database
  })
}
