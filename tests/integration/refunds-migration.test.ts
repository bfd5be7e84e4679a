// Migration 0028 (refunds are the only truth, docs/billing.md): payments.refunded_cents goes, and a payment refunded
// by more than its `refunds` rows say gets one opening refund for the difference. Yesterday's database has a payment
// refunded through rows only, one refunded before rows existed (the column alone), one with both in part, and one
// never refunded: every customer's balance, the month's credits and each payment's refunded sum are the same before
// and after, to the cent. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balanceCentsOf, refundedCentsOf } from '~/models/balance.server'
import { type DatabaseHandle, migrateDatabase, queryRows } from '~/utils/db.server'
import { databaseMigratedTo } from '../helpers/migrations'

const BEFORE = '0027_company_brand'
const COMPANY = '0c000000-0000-4000-8000-0000000000a1'
const id = (n: string) => `0d000000-0000-4000-8000-0000000000${n}`

/** payment id → [customer, amount, refunded_cents, refund rows' amounts] */
const PAYMENTS: Record<string, [string, number, number, number[]]> = {
  [id('11')]: [id('01'), 10_000, 3_000, [1_000, 2_000]], // rows only (kept in step with the column)
  [id('12')]: [id('01'), 5_000, 5_000, []], // refunded before rows existed: the column alone
  [id('13')]: [id('02'), 8_000, 6_500, [2_500]], // both, the column ahead of the rows
  [id('14')]: [id('03'), 4_200, 0, []], // never refunded
}

describe('migration 0028: refunds become their rows alone', () => {
  let database: { handle: DatabaseHandle; drop: () => Promise<void> }
  let before: Map<string, number>

  beforeAll(async () => {
    database = await databaseMigratedTo(BEFORE)
    const { db } = database.handle
    await db.execute(sql`insert into companies (id, name, timezone) values (${COMPANY}, 'Ledger Pools', 'UTC')`)
    for (const customer of [id('01'), id('02'), id('03')]) {
      await db.execute(sql`insert into customers (id, company_id, customer_name) values (${customer}, ${COMPANY},
        ${`Customer ${customer.slice(-2)}`})`)
      await db.execute(sql`insert into invoices (company_id, customer_id, number, state, issued_on, due_on,
        subtotal_cents, total_cents) values (${COMPANY}, ${customer}, ${Number(customer.slice(-2))}, 'sent',
        '2026-10-01', '2026-10-15', 20000, 20000)`)
    }
    for (const [payment, [customer, amount, refunded, rows]] of Object.entries(PAYMENTS)) {
      await db.execute(sql`insert into payments (id, company_id, customer_id, amount_cents, refunded_cents,
        received_on, method, stripe_payment_intent_id) values (${payment}, ${COMPANY}, ${customer}, ${amount},
        ${refunded}, '2026-10-05', 'card', ${`pi_${payment.slice(-2)}`})`)
      let total = 0
      for (const cents of rows) {
        total += cents
        await db.execute(sql`insert into refunds (company_id, customer_id, payment_id, amount_cents,
          refunded_total_cents) values (${COMPANY}, ${customer}, ${payment}, ${cents}, ${total})`)
      }
    }
    // The balance as the code before the migration summed it: invoices − (payments − refunded_cents).
    const rows = await queryRows<{ id: string; balance: string }>(
      sql`select c.id, (select coalesce(sum(total_cents), 0) from invoices i where i.customer_id = c.id
          and i.state = 'sent') - (select coalesce(sum(amount_cents - refunded_cents), 0) from payments p
          where p.customer_id = c.id) as balance from customers c where c.company_id = ${COMPANY}`,
      db,
    )
    before = new Map(rows.map((row) => [row.id, Number(row.balance)]))
    await migrateDatabase(database.handle)
  })

  afterAll(async () => {
    await database?.drop()
  })

  it('moves no balance', async () => {
    const rows = await queryRows<{ id: string; balance: number }>(
      sql`select c.id, ${balanceCentsOf(sql`c.company_id`, sql`c.id`)} as balance from customers c
          where c.company_id = ${COMPANY}`,
      database.handle.db,
    )
    expect(new Map(rows.map((row) => [row.id, Number(row.balance)]))).toEqual(before)
    expect(before.get(id('01'))).toBe(20_000 - (10_000 - 3_000) - (5_000 - 5_000))
  })

  it("keeps each payment's refunded sum, now from its rows, adding one opening refund where the rows fell short", async () => {
    const rows = await queryRows<{ id: string; refunded: number; count: number }>(
      sql`select p.id, ${refundedCentsOf(sql`p.id`)} as refunded,
          (select count(*)::int from refunds r where r.payment_id = p.id) as count from payments p`,
      database.handle.db,
    )
    const byId = new Map(rows.map((row) => [row.id, { refunded: Number(row.refunded), count: Number(row.count) }]))
    expect(byId.get(id('11'))).toEqual({ refunded: 3_000, count: 2 })
    expect(byId.get(id('12'))).toEqual({ refunded: 5_000, count: 1 })
    expect(byId.get(id('13'))).toEqual({ refunded: 6_500, count: 2 })
    expect(byId.get(id('14'))).toEqual({ refunded: 0, count: 0 })
  })

  it('drops the running total', async () => {
    const rows = await queryRows<{ column_name: string }>(
      sql`select column_name from information_schema.columns
          where table_schema = 'public' and table_name = 'payments' and column_name = 'refunded_cents'`,
      database.handle.db,
    )
    expect(rows).toEqual([])
  })
})
