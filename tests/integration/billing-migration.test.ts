// Migrations 0012 and 0013 (issue #21) on a database of yesterday: each customer's hand-typed balance becomes a sent
// "Opening balance" invoice, numbered 1, 2, … per company in the order the customers were added, and then the
// column goes. Nothing is lost: the balance the app now sums from invoices and payments is the number that was
// typed, for every customer — owing, settled or in credit. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invoiceStatus } from '~/billing/invoice-status'
import { balanceCentsOf } from '~/models/balance.server'
import { creditsByCustomer } from '~/models/customer-credit.server'
import { localDateAt } from '~/schedule/local-date'
import { type DatabaseHandle, migrateDatabase, queryRows } from '~/utils/db.server'
import { databaseMigratedTo } from '../helpers/migrations'

const BEFORE = '0011_drop_job_photo_columns'

const COMPANIES = [
  { id: '0c000000-0000-4000-8000-00000000000a', name: 'Harbor Pools', timezone: 'America/New_York' },
  { id: '0c000000-0000-4000-8000-00000000000b', name: 'Gulf Pools', timezone: 'America/Los_Angeles' },
  // Every balance zero: no invoice, and its numbering still starts at 1.
  { id: '0c000000-0000-4000-8000-00000000000c', name: 'Quiet Pools', timezone: 'America/Phoenix' },
] as const

type OldCustomer = {
  id: string
  company: 0 | 1 | 2
  name: string
  /** The hand-typed balance in cents: positive owed, negative in the customer's favor. */
  balance: number
  addedOn: string
  /** The opening-balance invoice's number it should get; null: no invoice. */
  number: number | null
}

const oldCustomer = (
  id: string,
  company: OldCustomer['company'],
  name: string,
  balance: number,
  addedOn: string,
  number: number | null,
): OldCustomer => ({ id: `0d000000-0000-4000-8000-0000000000${id}`, company, name, balance, addedOn, number })

/**
 * Yesterday's customers, inserted in this order, and the invoice number each should get: by the day they were
 * added, then by id — never by name or insertion order (names and ids run against the days on purpose) — counting
 * only non-zero balances.
 */
const CUSTOMERS: OldCustomer[] = [
  oldCustomer('01', 0, 'Di Owing', 9999, '2025-01-04', 3),
  oldCustomer('05', 0, 'Zoe Owing', 12550, '2025-01-01', 1),
  oldCustomer('04', 0, 'Ben Settled', 0, '2025-01-02', null),
  oldCustomer('03', 0, 'Yan Credit', -2500, '2025-01-03', 2),
  // Added at the same moment as Di: the id breaks the tie (Abe comes first by name, not by id).
  oldCustomer('02', 0, 'Abe Same Day', 100, '2025-01-04', 4),
  oldCustomer('11', 1, 'Ivy Large', 1234567, '2024-06-03', 3),
  oldCustomer('13', 1, 'Wes Owing', 30000, '2024-06-01', 1),
  oldCustomer('12', 1, 'Gus Credit', -100, '2024-06-02', 2),
  oldCustomer('14', 1, 'Hal Settled', 0, '2024-06-04', null),
  oldCustomer('21', 2, 'Zed Settled', 0, '2024-01-01', null),
]

/** Each company's next invoice number after the migration: one past its last opening balance. */
const NEXT_NUMBER = [5, 4, 1]

type InvoiceRow = {
  id: string
  company_id: string
  customer_id: string
  number: number
  state: string
  period_start: string | null
  issued_on: string | null
  due_on: string | null
  subtotal_cents: number
  tax_cents: number
  total_cents: number
  credit_applied_cents: number
  paid_cents: number
  sent: boolean
}

type LineRow = {
  invoice_id: string
  position: number
  kind: string
  description: string
  quantity: string
  unit_cents: number
  amount_cents: number
  location_id: string | null
  plan_id: string | null
}

describe('migrations 0012–0013: hand-typed balances become opening-balance invoices', () => {
  let database: { handle: DatabaseHandle; drop: () => Promise<void> }
  let startedAt: Date
  let finishedAt: Date
  let invoiceRows: InvoiceRow[]
  let lineRows: LineRow[]

  beforeAll(async () => {
    database = await databaseMigratedTo(BEFORE)
    const { db } = database.handle
    for (const company of COMPANIES) {
      await db.execute(
        sql`insert into companies (id, name, timezone) values (${company.id}, ${company.name}, ${company.timezone})`,
      )
    }
    for (const customer of CUSTOMERS) {
      await db.execute(sql`insert into customers (id, company_id, customer_name, balance_due, created_at)
        values (${customer.id}, ${COMPANIES[customer.company].id}, ${customer.name}, ${customer.balance},
          ${`${customer.addedOn}T15:00:00Z`})`)
    }
    startedAt = new Date()
    await migrateDatabase(database.handle)
    finishedAt = new Date()
    invoiceRows = await queryRows<InvoiceRow>(
      sql`select id, company_id, customer_id, number, state, period_start::text, issued_on::text, due_on::text,
            subtotal_cents, tax_cents, total_cents, credit_applied_cents, paid_cents, sent_at is not null as sent
          from invoices`,
      db,
    )
    lineRows = await queryRows<LineRow>(
      sql`select invoice_id, position, kind, description, quantity::text, unit_cents, amount_cents, location_id,
            plan_id from invoice_lines`,
      db,
    )
  })

  afterAll(async () => {
    await database?.drop()
  })

  it('gives one invoice to each customer with a non-zero balance, and none to the others', () => {
    expect(invoiceRows).toHaveLength(CUSTOMERS.filter((c) => c.balance !== 0).length)
    for (const customer of CUSTOMERS) {
      const theirs = invoiceRows.filter((row) => row.customer_id === customer.id)
      expect(theirs, customer.name).toHaveLength(customer.balance === 0 ? 0 : 1)
    }
  })

  it('numbers them 1…n per company in the order the customers were added', () => {
    for (const customer of CUSTOMERS) {
      const invoice = invoiceRows.find((row) => row.customer_id === customer.id)
      expect(invoice?.number ?? null, customer.name).toBe(customer.number)
      if (invoice) expect(invoice.company_id, customer.name).toBe(COMPANIES[customer.company].id)
    }
  })

  it('writes each as a sent invoice of the balance, issued and due on the company’s today, with no period', () => {
    for (const customer of CUSTOMERS.filter((c) => c.balance !== 0)) {
      const invoice = invoiceRows.find((row) => row.customer_id === customer.id)
      const timezone = COMPANIES[customer.company].timezone
      expect(invoice, customer.name).toMatchObject({
        state: 'sent',
        period_start: null,
        subtotal_cents: customer.balance,
        tax_cents: 0,
        total_cents: customer.balance,
        credit_applied_cents: 0,
        paid_cents: 0,
        sent: true,
      })
      // The company's calendar day when the migration ran (either side of a midnight it may have straddled).
      expect([localDateAt(startedAt, timezone), localDateAt(finishedAt, timezone)], customer.name).toContain(
        invoice?.issued_on,
      )
      expect(invoice?.due_on, customer.name).toBe(invoice?.issued_on)
    }
  })

  it('gives each invoice a single "Opening balance" line of the whole balance', () => {
    expect(lineRows).toHaveLength(invoiceRows.length)
    for (const customer of CUSTOMERS.filter((c) => c.balance !== 0)) {
      const invoice = invoiceRows.find((row) => row.customer_id === customer.id)
      expect(
        lineRows.filter((line) => line.invoice_id === invoice?.id),
        customer.name,
      ).toEqual([
        {
          invoice_id: invoice?.id,
          position: 1,
          kind: 'opening-balance',
          description: 'Opening balance',
          quantity: '1.00',
          unit_cents: customer.balance,
          amount_cents: customer.balance,
          location_id: null,
          plan_id: null,
        },
      ])
    }
  })

  it('moves each company’s next invoice number past its opening balances', async () => {
    const rows = await queryRows<{ id: string; next: number }>(
      sql`select id, next_invoice_number as next from companies`,
      database.handle.db,
    )
    expect(COMPANIES.map((company) => rows.find((row) => row.id === company.id)?.next)).toEqual(NEXT_NUMBER)
  })

  it('loses nothing: every customer’s balance, now invoices minus payments, is the one that was typed', async () => {
    const rows = await queryRows<{ id: string; balance: number }>(
      sql`select c.id, ${balanceCentsOf(sql`c.company_id`, sql`c.id`)} as balance from customers c`,
      database.handle.db,
    )
    expect(rows).toHaveLength(CUSTOMERS.length)
    for (const customer of CUSTOMERS) {
      expect(Number(rows.find((row) => row.id === customer.id)?.balance), customer.name).toBe(customer.balance)
    }
  })

  it('makes a balance in the customer’s favor a credit for their next invoice, and an owed one unpaid', async () => {
    const credits = new Map<string, number>()
    for (const company of COMPANIES) {
      for (const [id, credit] of await creditsByCustomer(database.handle.db, company.id)) credits.set(id, credit)
    }
    expect(Object.fromEntries(credits)).toEqual({
      '0d000000-0000-4000-8000-000000000003': 2500, // Yan Credit
      '0d000000-0000-4000-8000-000000000012': 100, // Gus Credit
    })
    for (const invoice of invoiceRows) {
      const money = {
        state: 'sent' as const,
        totalCents: invoice.total_cents,
        paidCents: invoice.paid_cents,
        creditAppliedCents: invoice.credit_applied_cents,
        dueOn: invoice.due_on,
      }
      const today = invoice.issued_on ?? ''
      expect(invoiceStatus(money, today)).toBe(invoice.total_cents > 0 ? 'Sent' : 'Paid')
    }
  })

  it('drops the hand-typed column', async () => {
    const rows = await queryRows<{ column_name: string }>(
      sql`select column_name from information_schema.columns
          where table_schema = 'public' and table_name = 'customers' and column_name = 'balance_due'`,
      database.handle.db,
    )
    expect(rows).toEqual([])
  })
})
