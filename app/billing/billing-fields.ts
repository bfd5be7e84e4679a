// The values billing's records may take (OPERATIONS §7). Dependency-free: the schema, the forms and the pure
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

/** Days after the issue date an invoice falls due, unless the company says otherwise (OPERATIONS §7). */
export const DEFAULT_PAYMENT_TERMS_DAYS = 15
export const MAX_PAYMENT_TERMS_DAYS = 120
/** Tax in thousandths of a percent (7250 = 7.25 %, 8875 = 8.875 %: US rates have three decimals); at most 30 %. */
export const MAX_TAX_RATE_MILLI_PERCENT = 30_000

/** "INV-0001": the company's sequential number, at least four digits. */
export function invoiceNumberLabel(number: number) {
  return `INV-${String(number).padStart(4, '0')}`
}
