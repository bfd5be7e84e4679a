// A quote's amounts (docs/quotes.md): each line rounded half up (app/billing/line-math.ts), the subtotal the sum of
// the lines counted, tax on the taxable ones at the company's rate rounded once, total = subtotal + tax. Optional
// lines count only when ticked. "Expired" follows from "Valid until".
import { lineAmountCents, taxOf } from './line-math'

export type QuoteLineInput = {
  id: string
  quantityHundredths: number
  unitPriceCents: number
  taxable: boolean
  optional: boolean
}

export type QuoteTotals = { subtotalCents: number; taxCents: number; totalCents: number }

/** Totals of the lines counted: every required line, and the optional lines whose ids are in `ticked`. */
export function quoteTotals(
  lines: QuoteLineInput[],
  rateMilliPercent: number,
  ticked: ReadonlySet<string> = new Set(),
): QuoteTotals {
  let subtotalCents = 0
  let taxableCents = 0
  for (const line of lines) {
    if (line.optional && !ticked.has(line.id)) continue
    const amount = lineAmountCents(line.quantityHundredths, line.unitPriceCents)
    subtotalCents += amount
    if (line.taxable) taxableCents += amount
  }
  const taxCents = taxOf(taxableCents, rateMilliPercent)
  return { subtotalCents, taxCents, totalCents: subtotalCents + taxCents }
}

export type Deposit = { kind: 'none' | 'percent' | 'amount'; value: number }

/** The deposit on a total: a whole percent of it (half up) or a fixed amount, never more than the total. */
export function depositCents(deposit: Deposit, totalCents: number) {
  if (deposit.kind === 'percent') return Math.min(totalCents, Math.floor((totalCents * deposit.value * 2 + 100) / 200))
  if (deposit.kind === 'amount') return Math.min(totalCents, deposit.value)
  return 0
}

export type StoredQuoteState = 'draft' | 'sent' | 'viewed' | 'approved' | 'declined'
export type QuoteStatus = 'Draft' | 'Sent' | 'Viewed' | 'Approved' | 'Declined' | 'Expired'
export const QUOTE_STATUSES: QuoteStatus[] = ['Draft', 'Sent', 'Viewed', 'Approved', 'Declined', 'Expired']

/** What the office and the customer see: a sent or viewed quote past its "Valid until" (local date) is Expired. */
export function quoteStatus(state: StoredQuoteState, validUntil: string | null, today: string): QuoteStatus {
  if ((state === 'sent' || state === 'viewed') && validUntil !== null && validUntil < today) return 'Expired'
  return (state.charAt(0).toUpperCase() + state.slice(1)) as QuoteStatus
}

export function quoteNumberLabel(number: number) {
  return `Q-${String(number).padStart(4, '0')}`
}
