// `npm run db:copy -- --from <place> --to <place>`: copies a whole database into an empty one (docs/scaling.md
// "Moving to PostgreSQL"). A place is a PostgreSQL URL or a data folder (the embedded database in its `db/`). Stop the
// server first: an embedded database is locked while its server runs, and a PostgreSQL source is read in one snapshot
// but changes made after it would not be copied. Photos and files stay in the data folder's `uploads/` (or the bucket).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { copyDatabase, DatabaseCopyError } from '~/utils/database-copy.server'
import { openDatabase } from '~/utils/db.server'

const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } } })
if (!values.from || !values.to) {
  console.error('Usage: npm run db:copy -- --from ./data --to postgres://user@host:5432/pool_bud')
  process.exit(2)
}

const isUrl = (place: string) => /^postgres(ql)?:\/\//.test(place)
const placeName = (place: string) => (isUrl(place) ? 'PostgreSQL' : `the embedded database in ${place}`)
const open = (place: string) =>
  openDatabase(isUrl(place) ? { databaseUrl: place } : { dataDir: path.join(place, 'db') })

const source = await open(values.from)
try {
  const target = await open(values.to)
  try {
    console.log(`Copying ${placeName(values.from)} into ${placeName(values.to)}…`)
    const copied = await copyDatabase(source, target, { log: (line) => console.log(`  ${line}`) })
    // The planner's statistics for the new rows, before the first request.
    if (target.kind === 'postgres') await target.db.execute(sql`analyze`)
    const rows = copied.reduce((sum, table) => sum + table.rows, 0)
    console.log(`Copied ${rows} rows in ${copied.length} tables.`)
    if (!isUrl(values.from) && fs.existsSync(path.join(values.from, 'auth-secret'))) {
      console.log(
        `Start the server with AUTH_SECRET set to the contents of ${path.join(values.from, 'auth-secret')} to keep everyone signed in, and keep DATA_DIR's uploads/ folder (photos).`,
      )
    }
  } finally {
    await target.close()
  }
} catch (error) {
  if (!(error instanceof DatabaseCopyError)) throw error
  console.error(error.message)
  process.exitCode = 1
} finally {
  await source.close()
}
