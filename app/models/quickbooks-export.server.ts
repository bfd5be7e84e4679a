// "Export for QuickBooks" (docs/billing.md): what a month hands the accountant — its invoices (sent, not void: a draft
// has not been issued and a void one counts for nothing), by service period (the default: October's services,
// even when invoiced on 1 November) or by invoice date, and the money received in it. Two
// statements, whatever the month's size. Everything is read in a fixed order (invoice number and line position;
// payment date, then when it was recorded, then id) and nothing depends on "now", so exporting the same month twice
// gives the same bytes (app/billing/quickbooks.ts turns these rows into the files).
import { and, asc, between, eq, isNull, or, sql } from 'drizzle-orm'
import type { BillingPeriod } from '~/billing/invoice-draft'
import { periodLabel } from '~/billing/invoice-draft'
import {
  type ExportInvoice,
  type ExportPeriod,
  periodToIif,
  periodToQuickBooksOnlineCsv,
  type QuickBooksBasis,
} from '~/billing/quickbooks'
import { customers, invoiceLines, invoices, payments } from '~/db/schema'
import { notVoidedSql, refundedCentsOf } from '~/models/balance.server'
import { db } from '~/utils/db.server'

/** A stored quantity without the trailing zeros PostgreSQL's numeric(10, 2) adds: "4.00" → "4", "2.50" → "2.5". */
function quantityText(stored: string) {
  return stored.includes('.') ? stored.replace(/\.?0+$/, '') : stored
}

/** The month's payments, each with what was kept, oldest first (ties by when recorded, then id). */
function loadPayments(companyId: string, period: BillingPeriod) {
  return db()
    .select({
      customerName: customers.customerName,
      receivedOn: payments.receivedOn,
      amountCents: sql<number>`${payments.amountCents} - ${refundedCentsOf(payments.id)}`.mapWith(Number),
      method: payments.method,
      reference: payments.reference,
      invoiceNumber: invoices.number,
    })
    .from(payments)
    .innerJoin(customers, and(eq(customers.companyId, payments.companyId), eq(customers.id, payments.customerId)))
    .leftJoin(invoices, and(eq(invoices.companyId, payments.companyId), eq(invoices.id, payments.invoiceId)))
    .where(
      and(
        eq(payments.companyId, companyId),
        between(payments.receivedOn, period.start, period.end),
        // A payment refunded in full brought in nothing; a partial refund leaves what was kept (no refund date is
        // stored, so the payment's own month carries it).
        sql`${payments.amountCents} > ${refundedCentsOf(payments.id)}`,
        // A void payment was never received (docs/decisions/037-payment-voids.md).
        notVoidedSql(payments.id),
      ),
    )
    .orderBy(asc(payments.receivedOn), asc(payments.createdAt), asc(payments.id))
}

/** The month's invoices (with their lines) and payments, ready for either file. */
export async function loadQuickBooksPeriod({
  companyId,
  period,
  basis = 'service-period',
  withPayments = true,
}: {
  companyId: string
  period: BillingPeriod
  /** Which invoices are the month's: by the period they bill (an invoice of none by its date), or by invoice date. */
  basis?: QuickBooksBasis
  /** False for QuickBooks Online's CSV, which holds invoices only. */
  withPayments?: boolean
}): Promise<ExportPeriod> {
  const [lineRows, paymentRows] = await Promise.all([
    db()
      .select({
        invoiceId: invoices.id,
        number: invoices.number,
        customerName: customers.customerName,
        periodStart: invoices.periodStart,
        periodEnd: invoices.periodEnd,
        issuedOn: sql<string>`${invoices.issuedOn}`,
        dueOn: sql<string>`${invoices.dueOn}`,
        taxCents: invoices.taxCents,
        creditAppliedCents: invoices.creditAppliedCents,
        kind: invoiceLines.kind,
        description: invoiceLines.description,
        quantity: invoiceLines.quantity,
        unitCents: invoiceLines.unitCents,
        amountCents: invoiceLines.amountCents,
      })
      .from(invoices)
      .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
      .innerJoin(
        invoiceLines,
        and(eq(invoiceLines.companyId, invoices.companyId), eq(invoiceLines.invoiceId, invoices.id)),
      )
      .where(
        and(
          eq(invoices.companyId, companyId),
          eq(invoices.state, 'sent'),
          basis === 'invoice-date'
            ? between(invoices.issuedOn, period.start, period.end)
            : or(
                between(invoices.periodStart, period.start, period.end),
                and(isNull(invoices.periodStart), between(invoices.issuedOn, period.start, period.end)),
              ),
        ),
      )
      .orderBy(asc(invoices.number), asc(invoiceLines.position)),
    withPayments ? loadPayments(companyId, period) : [],
  ])

  const byId = new Map<string, ExportInvoice>()
  for (const row of lineRows) {
    let invoice = byId.get(row.invoiceId)
    if (!invoice) {
      invoice = {
        number: row.number,
        customerName: row.customerName,
        periodLabel:
          row.periodStart && row.periodEnd ? periodLabel({ start: row.periodStart, end: row.periodEnd }) : null,
        issuedOn: row.issuedOn,
        dueOn: row.dueOn,
        taxCents: row.taxCents,
        creditAppliedCents: row.creditAppliedCents,
        lines: [],
      }
      byId.set(row.invoiceId, invoice)
    }
    invoice.lines.push({
      kind: row.kind,
      description: row.description,
      quantity: quantityText(row.quantity),
      unitCents: row.unitCents,
      amountCents: row.amountCents,
    })
  }
  return { invoices: [...byId.values()], payments: paymentRows }
}

/** The month as an IIF file for QuickBooks Desktop. */
export async function exportQuickBooksIif(args: { companyId: string; period: BillingPeriod; basis?: QuickBooksBasis }) {
  return periodToIif(await loadQuickBooksPeriod(args))
}

/** The month's invoices as CSV in QuickBooks Online's invoice-import layout. */
export async function exportQuickBooksOnlineCsv(args: {
  companyId: string
  period: BillingPeriod
  basis?: QuickBooksBasis
}) {
  return periodToQuickBooksOnlineCsv(await loadQuickBooksPeriod({ ...args, withPayments: false }))
}
