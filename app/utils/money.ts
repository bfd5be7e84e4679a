const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Cents as US dollars with cents: 12000 → "$120.00". */
export function formatCents(cents: number) {
  return usd.format(cents / 100)
}
