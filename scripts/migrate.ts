// `npm run db:migrate`: apply the committed migrations to the configured database (DATABASE_URL, or the embedded
// one under DATA_DIR) and exit. The server does the same at start-up; this is for upgrading without starting it.
// Reads the two variables itself: migrating needs no AUTH_SECRET (env.server.ts asks for one with DATABASE_URL).
import path from 'node:path'
import { migrateDatabase, openDatabase } from '~/utils/db.server'

const databaseUrl = process.env.DATABASE_URL || undefined
const dataDir = path.join(process.env.DATA_DIR || './data', 'db')
const handle = await openDatabase({ databaseUrl, dataDir })
try {
  await migrateDatabase(handle)
  console.log(`Migrations applied to ${databaseUrl ? 'PostgreSQL' : `the embedded database in ${dataDir}`}.`)
} finally {
  await handle.close()
}
