const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Cents as US dollars with cents: 12000 → "$120.00". */
export function formatCents(cents: number) {
  return usd.format(cents / 100)
}

/**
 * numerator / denominator rounded to the nearest integer, halves up; both non-negative integers. The one rounding of
 * amounts (docs/billing.md "Amounts"): invoice and quote lines, tax, price changes, pay and hours.
 */
export function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator))
}
