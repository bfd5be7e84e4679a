// An invoice as a page shows it — the office's invoice page and the customer's portal page draw the same document:
// money formatted, dates in words, and only the fields that page may show (the portal gets no staff names, flags or
// ids it does not link to).
import { PAYMENT_METHOD_LABELS } from '~/billing/billing-fields'
import { REFUND_DUE_PREFIX } from '~/billing/payment-messages'
import type { InvoiceDetail } from '~/models/invoice.server'
import { formatLocalDate } from '~/utils/dates'
import { formatCents } from '~/utils/money'

/** A numeric(10, 2) as people write it: "4.00" → "4", "2.50" → "2.5". */
function quantityText(quantity: string) {
  return quantity.includes('.') ? quantity.replace(/0+$/, '').replace(/\.$/, '') : quantity
}

/** The document: heading facts, lines and totals. */
export function presentInvoiceDocument(invoice: InvoiceDetail) {
  return {
    id: invoice.id,
    numberLabel: invoice.numberLabel,
    status: invoice.status,
    customerName: invoice.customerName,
    billingAddress: invoice.billingAddress,
    period: invoice.periodLabel,
    issuedOn: invoice.issuedOn ? formatLocalDate(invoice.issuedOn) : null,
    /** "Note for customer" (issue 31 item 1), shown on the document wherever it is read. */
    note: invoice.customerNote,
    dueOn: invoice.dueOn ? formatLocalDate(invoice.dueOn) : null,
    // Tax lines show with the totals, one per rate ("Tampa 7.5 % tax"): never under "Late completions".
    lines: invoice.lines
      .filter((line) => line.kind !== 'tax')
      .map((line, i, lines) => ({
        id: line.id,
        /** The first "Late completions" line: the group's heading goes above it (docs/billing.md). */
        lateGroupStart: line.late && !lines.slice(0, i).some((earlier) => earlier.late),
        description: line.description,
        quantity: quantityText(line.quantity),
        unit: formatCents(line.unitCents),
        amount: formatCents(line.amountCents),
      })),
    totals: {
      subtotal: formatCents(invoice.subtotalCents),
      /** One per rate (docs/billing.md, "Tax"); a tax line made before rates had names reads "Tax (7.25%)". */
      taxes: invoice.lines
        .filter((line) => line.kind === 'tax')
        .map((line) => ({ label: line.description, value: formatCents(line.amountCents) })),
      total: formatCents(invoice.totalCents),
      creditApplied: invoice.creditAppliedCents > 0 ? formatCents(invoice.creditAppliedCents) : null,
      paid: formatCents(invoice.paidCents),
      amountDue: formatCents(invoice.outstandingCents),
      // A draft owes nothing yet: it shows what will be due once sent (its total less credit), never "$0.00 due".
      dueOnSending:
        invoice.state === 'draft'
          ? formatCents(Math.max(0, invoice.totalCents - invoice.creditAppliedCents - invoice.paidCents))
          : null,
    },
    owes: invoice.outstandingCents > 0,
  }
}

export type InvoiceDocumentData = ReturnType<typeof presentInvoiceDocument>

/** What is left to refund of a card payment taken through Stripe; null for other payments or when none is left. */
export function refundableCents(payment: InvoiceDetail['payments'][number]) {
  if (payment.method !== 'card' || !payment.stripePaymentIntentId || payment.voidedAt) return null
  const left = payment.amountCents - payment.refundedCents
  return left > 0 ? left : null
}

/**
 * The payments on the invoice; `forStaff` adds who recorded each, any flag for the office to look at, and what the
 * office may refund ("Refund", and "Refund due" on a payment that arrived after the invoice was paid).
 */
export function presentInvoicePayments(invoice: InvoiceDetail, { forStaff }: { forStaff: boolean }) {
  return invoice.payments.map((payment) => ({
    id: payment.id,
    receivedOn: formatLocalDate(payment.receivedOn),
    method: PAYMENT_METHOD_LABELS[payment.method],
    reference: payment.reference,
    amount: formatCents(payment.amountCents),
    refunded: payment.refundedCents > 0 ? formatCents(payment.refundedCents) : null,
    // "Void payment" (docs/decisions/037-payment-voids.md): still listed, marked "Void", counting for nothing.
    voided: payment.voidedAt !== null,
    // A quote's deposit credited by its work order's invoice (docs/work-orders.md).
    deposit: payment.deposit,
    ...(forStaff
      ? {
          recordedBy: payment.recordedBy,
          flag: payment.flag,
          refund: refundOffer(payment),
          voidReason: payment.voidReason,
          voidable: isVoidable(payment),
        }
      : {}),
  }))
}

export type InvoicePaymentRow = ReturnType<typeof presentInvoicePayments>[number]

function refundOffer(payment: InvoiceDetail['payments'][number]) {
  const left = refundableCents(payment)
  if (left === null) return null
  return { left: formatCents(left), due: Boolean(payment.flag?.startsWith(REFUND_DUE_PREFIX)) }
}

/** A payment "Void payment" may correct: not already void, and not a card payment taken through Stripe (refunded). */
export function isVoidable(payment: InvoiceDetail['payments'][number]) {
  return payment.voidedAt === null && !payment.stripePaymentIntentId && payment.refundedCents === 0
}
