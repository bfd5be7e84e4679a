// "Export for QuickBooks" against the database: the demo company's last month invoiced and sent (so issued this
// month), paid in every way an office records money — in full, in part, over, as account credit, refunded in part —
// then exported. The files must hold exactly the month's sent invoices and its payments (counted here in SQL of
// their own), balance to the cent in every transaction and overall, leave out drafts, void invoices, other months
// and the other company, and come out byte for byte the same when exported again. These export "By invoice date"
// (the month the invoices were issued in); quickbooks-basis.server.test.ts proves "By service period".
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import {
  companies,
  inventoryItems,
  invoices,
  servicePlans,
  taxRates,
  visitChemicalAdditions,
  visits,
} from '~/db/schema'
import { lastMonth } from '~/features/reports/report-period'
import { addDays, isoWeekday, type LocalDate, localDateAt } from '~/schedule/local-date'
import { db, queryRows } from '~/utils/db.server'
import { addRefund } from '../../tests/helpers/billing'
import { addTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { voidInvoice } from './invoice.server'
import { createInvoices } from './invoice-create.server'
import { sendInvoices } from './invoice-send.server'
import { recordPayment } from './payment.server'
import { exportQuickBooksIif, exportQuickBooksOnlineCsv, loadQuickBooksPeriod } from './quickbooks-export.server'

let blue: string
let sunset: string
let today: LocalDate
let thisMonth: ReturnType<typeof monthOf>
let chemicalCustomerId: string
/** Last month's Mondays, each a completed visit of the chemical customer. */
let mondayCount = 0

async function companyId(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row.id
}

/** A Blue Lagoon customer billed per visit plus chemicals, with last month's Mondays done and chlorine added on each. */
async function chemicalCustomer(period: { start: LocalDate; end: LocalDate }) {
  const customer = await addTestCustomer(blue, {
    customerName: 'Export Chemicals Co',
    address: '7 Ledger Ln, Tampa, FL',
  })
  const [plan] = await db()
    .insert(servicePlans)
    .values({
      companyId: blue,
      locationId: customer.locationId,
      weekday: 1,
      startsOn: addDays(period.start, -60),
      rateCents: 4500,
      rateType: 'per-visit-plus-chemicals',
    })
    .returning({ id: servicePlans.id })
  const mondays: LocalDate[] = []
  for (let day = period.start; day <= period.end; day = addDays(day, 1)) if (isoWeekday(day) === 1) mondays.push(day)
  mondayCount = mondays.length
  const visitList = await db()
    .insert(visits)
    .values(
      mondays.map((date) => ({
        companyId: blue,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        planId: plan?.id ?? '',
        occurrenceDate: date,
        scheduledAt: new Date(`${date}T14:00:00Z`),
        completedAt: new Date(`${date}T15:00:00Z`),
      })),
    )
    .returning({ id: visits.id })
  const [chlorine] = await db()
    .select({ id: inventoryItems.id, name: inventoryItems.name })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, blue), eq(inventoryItems.sku, 'CHL-LIQ-1G')))
  await db()
    .insert(visitChemicalAdditions)
    .values(
      visitList.map((visit) => ({
        companyId: blue,
        visitId: visit.id,
        inventoryItemId: chlorine?.id ?? null,
        product: chlorine?.name ?? 'Chlorine',
        quantity: 1.5,
        unit: 'gal' as const,
      })),
    )
  return customer.id
}

beforeAll(async () => {
  await useDemoData()
  blue = await companyId('Blue Lagoon Pool Co.')
  sunset = await companyId('Sunset Pool Care')
  const [company] = await db().select().from(companies).where(eq(companies.id, blue))
  const now = new Date()
  today = localDateAt(now, company?.timezone ?? 'America/New_York')
  thisMonth = monthOf(today)
  const billed = lastMonth(today)
  // Tax, so the invoices carry a tax line (credited to "Sales Tax Payable").
  await db().insert(taxRates).values({ companyId: blue, name: 'Sales tax', milliPercent: 7250, isDefault: true })
  chemicalCustomerId = await chemicalCustomer(billed)
  const created = await createInvoices({ companyId: blue, period: billed })
  expect(created.created).toBeGreaterThan(3)
  await sendInvoices({ companyId: blue, period: billed, now })

  const sent = await db()
    .select({
      id: invoices.id,
      customerId: invoices.customerId,
      total: invoices.totalCents,
      credit: invoices.creditAppliedCents,
    })
    .from(invoices)
    .where(and(eq(invoices.companyId, blue), eq(invoices.periodStart, billed.start)))
    .orderBy(invoices.number)
  const [full, part, over, voided] = sent
  if (!full || !part || !over || !voided) throw new Error('not enough invoices')
  const pay = (
    invoice: typeof full,
    amountCents: number,
    method: 'check' | 'cash' | 'card',
    reference: string | null,
  ) =>
    recordPayment({
      companyId: blue,
      customerId: invoice.customerId,
      invoiceId: invoice.id,
      amountCents,
      receivedOn: today,
      method,
      reference,
      recordedBy: null,
    })
  expect((await pay(full, full.total - full.credit, 'check', '2211')).ok).toBe(true)
  expect((await pay(part, 1000, 'cash', null)).ok).toBe(true)
  const card = await pay(over, over.total + 2500, 'card', 'cs_test_export_0123456789')
  expect(card.ok).toBe(true)
  // Part of the card payment refunded: the export carries what was kept.
  if (card.ok) {
    await addRefund(card.paymentId, 2500)
  }
  // Account credit (no invoice), and a payment refunded in full (it brought in nothing).
  expect(
    (
      await recordPayment({
        companyId: blue,
        customerId: part.customerId,
        invoiceId: null,
        amountCents: 4200,
        receivedOn: today,
        method: 'bank-transfer',
        reference: 'ACH-77',
        recordedBy: null,
      })
    ).ok,
  ).toBe(true)
  const refunded = await pay(part, 500, 'cash', 'REFUNDED-1')
  if (refunded.ok) {
    await addRefund(refunded.paymentId, 500)
  }
  // A void invoice counts for nothing; a payment of the month before is another month's.
  expect((await voidInvoice({ companyId: blue, invoiceId: voided.id })).ok).toBe(true)
  await recordPayment({
    companyId: blue,
    customerId: full.customerId,
    invoiceId: null,
    amountCents: 999,
    receivedOn: addDays(thisMonth.start, -1),
    method: 'cash',
    reference: 'LAST-MONTH',
    recordedBy: null,
  })
})

type Transaction = { type: string; rows: string[][] }

/** The IIF's transactions, each its TRNS and SPL rows split into fields. */
function transactionsOf(iif: string): Transaction[] {
  const list: Transaction[] = []
  let open: Transaction | null = null
  for (const row of iif.split('\r\n')) {
    const cells = row.split('\t')
    if (cells[0] === 'TRNS') open = { type: cells[1] ?? '', rows: [cells] }
    else if (cells[0] === 'SPL') open?.rows.push(cells)
    else if (cells[0] === 'ENDTRNS' && open) {
      list.push(open)
      open = null
    }
  }
  expect(open).toBeNull()
  return list
}

const cents = (amount: string | undefined) => Math.round(Number(amount) * 100)

describe('export for QuickBooks', () => {
  it("writes exactly the month's sent invoices, each debiting its total to receivables", async () => {
    const iif = await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    const expected = await queryRows<{ number: number; total: number }>(sql`
      select number, total_cents as total from invoices
      where company_id = ${blue} and state = 'sent' and issued_on between ${thisMonth.start} and ${thisMonth.end}
      order by number`)
    const exported = transactionsOf(iif).filter((t) => t.type === 'INVOICE')
    expect(exported.map((t) => t.rows[0]?.[6])).toEqual(
      expected.map((row) => `INV-${String(row.number).padStart(4, '0')}`),
    )
    expect(exported.map((t) => cents(t.rows[0]?.[5]))).toEqual(expected.map((row) => row.total))
    for (const t of exported) expect(t.rows[0]?.[3]).toBe('Accounts Receivable')
    // Visits, chemicals and tax each go to their own account.
    const accounts = new Set(exported.flatMap((t) => t.rows.slice(1).map((row) => row[3])))
    expect([...accounts].sort()).toEqual(
      expect.arrayContaining(['Chemical Sales', 'Pool Service Income', 'Sales Tax Payable']),
    )
  })

  it('balances: every transaction sums to zero, and debits equal credits overall', async () => {
    const iif = await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    let debits = 0
    let credits = 0
    const transactions = transactionsOf(iif)
    expect(transactions.length).toBeGreaterThan(5)
    for (const t of transactions) {
      const amounts = t.rows.map((row) => cents(row[5]))
      expect(
        amounts.reduce((sum, amount) => sum + amount, 0),
        t.rows[0]?.join(' '),
      ).toBe(0)
      for (const amount of amounts) {
        if (amount > 0) debits += amount
        else credits -= amount
      }
    }
    expect(debits).toBe(credits)
  })

  it("writes each of the month's payments, net of refunds, from undeposited funds against receivables", async () => {
    const iif = await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    const expected = await queryRows<{ net: number }>(sql`
      select amount_cents - r.cents as net from payments p,
        lateral (select coalesce(sum(amount_cents), 0) as cents from refunds where payment_id = p.id) r
      where company_id = ${blue} and received_on between ${thisMonth.start} and ${thisMonth.end}
        and amount_cents > r.cents
        and not exists (select 1 from payment_voids pv where pv.payment_id = p.id)
      order by received_on, created_at, id`)
    const exported = transactionsOf(iif).filter((t) => t.type === 'PAYMENT')
    expect(exported.map((t) => cents(t.rows[0]?.[5]))).toEqual(expected.map((row) => Number(row.net)))
    for (const t of exported) {
      expect(t.rows[0]?.[3]).toBe('Undeposited Funds')
      expect(t.rows[1]?.[3]).toBe('Accounts Receivable')
    }
    expect(iif).toContain('\t2211\tPayment of INV-')
    expect(iif).toContain('\tAccount credit; ref ACH-77\t')
    expect(iif).toContain('; ref cs_test_export_0123456789')
    expect(iif).not.toContain('REFUNDED-1')
    expect(iif).not.toContain('LAST-MONTH')
  })

  it('leaves out drafts, void invoices and the other company', async () => {
    const period = await loadQuickBooksPeriod({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    const [voided] = await db()
      .select({ number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.companyId, blue), eq(invoices.state, 'void')))
    expect(period.invoices.map((invoice) => invoice.number)).not.toContain(voided?.number)
    const sunsetNames = await queryRows<{ name: string }>(
      sql`select customer_name as name from customers where company_id = ${sunset}`,
    )
    const iif = await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    for (const { name } of sunsetNames) expect(iif).not.toContain(`\t${name}\t`)
    // Sunset's own export holds none of Blue Lagoon's invoices.
    const sunsetPeriod = await loadQuickBooksPeriod({ companyId: sunset, period: thisMonth, basis: 'invoice-date' })
    expect(sunsetPeriod.invoices.map((invoice) => invoice.customerName)).not.toContain('Export Chemicals Co')
  })

  it('writes the chemicals and the quantities as the invoice shows them', async () => {
    const period = await loadQuickBooksPeriod({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    const invoice = period.invoices.find((candidate) => candidate.customerName === 'Export Chemicals Co')
    const chemicals = invoice?.lines.find((line) => line.kind === 'chemicals')
    // 1.5 gal on each Monday at $6.99 a gallon, written as the invoice shows it ("6", "7.5"), rounded half up.
    expect(chemicals?.quantity).toBe(String(1.5 * mondayCount))
    expect(chemicals?.unitCents).toBe(699)
    expect(chemicals?.amountCents).toBe(Math.floor((150 * mondayCount * 699 + 50) / 100))
    const [row] = await queryRows<{ customer: string }>(
      sql`select customer_id as customer from invoices where company_id = ${blue} and number = ${invoice?.number ?? 0}`,
    )
    expect(row?.customer).toBe(chemicalCustomerId)
  })

  it("writes the CSV's rows from the same invoices: every line but tax, amounts adding up to the totals less tax", async () => {
    const csv = await exportQuickBooksOnlineCsv({ companyId: blue, period: thisMonth, basis: 'invoice-date' })
    const [expected] = await queryRows<{ lines: number; amount: number }>(sql`
      select count(*)::int as lines, coalesce(sum(l.amount_cents), 0)::int as amount
      from invoice_lines l join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
      where i.company_id = ${blue} and i.state = 'sent' and l.kind <> 'tax'
        and i.issued_on between ${thisMonth.start} and ${thisMonth.end}`)
    const rows = csv.trimEnd().split('\r\n')
    expect(rows[0]).toBe(
      'InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Memo,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,ItemAmount,Taxable',
    )
    expect(rows).toHaveLength((expected?.lines ?? 0) + 1)
    // The amount is the row's last but one field (descriptions may hold commas, amounts never do).
    const total = rows.slice(1).reduce((sum, row) => sum + cents(row.split(',').at(-2)), 0)
    expect(total).toBe(expected?.amount)
    expect(csv).toContain(',Chemicals,')
  })

  it('gives the same bytes when the same month is exported again', async () => {
    const [iif, csv] = [
      await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' }),
      await exportQuickBooksOnlineCsv({ companyId: blue, period: thisMonth, basis: 'invoice-date' }),
    ]
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await exportQuickBooksIif({ companyId: blue, period: thisMonth, basis: 'invoice-date' })).toBe(iif)
    expect(await exportQuickBooksOnlineCsv({ companyId: blue, period: thisMonth, basis: 'invoice-date' })).toBe(csv)
  })

  it('writes only the headers for a month with nothing in it', async () => {
    const empty = monthOf('2001-02-01')
    expect(await exportQuickBooksIif({ companyId: blue, period: empty, basis: 'invoice-date' })).toBe(
      '!TRNS\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO\tDUEDATE\tTERMS\tPAYMETH\r\n!SPL\tTRNSTYPE\tDATE\tACCNT\tNAME\tAMOUNT\tDOCNUM\tMEMO\r\n!ENDTRNS\r\n',
    )
    expect(await exportQuickBooksOnlineCsv({ companyId: blue, period: empty, basis: 'invoice-date' })).toBe(
      'InvoiceNo,Customer,InvoiceDate,DueDate,Terms,Memo,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,ItemAmount,Taxable\r\n',
    )
  })
})
