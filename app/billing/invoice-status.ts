// What an invoice's status is (docs/billing.md): the office's state (draft, sent, void) and then the money and the
// date. The SQL twin of this is `outstandingSql` in app/models/invoice-list.server.ts; the two are tested together.
import type { LocalDate } from '~/schedule/local-date'
import type { InvoiceState } from './billing-fields'

export const INVOICE_STATUSES = ['Draft', 'Sent', 'Partially paid', 'Paid', 'Past due', 'Void'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export type InvoiceMoney = {
  state: InvoiceState
  totalCents: number
  paidCents: number
  creditAppliedCents: number
  dueOn: LocalDate | null
}

/** What is still owed on an invoice (0 for drafts, void and settled invoices). */
export function outstandingCents(invoice: InvoiceMoney) {
  if (invoice.state !== 'sent') return 0
  return Math.max(0, invoice.totalCents - invoice.paidCents - invoice.creditAppliedCents)
}

export function invoiceStatus(invoice: InvoiceMoney, today: LocalDate): InvoiceStatus {
  if (invoice.state === 'void') return 'Void'
  if (invoice.state === 'draft') return 'Draft'
  const owed = outstandingCents(invoice)
  if (owed === 0) return 'Paid'
  if (invoice.dueOn !== null && today > invoice.dueOn) return 'Past due'
  return invoice.paidCents + invoice.creditAppliedCents > 0 ? 'Partially paid' : 'Sent'
}
