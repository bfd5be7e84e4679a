// The demo as a server's first start seeds it, made once per end-to-end run (global-setup.ts) and copied for each
// server a spec starts of its own: a copy takes a fraction of a second, where each such server used to migrate an
// empty database and seed it (decision 025). The data folder (the embedded database, the demo's photos) is copied;
// with DATABASE_URL the database is a new one made from a template database.
import fs from 'node:fs'
import { createScratchDatabase, dropDatabase } from '../../scripts/lib/app-server'

/** Where the global setup left the seeded demo; the workers inherit it. */
const SEEDED_ENV = 'E2E_SEEDED_DEMO'

export type SeededDemo = { dataDir: string; database?: string }

export function announceSeededDemo(seeded: SeededDemo) {
  process.env[SEEDED_ENV] = JSON.stringify(seeded)
}

/**
 * Copies the seeded demo into `dataDir`, and with `adminUrl` into a new database on that server: the server started
 * on them finds its migrations applied and the demo there. `drop` removes the database (the caller removes the folder).
 */
export async function copySeededDemo(dataDir: string, adminUrl: string | undefined, prefix: string) {
  const announced = process.env[SEEDED_ENV]
  if (!announced) throw new Error('There is no seeded demo to copy: the end-to-end global setup makes it.')
  const seeded = JSON.parse(announced) as SeededDemo
  fs.cpSync(seeded.dataDir, dataDir, { recursive: true })
  if (!adminUrl) return { databaseUrl: undefined, drop: async () => {} }
  if (!seeded.database) throw new Error('The seeded demo has no PostgreSQL database: was DATABASE_URL set later?')
  const database = await createScratchDatabase(adminUrl, prefix, seeded.database)
  return { databaseUrl: database.url, drop: () => dropDatabase(adminUrl, database.name) }
}
