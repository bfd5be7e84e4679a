// The demo database as it was at migration 0006 (a frozen fixture of its rows plus the awkward addresses and phone
// numbers real data has), and the row counts a migration must keep: shared by the migration's test on the run's
// database and the test of `npm run db:migrate` on an embedded database on disk.
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type DatabaseHandle, projectRoot, queryRows } from '~/utils/db.server'

const FIXTURE = path.join(projectRoot(), 'tests/fixtures/migrations/demo-0006.sql')
/** The last migration before customers had service locations. */
export const BEFORE = '0006_outbox_and_idempotency'

/** Runs the fixture's statements (plain INSERTs) on either kind of database. */
export async function loadFixture(handle: DatabaseHandle) {
  const text = fs.readFileSync(FIXTURE, 'utf8')
  if (handle.kind === 'pglite') await handle.client.exec(text)
  else await handle.client.query(text)
}

const COUNTED = {
  companies: sql`select count(*)::int as n from companies`,
  users: sql`select count(*)::int as n from "user"`,
  profiles: sql`select count(*)::int as n from profiles`,
  customers: sql`select count(*)::int as n from customers`,
  readings: sql`select count(*)::int as n from chem_logs`,
  invites: sql`select count(*)::int as n from invitations`,
  inventory: sql`select count(*)::int as n from inventory_items`,
}

/** Photos were two columns of visits until 0009 copied them into visit_photos (and 0010 dropped the columns). */
const PHOTOS_BEFORE_0009 = sql`select (count(before_url) + count(after_url))::int as n from jobs`
const PHOTOS_SINCE_0009 = sql`select count(*)::int as n from visit_photos`

/** Rows of each kind the demo holds, under whichever table names the database's migrations have reached. */
export async function counts(handle: DatabaseHandle) {
  const result: Record<string, number> = {}
  for (const [name, query] of Object.entries(COUNTED)) {
    result[name] = (await queryRows<{ n: number }>(query, handle.db))[0]?.n ?? -1
  }
  // The visits' table was `visits` until 0041 (docs/decisions/069-one-word-visit-and-us-spelling.md).
  const [visitsTable] = await queryRows<{ exists: boolean }>(
    sql`select to_regclass('visits') is not null as exists`,
    handle.db,
  )
  result.visits =
    (
      await queryRows<{ n: number }>(
        visitsTable?.exists ? sql`select count(*)::int as n from visits` : sql`select count(*)::int as n from jobs`,
        handle.db,
      )
    )[0]?.n ?? -1
  const [table] = await queryRows<{ exists: boolean }>(
    sql`select to_regclass('visit_photos') is not null as exists`,
    handle.db,
  )
  result.photos =
    (await queryRows<{ n: number }>(table?.exists ? PHOTOS_SINCE_0009 : PHOTOS_BEFORE_0009, handle.db))[0]?.n ?? -1
  return result
}
