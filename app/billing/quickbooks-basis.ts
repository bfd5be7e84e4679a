// The QuickBooks export's choice of invoices, shared by the billing page (browser) and the export (server); kept
// apart from app/billing/quickbooks.ts, whose CSV writer is not for the browser bundle.

/**
 * Which invoices a month's export holds: "By service period" (the default) — the invoices for services in the month
 * (their period starts in it; an invoice of no period, such as an opening balance, by its invoice date), so October's
 * service invoices issued on 1 November are in October's file — or "By invoice date" (issued in the month).
 * Payments are always those received in the month.
 */
export const QUICKBOOKS_BASES = ['service-period', 'invoice-date'] as const
export type QuickBooksBasis = (typeof QUICKBOOKS_BASES)[number]
export const QUICKBOOKS_BASIS_LABELS: Record<QuickBooksBasis, string> = {
  'service-period': 'By service period',
  'invoice-date': 'By invoice date',
}

/** `?basis=` as a basis: none (or anything else) is the default, by service period. */
export function readQuickBooksBasis(value: string | null): QuickBooksBasis {
  return value === 'invoice-date' ? 'invoice-date' : 'service-period'
}
