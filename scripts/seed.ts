// `npm run db:seed`: apply migrations and seed the demo data into the configured database.
import path from 'node:path'
import { seedDemoData } from '~/demo/seed.server'
import { migrateDatabase, openDatabase } from '~/utils/db.server'
import { env } from '~/utils/env.server'

const config = env()
const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: path.join(config.DATA_DIR, 'db') })
try {
  await migrateDatabase(handle)
  const seeded = await seedDemoData(handle.db)
  console.log(seeded ? 'Demo data seeded.' : 'Demo data already present: nothing to do.')
} finally {
  await handle.close()
}
