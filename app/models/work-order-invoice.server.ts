// A work order's money (issue 33 item 6; docs/work-orders.md, docs/decisions/059-work-orders.md): "Record deposit" on
// an approved quote (a payment to no invoice — account credit — linked to the quote in quote_deposits), and
// "Create invoice" on a work order, once: a draft invoice of the approved version's lines (required, and optional
// ones ticked) plus the parts used that the quote did not name, taxed by the invoice's own rule (docs/billing.md),
// with every deposit of the quote credited to it in the same transaction.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { invoiceNumberLabel, type PaymentMethod } from '~/billing/billing-fields'
import { lineAmountCents, quantityText } from '~/billing/line-math'
import {
  companies,
  invoiceLines,
  invoices,
  payments,
  priceBookItems,
  quoteDeposits,
  quotes,
  workOrders,
} from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { notVoidedSql, refundedCentsOf } from './balance.server'
import { recomputeTotals } from './invoice-draft-edit.server'
import { movePaid, recordPayment } from './payment.server'
import { WORK_ORDER_MESSAGES } from './work-order.server'
import { getWorkOrder } from './work-order-read.server'

export const WORK_ORDER_INVOICE_MESSAGES = {
  notApproved: 'A deposit is recorded on an approved quote.',
  invoiced: 'This work order is invoiced: record the payment on its invoice.',
  tooLarge: 'That invoice would be too large.',
} as const

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

class RolledBack extends Error {
  constructor(readonly result: Result<never>) {
    super('rolled back')
  }
}

/** An invoice line from a work order, before it has its invoice and place. */
export type WorkOrderInvoiceLine = {
  description: string
  quantityHundredths: number
  unitCents: number
  amountCents: number
  taxable: boolean
}

/**
 * The invoice's lines: the approved version's counted lines as quoted (labor and parts, amounts as approved), then
 * each part used whose stock item no quoted part names, at the price recorded when it was fitted (docs/work-orders.md).
 */
export function invoiceLinesOf(
  quoted: {
    description: string
    quantityHundredths: number
    unitPriceCents: number
    amountCents: number
    taxable: boolean
    inventoryItemId: string | null
  }[],
  used: { inventoryItemId: string; description: string; quantity: number; unitPriceCents: number; taxable: boolean }[],
): WorkOrderInvoiceLine[] {
  const onQuote = new Set(quoted.flatMap((line) => (line.inventoryItemId ? [line.inventoryItemId] : [])))
  return [
    ...quoted.map((line) => ({
      description: line.description,
      quantityHundredths: line.quantityHundredths,
      unitCents: line.unitPriceCents,
      amountCents: line.amountCents,
      taxable: line.taxable,
    })),
    ...used
      .filter((part) => !onQuote.has(part.inventoryItemId))
      .map((part) => ({
        description: `${part.description} (part used)`,
        quantityHundredths: part.quantity * 100,
        unitCents: part.unitPriceCents,
        amountCents: lineAmountCents(part.quantity * 100, part.unitPriceCents),
        taxable: part.taxable,
      })),
  ]
}

/**
 * "Create invoice" on a work order (open or completed), once: under the work order's row lock, a work order already
 * invoiced answers its invoice (`created: false`). The invoice is a draft numbered from the company's counter (as
 * "Create invoices" and "Re-issue" take it), its lines at the work order's location, its tax recomputed by the draft
 * editor's one rule; every deposit of the quote still on account is moved onto it (paid, net of refunds).
 */
export async function createWorkOrderInvoice(
  { companyId, workOrderId }: { companyId: string; workOrderId: string },
  database: Database = db(),
): Promise<Result<{ invoiceId: string; numberLabel: string; created: boolean; depositCents: number }>> {
  if (!isUuid(workOrderId)) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
  return database
    .transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: workOrders.id, invoiceId: workOrders.invoiceId, number: invoices.number })
        .from(workOrders)
        .leftJoin(invoices, and(eq(invoices.companyId, workOrders.companyId), eq(invoices.id, workOrders.invoiceId)))
        .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, workOrderId)))
        .for('update', { of: workOrders })
      if (!locked) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
      if (locked.invoiceId) {
        return success({
          invoiceId: locked.invoiceId,
          numberLabel: invoiceNumberLabel(locked.number ?? 0),
          created: false,
          depositCents: 0,
        })
      }
      const order = await getWorkOrder(companyId, workOrderId, tx)
      if (!order) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
      const usedItems = [...new Set(order.partsUsed.map((part) => part.inventoryItemId))]
      const taxableByItem = new Map(
        usedItems.length
          ? (
              await tx
                .select({ itemId: priceBookItems.inventoryItemId, taxable: priceBookItems.taxable })
                .from(priceBookItems)
                .where(
                  and(
                    eq(priceBookItems.companyId, companyId),
                    inArray(priceBookItems.inventoryItemId, usedItems),
                    eq(priceBookItems.kind, 'part'),
                  ),
                )
                .orderBy(asc(priceBookItems.createdAt))
            )
              .reverse()
              .map((row) => [row.itemId, row.taxable])
          : [],
      )
      const lines = invoiceLinesOf(
        order.lines,
        order.partsUsed.map((part) => ({ ...part, taxable: taxableByItem.get(part.inventoryItemId) ?? true })),
      )
      const locationId = order.visits[0]?.locationId ?? null
      const [company] = await tx
        .select({ next: companies.nextInvoiceNumber })
        .from(companies)
        .where(eq(companies.id, companyId))
        .for('update')
      if (!company) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
      const [invoice] = await tx
        .insert(invoices)
        .values({
          companyId,
          customerId: order.customerId,
          number: company.next,
          subtotalCents: 0,
          taxCents: 0,
          totalCents: 0,
          customerNote: `Work order ${order.numberLabel} (quote ${order.quoteLabel}, version ${order.version}).`,
        })
        .returning({ id: invoices.id })
      if (!invoice) throw new Error('invoice insert returned nothing')
      await tx
        .update(companies)
        .set({ nextInvoiceNumber: company.next + 1 })
        .where(eq(companies.id, companyId))
      if (lines.length) {
        await tx.insert(invoiceLines).values(
          lines.map((line, i) => ({
            companyId,
            invoiceId: invoice.id,
            position: i + 1,
            kind: 'custom' as const,
            description: line.description,
            quantity: quantityText(line.quantityHundredths),
            unitCents: line.unitCents,
            amountCents: line.amountCents,
            locationId,
            taxable: line.taxable,
          })),
        )
      }
      const totals = await recomputeTotals(tx as unknown as Database, companyId, {
        id: invoice.id,
        customerId: order.customerId,
        number: company.next,
        creditAppliedCents: 0,
      })
      if (!totals.ok) throw new RolledBack(failure('invalid', WORK_ORDER_INVOICE_MESSAGES.tooLarge))
      const depositCents = await creditDeposits(tx, companyId, order.quoteId, invoice.id)
      await tx
        .update(workOrders)
        .set({ invoiceId: invoice.id })
        .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, order.id)))
      return success({
        invoiceId: invoice.id,
        numberLabel: invoiceNumberLabel(company.next),
        created: true,
        depositCents,
      })
    })
    .catch((error: unknown) => {
      if (error instanceof RolledBack) return error.result
      throw error
    })
}

/** Moves the quote's deposits still on account (not void) onto the invoice; answers what they add, net of refunds. */
async function creditDeposits(tx: Tx, companyId: string, quoteId: string, invoiceId: string) {
  const moved = await tx
    .update(payments)
    .set({ invoiceId })
    .where(
      and(
        eq(payments.companyId, companyId),
        isNull(payments.invoiceId),
        sql`${payments.id} in (select qd.payment_id from quote_deposits qd where qd.company_id = ${companyId}
          and qd.quote_id = ${quoteId})`,
        notVoidedSql(payments.id),
      ),
    )
    .returning({ id: payments.id })
  if (!moved.length) return 0
  const [sum] = await tx
    .select({
      cents: sql<number>`coalesce(sum(${payments.amountCents} - ${refundedCentsOf(payments.id)}), 0)`.mapWith(Number),
    })
    .from(payments)
    .where(
      and(
        eq(payments.companyId, companyId),
        inArray(
          payments.id,
          moved.map((row) => row.id),
        ),
      ),
    )
  const cents = sum?.cents ?? 0
  if (cents !== 0) await movePaid(tx, companyId, invoiceId, cents)
  return cents
}

/**
 * "Record deposit" on an approved quote (check or cash at the office; the portal's card deposit inserts the same two
 * rows): a payment to no invoice and its quote_deposits row, in one transaction. The payment's reference is unique
 * per customer as every payment's is; a work order already invoiced refuses it (the payment belongs on the invoice).
 */
export async function recordQuoteDeposit(
  input: {
    companyId: string
    quoteId: string
    amountCents: number
    receivedOn: LocalDate
    method: PaymentMethod
    reference: string | null
    recordedBy: string | null
  },
  database: Database = db(),
): Promise<Result<{ paymentId: string }>> {
  const { companyId, quoteId } = input
  if (!isUuid(quoteId)) return failure('not-found', WORK_ORDER_MESSAGES.quoteNotFound)
  return database
    .transaction(async (tx) => {
      const [quote] = await tx
        .select({ id: quotes.id, customerId: quotes.customerId, state: quotes.state, invoiceId: workOrders.invoiceId })
        .from(quotes)
        .leftJoin(workOrders, and(eq(workOrders.companyId, quotes.companyId), eq(workOrders.quoteId, quotes.id)))
        .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
        .for('update', { of: quotes })
      if (!quote) return failure('not-found', WORK_ORDER_MESSAGES.quoteNotFound)
      if (quote.state !== 'approved') return failure('conflict', WORK_ORDER_INVOICE_MESSAGES.notApproved)
      if (quote.invoiceId) return failure('conflict', WORK_ORDER_INVOICE_MESSAGES.invoiced)
      const paid = await recordPayment(
        {
          companyId,
          customerId: quote.customerId,
          invoiceId: null,
          amountCents: input.amountCents,
          receivedOn: input.receivedOn,
          method: input.method,
          reference: input.reference,
          recordedBy: input.recordedBy,
        },
        tx as unknown as Database,
      )
      if (!paid.ok) throw new RolledBack(paid)
      await tx.insert(quoteDeposits).values({ companyId, quoteId, paymentId: paid.paymentId })
      return success({ paymentId: paid.paymentId })
    })
    .catch((error: unknown) => {
      if (error instanceof RolledBack) return error.result
      throw error
    })
}

/** The deposits recorded on a quote (not void), for its page and the work order's: their sum net of refunds. */
export async function quoteDepositCents(companyId: string, quoteId: string) {
  if (!isUuid(quoteId)) return 0
  const [row] = await db()
    .select({
      cents: sql<number>`coalesce(sum(${payments.amountCents} - ${refundedCentsOf(payments.id)}), 0)`.mapWith(Number),
    })
    .from(quoteDeposits)
    .innerJoin(payments, and(eq(payments.companyId, quoteDeposits.companyId), eq(payments.id, quoteDeposits.paymentId)))
    .where(and(eq(quoteDeposits.companyId, companyId), eq(quoteDeposits.quoteId, quoteId), notVoidedSql(payments.id)))
  return row?.cents ?? 0
}
