// An invoice's status (docs/billing.md), case by case at its boundaries — due today is not yet past due, paid to the
// cent is paid, a credit that covers the total settles it — and then the same cases written to the database, where
// the invoice list's status filter and `outstandingSql` (its SQL twin) must agree with `invoiceStatus` on every one.
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, invoices } from '~/db/schema'
import { listInvoices, outstandingSql } from '~/models/invoice-list.server'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import {
  INVOICE_STATUSES,
  type InvoiceMoney,
  type InvoiceStatus,
  invoiceStatus,
  outstandingCents,
} from './invoice-status'

const TODAY = '2026-12-10'
const YESTERDAY = '2026-12-09'
const LATER = '2026-12-25'

type StatusCase = { name: string; invoice: InvoiceMoney; status: InvoiceStatus; outstanding: number }

const sent = (fields: Partial<InvoiceMoney>): InvoiceMoney => ({
  state: 'sent',
  totalCents: 10000,
  paidCents: 0,
  creditAppliedCents: 0,
  dueOn: LATER,
  ...fields,
})

const CASES: StatusCase[] = [
  {
    name: 'a draft is Draft, owing nothing yet',
    invoice: { state: 'draft', totalCents: 10000, paidCents: 0, creditAppliedCents: 0, dueOn: null },
    status: 'Draft',
    outstanding: 0,
  },
  {
    name: 'a draft with a due date behind it is still Draft',
    invoice: { state: 'draft', totalCents: 10000, paidCents: 0, creditAppliedCents: 0, dueOn: YESTERDAY },
    status: 'Draft',
    outstanding: 0,
  },
  {
    name: 'a void invoice is Void even when unpaid and past its date',
    invoice: { state: 'void', totalCents: 10000, paidCents: 0, creditAppliedCents: 0, dueOn: YESTERDAY },
    status: 'Void',
    outstanding: 0,
  },
  {
    name: 'a void invoice that had a payment is Void and owes nothing',
    invoice: { state: 'void', totalCents: 10000, paidCents: 4000, creditAppliedCents: 0, dueOn: LATER },
    status: 'Void',
    outstanding: 0,
  },
  { name: 'sent, unpaid, due later: Sent', invoice: sent({}), status: 'Sent', outstanding: 10000 },
  {
    name: 'sent, unpaid, due today: Sent (not past due yet)',
    invoice: sent({ dueOn: TODAY }),
    status: 'Sent',
    outstanding: 10000,
  },
  {
    name: 'sent, unpaid, due yesterday: Past due',
    invoice: sent({ dueOn: YESTERDAY }),
    status: 'Past due',
    outstanding: 10000,
  },
  {
    name: 'part paid, due later: Partially paid',
    invoice: sent({ paidCents: 4000 }),
    status: 'Partially paid',
    outstanding: 6000,
  },
  {
    name: 'part paid, due today: Partially paid',
    invoice: sent({ paidCents: 4000, dueOn: TODAY }),
    status: 'Partially paid',
    outstanding: 6000,
  },
  {
    name: 'part paid, due yesterday: Past due',
    invoice: sent({ paidCents: 4000, dueOn: YESTERDAY }),
    status: 'Past due',
    outstanding: 6000,
  },
  {
    name: 'one cent short, due yesterday: Past due',
    invoice: sent({ paidCents: 9999, dueOn: YESTERDAY }),
    status: 'Past due',
    outstanding: 1,
  },
  {
    name: 'paid to the cent after its due date: Paid',
    invoice: sent({ paidCents: 10000, dueOn: YESTERDAY }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    name: 'overpaid: Paid, owing nothing (the rest is credit)',
    invoice: sent({ paidCents: 12000 }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    name: 'a credit covering all of it: Paid',
    invoice: sent({ creditAppliedCents: 10000 }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    name: 'a credit covering all of it, past the due date: Paid',
    invoice: sent({ creditAppliedCents: 10000, dueOn: YESTERDAY }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    name: 'credit and a payment that together pay it exactly: Paid',
    invoice: sent({ creditAppliedCents: 3000, paidCents: 7000 }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    name: 'a credit covering part, due later: Partially paid',
    invoice: sent({ creditAppliedCents: 3000 }),
    status: 'Partially paid',
    outstanding: 7000,
  },
  {
    name: 'a credit covering part, due yesterday: Past due',
    invoice: sent({ creditAppliedCents: 3000, dueOn: YESTERDAY }),
    status: 'Past due',
    outstanding: 7000,
  },
  {
    name: 'a sent invoice of $0.00: Paid',
    invoice: sent({ totalCents: 0, dueOn: YESTERDAY }),
    status: 'Paid',
    outstanding: 0,
  },
  {
    // Migration 0012 turned a negative hand-typed balance into an opening-balance invoice below zero.
    name: 'an opening balance below zero (a credit): Paid, owing nothing',
    invoice: sent({ totalCents: -2500, dueOn: YESTERDAY }),
    status: 'Paid',
    outstanding: 0,
  },
]

describe('invoiceStatus', () => {
  it.each(CASES)('$name', ({ invoice, status, outstanding }) => {
    expect(invoiceStatus(invoice, TODAY)).toBe(status)
    expect(outstandingCents(invoice)).toBe(outstanding)
  })

  it('has a case for every status', () => {
    expect(new Set(CASES.map((c) => c.status))).toEqual(new Set(INVOICE_STATUSES))
  })
})

describe('the invoice list’s status filter and outstandingSql', () => {
  let companyId: string
  const idsByCase = new Map<string, string>()

  beforeAll(async () => {
    const [company] = await db().insert(companies).values({ name: 'Status Pools' }).returning({ id: companies.id })
    if (!company) throw new Error('no company')
    companyId = company.id
    const customer = await addTestCustomer(companyId, {
      customerName: 'Status Test',
      address: '1 Ledger St, Tampa, FL 33606',
    })
    const rows = await db()
      .insert(invoices)
      .values(
        CASES.map(({ invoice }, i) => ({
          companyId,
          customerId: customer.id,
          number: i + 1,
          state: invoice.state,
          // A sent or void invoice has its dates (a database check); a draft's due date, when a case gives one,
          // must not make it anything but a draft.
          issuedOn: invoice.dueOn === null ? null : '2026-11-25',
          dueOn: invoice.dueOn,
          subtotalCents: invoice.totalCents,
          totalCents: invoice.totalCents,
          paidCents: invoice.paidCents,
          creditAppliedCents: invoice.creditAppliedCents,
        })),
      )
      .returning({ id: invoices.id, number: invoices.number })
    for (const row of rows) idsByCase.set(CASES[row.number - 1]?.name ?? '', row.id)
  })

  it.each(INVOICE_STATUSES)('"%s" lists exactly the invoices of that status', async (status) => {
    const page = await listInvoices({ companyId, today: TODAY, status })
    const expected = CASES.filter((c) => c.status === status).map((c) => idsByCase.get(c.name))
    expect(page.invoices.map((i) => i.id).sort()).toEqual([...expected].sort())
    expect(page.total).toBe(expected.length)
    for (const invoice of page.invoices) expect(invoice.status).toBe(status)
  })

  it('lists every invoice under "all", and outstandingSql agrees with outstandingCents on each', async () => {
    const page = await listInvoices({ companyId, today: TODAY })
    expect(page.total).toBe(CASES.length)
    const rows = await db()
      .select({ id: invoices.id, outstanding: sql<number>`${outstandingSql}`.mapWith(Number) })
      .from(invoices)
      .where(eq(invoices.companyId, companyId))
    const outstandingById = new Map(rows.map((row) => [row.id, row.outstanding]))
    for (const c of CASES) expect(outstandingById.get(idsByCase.get(c.name) ?? ''), c.name).toBe(c.outstanding)
  })
})
