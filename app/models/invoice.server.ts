// One invoice (docs/billing.md): its page's read with its lines and payments (the office's page, the portal's, the
// PDF) and "Void invoice", which keeps its number, turns its payments into credit and releases its late completions.
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { invoiceNumberLabel, invoiceSubjectLabel } from '~/billing/billing-fields'
import { periodLabel } from '~/billing/invoice-draft'
import { invoiceStatus, outstandingCents } from '~/billing/invoice-status'
import { billedVisits, customers, invoiceLines, invoices, payments, paymentVoids, profiles } from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { refundedCentsOf } from './balance.server'

/** An invoice's state, dates and amounts, as the invoice page and the API read them. */
export const invoiceFigureColumns = {
  state: invoices.state,
  periodStart: invoices.periodStart,
  periodEnd: invoices.periodEnd,
  issuedOn: invoices.issuedOn,
  dueOn: invoices.dueOn,
  subtotalCents: invoices.subtotalCents,
  taxCents: invoices.taxCents,
  totalCents: invoices.totalCents,
  paidCents: invoices.paidCents,
}

/** The number of the work order an invoice bills (docs/work-orders.md), or null: read on the unique invoice key. */
export const workOrderNumberSql = sql<number | null>`(select w.number from work_orders w
  where w.company_id = ${invoices.companyId} and w.invoice_id = ${invoices.id})`

/** What an invoice's status and what it still owes read (`InvoiceMoney`, app/billing/invoice-status.ts). */
export const invoiceMoneyColumns = {
  state: invoices.state,
  totalCents: invoices.totalCents,
  paidCents: invoices.paidCents,
  creditAppliedCents: invoices.creditAppliedCents,
  dueOn: invoices.dueOn,
}

/** What "Send invoice" and "Void invoice" are given: one invoice of the company, and when. */
export type InvoiceAction = { companyId: string; invoiceId: string; now?: Date }

/** One invoice with its lines and payments, or null when it is not this company's. */
export async function getInvoice({
  companyId,
  invoiceId,
  customerId,
  today,
}: {
  companyId: string
  invoiceId: string
  /** The portal: only this customer's invoice, and never a draft. */
  customerId?: string
  today: LocalDate
}) {
  if (!isUuid(invoiceId)) return null
  const [invoice] = await db()
    .select({
      id: invoices.id,
      number: invoices.number,
      customerId: invoices.customerId,
      customerName: customers.customerName,
      customerEmail: customers.email,
      billingAddress: customers.billingAddress,
      autopayCardLabel: customers.autopayCardLabel,
      ...invoiceFigureColumns,
      creditAppliedCents: invoices.creditAppliedCents,
      customerNote: invoices.customerNote,
      sentAt: invoices.sentAt,
      voidedAt: invoices.voidedAt,
      autopayAttempts: invoices.autopayAttempts,
      delivery: invoices.delivery,
      workOrderNumber: workOrderNumberSql,
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.id, invoiceId),
        customerId ? and(eq(invoices.customerId, customerId), sql`${invoices.state} <> 'draft'`) : undefined,
      ),
    )
  if (!invoice) return null
  const [lines, paid] = await Promise.all([
    db()
      .select({
        id: invoiceLines.id,
        kind: invoiceLines.kind,
        description: invoiceLines.description,
        quantity: invoiceLines.quantity,
        unitCents: invoiceLines.unitCents,
        amountCents: invoiceLines.amountCents,
        /** A "Late completions" line (docs/billing.md). */
        late: sql<boolean>`${invoiceLines.visitId} is not null`.mapWith(Boolean),
      })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId)))
      .orderBy(asc(invoiceLines.position)),
    db()
      .select({
        id: payments.id,
        amountCents: payments.amountCents,
        refundedCents: refundedCentsOf(payments.id),
        receivedOn: payments.receivedOn,
        method: payments.method,
        reference: payments.reference,
        flag: payments.flag,
        stripePaymentIntentId: payments.stripePaymentIntentId,
        recordedBy: profiles.fullName,
        // "Void payment" (docs/decisions/037-payment-voids.md): a void payment stays listed, with its reason.
        voidedAt: paymentVoids.voidedAt,
        voidReason: paymentVoids.reason,
        // A quote's deposit credited to its work order's invoice ("Deposit received", docs/work-orders.md).
        deposit: sql<boolean>`exists (select 1 from quote_deposits qd where qd.company_id = ${payments.companyId}
          and qd.payment_id = ${payments.id})`.mapWith(Boolean),
      })
      .from(payments)
      .leftJoin(profiles, eq(profiles.id, payments.recordedBy))
      .leftJoin(paymentVoids, eq(paymentVoids.paymentId, payments.id))
      .where(and(eq(payments.companyId, companyId), eq(payments.invoiceId, invoiceId)))
      .orderBy(asc(payments.receivedOn), asc(payments.createdAt)),
  ])
  return {
    ...invoice,
    numberLabel: invoiceNumberLabel(invoice.number),
    periodLabel: invoiceSubjectLabel(
      invoice.periodStart ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' }) : null,
      invoice.workOrderNumber,
    ),
    status: invoiceStatus(invoice, today),
    outstandingCents: outstandingCents(invoice),
    lines,
    payments: paid,
  }
}

export type InvoiceDetail = NonNullable<Awaited<ReturnType<typeof getInvoice>>>

/**
 * "Void invoice": the invoice stays with its number and counts for nothing; payments on it become the customer's
 * credit, credit it had applied is released, and so are the late completions it billed.
 */
export async function voidInvoice({ companyId, invoiceId, now = new Date() }: InvoiceAction): Promise<Result> {
  if (!isUuid(invoiceId)) return failure('not-found', 'Invoice not found.')
  const row = await db().transaction(async (tx) => {
    const [voided] = await tx
      .update(invoices)
      .set({ state: 'void', voidedAt: now, autopayNextAt: null })
      .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId), sql`${invoices.state} <> 'void'`))
      .returning({ id: invoices.id })
    // Its late completions are billed no more: the next invoice, or its re-issue, bills them (docs/billing.md).
    if (voided) {
      await tx
        .update(billedVisits)
        .set({ releasedAt: now })
        .where(
          and(
            eq(billedVisits.companyId, companyId),
            eq(billedVisits.invoiceId, invoiceId),
            isNull(billedVisits.releasedAt),
          ),
        )
    }
    return voided
  })
  if (row) return success({})
  const [exists] = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  return exists ? failure('conflict', 'This invoice is already void.') : failure('not-found', 'Invoice not found.')
}
