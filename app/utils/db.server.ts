import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { type SQL, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from '~/db/schema'
import { PGLITE_OPTIONS } from '../../server/pglite-options.mjs'
import { lockDataFolder } from './data-lock.server'
import { logger } from './logger.server'
import { type EmbeddedClient, openPgliteWorker } from './pglite-worker.server'
import { nameStatements } from './prepared-statements.server'

/** The one database type the app codes against: PGlite and node-postgres share it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>

export type DatabaseHandle =
  | { kind: 'pglite'; db: Database; client: EmbeddedClient; close: () => Promise<void> }
  | { kind: 'postgres'; db: Database; client: pg.Pool; close: () => Promise<void> }

/** The project root (the folder holding package.json), found from this file wherever it was bundled to. */
export function projectRoot() {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
  return dir
}

export const MIGRATIONS_DIR = path.join(projectRoot(), 'drizzle')

/**
 * Opens PostgreSQL when a URL is given, else PGlite in `dataDir` (or in memory without one; `loadDataDir` starts it
 * from a `dumpDataDir` copy). `worker`: PGlite runs in a worker thread, off the thread that renders (the server's
 * database, decision 068); else in this thread, as tests and scripts open it.
 */
export async function openDatabase(options: {
  databaseUrl?: string
  dataDir?: string
  loadDataDir?: Blob
  worker?: boolean
  /** With `worker`: what to do if the worker stops while the database is open (the server exits, to be restarted). */
  onWorkerStop?: (error: Error) => void
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A request waits at most this long for a connection when the server does not answer (then it gets a 503).
    // The pages that ask for it send their statements as named prepared statements (decision 073).
    const pool = nameStatements(
      new pg.Pool({ connectionString: options.databaseUrl, max: 10, connectionTimeoutMillis: 5_000 }),
    )
    // A connection the server drops (a restart, a failover) emits 'error'; with no listener that would end the
    // process. pg-pool listens on idle connections only and drops its listener while one is checked out (say, for
    // a whole Drizzle transaction), so every connection gets its own listener for its whole life. Whatever query
    // was running fails on its own and is answered 503; the pool discards the connection and opens new ones.
    pool.on('connect', (client) => {
      // An expected event, not a bug: the reason without a stack trace.
      client.on('error', (error: Error & { code?: string }) =>
        logger.warn({ code: error.code, reason: error.message }, 'database connection lost'),
      )
    })
    // pg-pool re-emits an idle connection's error on the pool (already logged above); unheard, it too would crash.
    pool.on('error', () => {})
    const db = drizzlePg(pool, { schema }) as unknown as Database
    return { kind: 'postgres', db, client: pool, close: () => pool.end() }
  }
  let client: EmbeddedClient
  let unlock = () => {}
  if (options.dataDir) unlock = lockDataFolder(options.dataDir)
  try {
    if (options.worker && options.loadDataDir) throw new Error('A worker opens a data folder, not a dump')
    client = options.worker
      ? await openPgliteWorker(
          path.join(projectRoot(), 'server', 'pglite-worker.mjs'),
          options.dataDir,
          options.onWorkerStop,
        )
      : await PGlite.create({ ...PGLITE_OPTIONS, dataDir: options.dataDir, loadDataDir: options.loadDataDir })
  } catch (error) {
    unlock()
    throw error
  }
  const pglite = client
  // Drizzle's driver calls only `query` and `transaction` (and the transaction's `query`): what both clients have.
  const db = drizzlePglite(pglite as PGlite, { schema }) as unknown as Database
  return {
    kind: 'pglite',
    db,
    client: pglite,
    close: async () => {
      await pglite.close()
      unlock()
    },
  }
}

/** Applies the committed SQL migrations (or a test's copy of some of them); already-applied ones are skipped. */
export async function migrateDatabase(handle: DatabaseHandle, migrationsFolder = MIGRATIONS_DIR) {
  const config = { migrationsFolder }
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, config)
    return
  }
  // Several app instances may start at once: one migrates, the others wait for it.
  const client = await handle.client.connect()
  try {
    await client.query('select pg_advisory_lock(727274)')
    await migratePg(drizzlePg(client, { schema }), config)
  } finally {
    // A broken connection cannot unlock, but Postgres drops its session's advisory locks when it closes.
    await client.query('select pg_advisory_unlock(727274)').catch(() => {})
    client.release()
  }
}

declare global {
  var __poolBudDatabase: DatabaseHandle | undefined
}

/** Makes `handle` the database every model uses (start-up and tests call this). */
export function installDatabase(handle: DatabaseHandle | undefined) {
  globalThis.__poolBudDatabase = handle
}

export function currentDatabaseHandle() {
  return globalThis.__poolBudDatabase
}

/** The app's database. Start-up (or a test's setup) opens it before any request is served. */
export function db(): Database {
  const handle = globalThis.__poolBudDatabase
  if (!handle) throw new Error('The database is not open yet: call startApp() (or installDatabase in tests) first.')
  return handle.db
}

/** Rows of a raw SQL query (both drivers return `{ rows }`; Drizzle's shared type cannot say so). */
export async function queryRows<T>(query: SQL, database: Pick<Database, 'execute'> = db()): Promise<T[]> {
  const result = (await database.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

/** Cheap liveness check used by the health route. */
export async function pingDatabase() {
  await db().execute(sql`select 1`)
}

export type RecordedQuery = { sql: string; params: unknown[] }

/** The run whose statements `recordQueries` is recording, followed through its awaits and callbacks. */
const recording = new AsyncLocalStorage<RecordedQuery[]>()

/**
 * Runs `run` and returns what it returned with every statement it sent through `handle`. The query-count test and
 * `bench/explain.ts` use it to see what a page runs; it wraps the driver's own `query`, so nothing Drizzle sends can
 * slip past, and it counts only statements sent from `run`'s own async context: a timer of an earlier test in the
 * same worker (the outbox worker, say) querying meanwhile is not the page's.
 */
export async function recordQueries<T>(handle: DatabaseHandle, run: () => Promise<T>) {
  const recorded: RecordedQuery[] = []
  const client = handle.client as unknown as { query: (...args: unknown[]) => unknown }
  const original = client.query
  client.query = function recordingQuery(this: unknown, ...args: unknown[]) {
    const into = recording.getStore()
    const [first, second] = args
    if (into !== recorded) return original.apply(this, args)
    if (typeof first === 'string') recorded.push({ sql: first, params: Array.isArray(second) ? second : [] })
    else if (first && typeof first === 'object' && 'text' in first) {
      const config = first as { text: string; values?: unknown[] }
      // node-postgres takes the values in the config or (as Drizzle passes them) as the second argument.
      recorded.push({ sql: config.text, params: config.values ?? (Array.isArray(second) ? second : []) })
    }
    return original.apply(this, args)
  }
  try {
    const value = await recording.run(recorded, run)
    return { value, recorded }
  } finally {
    client.query = original
  }
}
