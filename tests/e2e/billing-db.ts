// A server of the spec's own whose database the spec writes and reads (the shared e2e server holds its embedded
// database alone: PGlite has one process per folder): a copy of the seeded demo (seeded-copy.ts) that `prepare`
// writes before the server starts on it; with DATABASE_URL a PostgreSQL database copied from the seeded one. Also the
// owner's money figures as the test counts them: its own SQL over the invoices and payments (docs/billing.md;
// docs/product.md "Easy to get wrong").
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { startServer } from '../../scripts/lib/app-server'
import { freePort } from '../../scripts/lib/free-port'
import { PGLITE_OPTIONS } from '../../server/pglite-options.mjs'
import { copySeededDemo } from './seeded-copy'

const ROOT = path.resolve(import.meta.dirname, '../..')

export type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>

/** Starts a seeded server whose database `prepare` has written (and read) first; `prepare`'s answer comes back. */
export async function serverWithDatabase<T>(prepare: (query: Sql) => Promise<T>) {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-billing-'))
  const dataDir = path.join(runDir, 'data')
  const copy = await copySeededDemo(dataDir, process.env.DATABASE_URL, 'pool_bud_billing')
  let value: T
  try {
    if (copy.databaseUrl) {
      const client = new pg.Client({ connectionString: copy.databaseUrl })
      await client.connect()
      try {
        value = await prepare(async (text, params) => (await client.query(text, params)).rows)
      } finally {
        await client.end()
      }
    } else {
      const db = await PGlite.create({ ...PGLITE_OPTIONS, dataDir: path.join(dataDir, 'db') })
      try {
        value = await prepare(async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows)
      } finally {
        await db.close()
      }
    }
  } catch (error) {
    await copy.drop()
    fs.rmSync(runDir, { recursive: true, force: true })
    throw error
  }
  const server = await startServer(ROOT, {
    port: String(await freePort()),
    databaseUrl: copy.databaseUrl,
    dataDir,
    logPath: path.join(runDir, 'server.log'),
    env: { SEED_DEMO: '1' },
  })
  return {
    origin: server.origin,
    value,
    stop: async () => {
      await server.stop()
      await copy.drop()
      fs.rmSync(runDir, { recursive: true, force: true })
    },
  }
}

/**
 * A month of money for `companyName`, dated by the database's clock in the company's timezone: an invoice issued
 * today and partly paid, one issued on the 1st and past due, a void one and a draft (neither counts), a payment
 * to no invoice, and one partly refunded.
 */
export async function writeMonthOfMoney(query: Sql, companyName: string) {
  const [company] = await query(
    `select id, next_invoice_number as next, (now() at time zone timezone)::date::text as today,
       date_trunc('month', (now() at time zone timezone))::date::text as month_start
     from companies where name = $1`,
    [companyName],
  )
  if (!company) throw new Error(`no company ${companyName}`)
  const people = await query(
    `select id from customers where company_id = $1 and status = 'active' order by customer_name limit 3`,
    [company.id],
  )
  const [a, b, c] = people.map((row) => row.id)
  const n = Number(company.next)
  const today = company.today as string
  const invoice = async (fields: {
    customer: unknown
    number: number
    state: 'draft' | 'sent' | 'void'
    issuedOn: string | null
    dueOn: string | null
    total: number
    paid?: number
  }) => {
    const [row] = await query(
      `insert into invoices (company_id, customer_id, number, state, issued_on, due_on, subtotal_cents, total_cents,
         paid_cents, sent_at, voided_at)
       values ($1, $2, $3, $4, $5, $6, $7, $7, $8, case when $4 = 'draft' then null else now() end,
         case when $4 = 'void' then now() end)
       returning id`,
      [
        company.id,
        fields.customer,
        fields.number,
        fields.state,
        fields.issuedOn,
        fields.dueOn,
        fields.total,
        fields.paid ?? 0,
      ],
    )
    return row?.id
  }
  const yesterday = (await query(`select ($1::date - 1)::text as d`, [today]))[0]?.d as string
  const paidToday = await invoice({
    customer: a,
    number: n,
    state: 'sent',
    issuedOn: today,
    dueOn: today,
    total: 12345,
    paid: 5000,
  })
  await invoice({
    customer: b,
    number: n + 1,
    state: 'sent',
    issuedOn: company.month_start as string,
    dueOn: yesterday,
    total: 20000,
  })
  await invoice({ customer: c, number: n + 2, state: 'void', issuedOn: today, dueOn: today, total: 99999 })
  await invoice({ customer: c, number: n + 3, state: 'draft', issuedOn: null, dueOn: null, total: 7777 })
  await query(`update companies set next_invoice_number = $2 where id = $1`, [company.id, n + 4])
  const payment = (customer: unknown, invoiceId: unknown, amount: number, refunded: number, method: string) =>
    query(
      `with p as (insert into payments (company_id, customer_id, invoice_id, amount_cents, received_on, method)
         values ($1, $2, $3, $4, $6, $7) returning id)
       insert into refunds (company_id, customer_id, payment_id, amount_cents, refunded_total_cents)
       select $1, $2, p.id, $5::integer, $5::integer from p where $5::integer > 0`,
      [company.id, customer, invoiceId, amount, refunded, today, method],
    )
  await payment(a, paidToday, 5000, 0, 'check')
  await payment(c, null, 1500, 0, 'cash')
  await payment(b, null, 3000, 1000, 'card')
}

/** The figures as the test counts them, in cents: its own SQL, in the company's month. */
export async function moneySums(query: Sql, companyName: string) {
  const [row] = await query(
    `with c as (select id, (now() at time zone timezone)::date as today from companies where name = $1)
     select
       (select coalesce(sum(total_cents), 0) from invoices i, c where i.company_id = c.id and i.state = 'sent'
          and date_trunc('month', i.issued_on) = date_trunc('month', c.today))::text as invoiced,
       (select coalesce(sum(amount_cents - (select coalesce(sum(r.amount_cents), 0) from refunds r
          where r.payment_id = p.id)), 0) from payments p, c where p.company_id = c.id
          and date_trunc('month', p.received_on) = date_trunc('month', c.today))::text as collected,
       (select coalesce(sum(total_cents - paid_cents - credit_applied_cents), 0) from invoices i, c
          where i.company_id = c.id and i.state = 'sent' and total_cents > paid_cents + credit_applied_cents)::text
          as outstanding,
       (select coalesce(sum(total_cents - paid_cents - credit_applied_cents), 0) from invoices i, c
          where i.company_id = c.id and i.state = 'sent' and total_cents > paid_cents + credit_applied_cents
          and i.due_on < c.today)::text as past_due`,
    [companyName],
  )
  return {
    invoiced: Number(row?.invoiced),
    collected: Number(row?.collected),
    outstanding: Number(row?.outstanding),
    pastDue: Number(row?.past_due),
  }
}
