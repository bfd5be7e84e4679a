// A page of a long history, newest first, is read from its index and stops after the page: never every row of the
// history sorted (docs/performance.md). In PostgreSQL `order by … desc` means nulls first, and an index in another
// null order (drizzle-kit's default for `.desc()` is `desc nulls last`) cannot give it, even for a column that is
// never null. Each case makes a history a hundred times longer than its page, then reads the plan of the very
// statement the app sends for the page.
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { customers, inventoryItems, stockLocations } from '~/db/schema'
import { getCustomerMessages } from '~/models/customer-messages.server'
import { getPortal } from '~/models/portal.server'
import { listItemHistory } from '~/models/stock-lists.server'
import { currentDatabaseHandle, db, queryRows, recordQueries } from '~/utils/db.server'
import { findTestCustomer } from '../helpers/customers'
import { useDemoData } from '../helpers/test-database'

const ROWS = 3_000

let companyId: string
let customerId: string
let itemId: string

beforeAll(async () => {
  await useDemoData()
  const dana = await findTestCustomer('Dana Whitfield')
  const [customer] = await db()
    .select({ companyId: customers.companyId })
    .from(customers)
    .where(eq(customers.id, dana.id))
  companyId = customer?.companyId ?? ''
  customerId = dana.id
  const [item] = await db()
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
    .limit(1)
  const [location] = await db()
    .select({ id: stockLocations.id })
    .from(stockLocations)
    .where(eq(stockLocations.companyId, companyId))
    .limit(1)
  itemId = item?.id ?? ''
  await db().execute(sql`
    insert into stock_movements (company_id, item_id, location_id, kind, change, qty_after, created_at)
    select ${companyId}, ${itemId}, ${location?.id}, 'received', 1, 10, now() - g * interval '1 hour'
    from generate_series(1, ${ROWS}) g`)
  await db().execute(sql`
    insert into email_outbox (company_id, customer_id, "to", subject, html, text, status, created_at)
    select ${companyId}, ${customerId}, 'dana@example.com', 'Visit done', '<p>Done</p>', 'Done', 'sent',
      now() - g * interval '1 hour'
    from generate_series(1, ${ROWS}) g`)
  // A year of weekly visits, each with two readings, for Dana.
  await db().execute(sql`
    insert into visits (company_id, customer_id, location_id, scheduled_at, completed_at, customer_name, address)
    select v.company_id, v.customer_id, v.location_id, now() - g * interval '1 day', now() - g * interval '1 day',
      v.customer_name, v.address
    from (select * from visits where company_id = ${companyId} and customer_id = ${customerId} limit 1) v,
      generate_series(1, ${ROWS / 2}) g`)
  await db().execute(sql`
    insert into chem_logs (company_id, visit_id, ph, chlorine_ppm, alkalinity, taken_at)
    select company_id, id, 7.4, 2.5, 90, completed_at - r * interval '1 minute'
    from visits, generate_series(0, 1) r
    where company_id = ${companyId} and customer_id = ${customerId} and completed_at is not null`)
  await db().execute(sql`analyze`)
})

/** The plan of each statement `load` sends that reads `table`, with the values it was sent with. */
async function plansOf(table: string, load: () => Promise<unknown>) {
  const handle = currentDatabaseHandle()
  if (!handle) throw new Error('no database')
  const { recorded } = await recordQueries(handle, load)
  const reading = recorded.filter((query) => query.sql.includes(`from "${table}"`))
  expect(reading.length).toBeGreaterThan(0)
  const plans: string[] = []
  for (const query of reading) {
    // Both clients take (text, values) and answer { rows }; their shared type cannot say so.
    const client = handle.client as unknown as {
      query: (text: string, values: unknown[]) => Promise<{ rows: Array<Record<string, string>> }>
    }
    const explained = await client.query(`explain (analyze, costs off, timing off) ${query.sql}`, query.params)
    plans.push(explained.rows.map((row) => row['QUERY PLAN']).join('\n'))
  }
  return plans
}

/** Rows read from `table` by the plan's scans of it (`actual … rows=N` of each scan node naming it). */
function rowsReadFrom(plan: string, table: string) {
  const scans = plan.split('\n').filter((line) => new RegExp(`Scan.* on ${table}\\b`).test(line))
  return scans.reduce((sum, line) => sum + Number(/rows=([\d.]+)/.exec(line)?.[1] ?? 0), 0)
}

describe('a page of a long history, newest first', () => {
  it("reads an item's stock history from its index, without sorting the item's movements", async () => {
    const history = await listItemHistory({ companyId, itemId })
    expect(history.rows).toHaveLength(25)
    for (const plan of await plansOf('stock_movements', () => listItemHistory({ companyId, itemId, page: 2 }))) {
      expect(plan).not.toMatch(/Sort Key: .*seq/)
      expect(rowsReadFrom(plan, 'stock_movements')).toBeLessThan(100)
    }
  })

  it("reads a customer's messages from their index, without sorting all of them", async () => {
    const messages = await getCustomerMessages({ companyId, customerId })
    expect(messages.ok && messages.messages.rows.length).toBeGreaterThan(0)
    const plans = await plansOf('email_outbox', () => getCustomerMessages({ companyId, customerId, page: 2 }))
    const page = plans.find((plan) => !plan.includes('Aggregate')) ?? ''
    expect(page).not.toMatch(/Sort Key: .*created_at/)
    expect(rowsReadFrom(page, 'email_outbox')).toBeLessThan(100)
  })

  it("reads the portal's twelve newest readings from the customer's readings index", async () => {
    const portal = await getPortal({ companyId, customerId })
    expect(portal?.readings).toHaveLength(12)
    const plans = await plansOf('chem_logs', () => getPortal({ companyId, customerId }))
    const newest = plans.find((plan) => plan.includes('chem_logs_company_customer_taken_idx')) ?? plans.join('\n')
    expect(newest).not.toMatch(/Sort Key: .*taken_at/)
    expect(rowsReadFrom(newest, 'chem_logs')).toBeLessThanOrEqual(12)
    const counted = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from chem_logs where company_id = ${companyId} and customer_id = ${customerId}`,
    )
    expect(counted[0]?.n).toBeGreaterThan(ROWS)
  })
})
