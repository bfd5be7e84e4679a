// The values billing's records may take (docs/billing.md). Dependency-free: the schema, the forms and the pure
// invoice arithmetic read them from here.

/** What the office did to an invoice; "Paid", "Partially paid" and "Past due" follow from money and dates. */
export const INVOICE_STATES = ['draft', 'sent', 'void'] as const
export type InvoiceState = (typeof INVOICE_STATES)[number]

/** 'custom' and 'discount' are added by hand on a draft (docs/billing.md); a discount's amount is negative. */
export const INVOICE_LINE_KINDS = [
  'visits',
  'monthly',
  'chemicals',
  'tax',
  'opening-balance',
  'custom',
  'discount',
] as const
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number]

export const PAYMENT_METHODS = ['cash', 'check', 'card', 'bank-transfer'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  check: 'Check',
  card: 'Card',
  'bank-transfer': 'Bank transfer',
}

export const MAX_PAYMENT_TERMS_DAYS = 120
/** Tax in thousandths of a percent (7250 = 7.25 %, 8875 = 8.875 %: US rates have three decimals); at most 30 %. */
export const MAX_TAX_RATE_MILLI_PERCENT = 30_000

/** "INV-0001": the company's sequential number, at least four digits. */
export function invoiceNumberLabel(number: number) {
  return `INV-${String(number).padStart(4, '0')}`
}

/** "WO-0001": a work order's number (docs/work-orders.md); also what a work order's invoice shows for its period. */
export function workOrderNumberLabel(number: number) {
  return `WO-${String(number).padStart(4, '0')}`
}

/** What an invoice bills, as its lists and page say it: its month, a work order, or (neither) an opening balance. */
export function invoiceSubjectLabel(period: string | null, workOrderNumber: number | null) {
  return period ?? (workOrderNumber ? `Work order ${workOrderNumberLabel(workOrderNumber)}` : null)
}
