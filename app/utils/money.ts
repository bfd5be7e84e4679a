const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Cents as US dollars with cents: 12000 → "$120.00". */
export function formatCents(cents: number) {
  return usd.format(cents / 100)
}

/** SPEC §9: each completed job is estimated at 12000 cents ($120) for the forecast and 'invoiced'. */
export const REVENUE_PER_JOB_CENTS = 12_000
