// Tax per rate (issue 31 item 9; docs/billing.md, "Tax"; docs/decisions/052-tax-rates.md). Each service location uses
// one named rate — the company's default unless it names its own. An invoice's taxable lines (every line but tax) are
// grouped by the rate of the location they were done at; a line of no location (added by hand, a discount, an opening
// balance) goes with the rate every located line shares, or the company's default when they differ or there are none.
// Each group is taxed once: its subtotal × the rate, rounded half up; a group whose subtotal is not above $0.00 has no
// tax line. The invoice's tax is the sum of its tax lines, and the line keeps the rate's name and percent as they were.
import { taxOf } from './line-math'

/** A named rate in thousandths of a percent (7250 = 7.25 %). */
export type NamedRate = { id: string; name: string; milliPercent: number }

/** How an invoice finds each line's rate: the locations' own rates, and the default for the rest. */
export type TaxRule = {
  defaultRate: NamedRate | null
  /** Location id → its own rate; a location absent here uses the default. */
  locationRates?: Record<string, NamedRate>
}

export const NO_TAX: TaxRule = { defaultRate: null }

/** A rule with one rate for every line: the company's default and no location of its own. */
export function flatTax(milliPercent: number, name = 'Sales tax'): TaxRule {
  return milliPercent > 0 ? { defaultRate: { id: 'default', name, milliPercent } } : NO_TAX
}

/** 7250 → "7.25", 7000 → "7", 8875 → "8.875". */
export function percentText(milliPercent: number): string {
  const whole = Math.floor(milliPercent / 1000)
  const thousandths = milliPercent % 1000
  if (thousandths === 0) return String(whole)
  return `${whole}.${String(thousandths).padStart(3, '0')}`.replace(/0+$/, '')
}

/** "Tampa 7.5 % tax"; a name already ending in "tax" is not repeated: "Sales tax 7.25 %". */
export function taxLineDescription(rate: { name: string; milliPercent: number }) {
  const name = rate.name.trim()
  return `${name} ${percentText(rate.milliPercent)} %${/\btax$/i.test(name) ? '' : ' tax'}`
}

export type TaxableLine = { amountCents: number; locationId: string | null }

export type TaxLine = {
  rateId: string
  description: string
  milliPercent: number
  /** The group's subtotal the tax is on. */
  baseCents: number
  amountCents: number
}

/** The rate a located line bills at. */
function rateAt(rule: TaxRule, locationId: string) {
  return rule.locationRates?.[locationId] ?? rule.defaultRate
}

/**
 * One tax line per rate in use on the invoice, in the order the rates first appear on its lines; none for a 0 % rate
 * or a group that adds up to $0.00 or less.
 */
export function taxLinesFor(lines: TaxableLine[], rule: TaxRule): TaxLine[] {
  const located = new Map<string, NamedRate | null>()
  for (const line of lines) {
    if (line.locationId !== null && !located.has(line.locationId)) {
      located.set(line.locationId, rateAt(rule, line.locationId))
    }
  }
  const distinct = new Set([...located.values()].map((rate) => rate?.id ?? null))
  const shared = distinct.size === 1 ? ([...located.values()][0] ?? null) : rule.defaultRate
  const groups = new Map<string, { rate: NamedRate; baseCents: number }>()
  for (const line of lines) {
    const rate = line.locationId === null ? shared : (located.get(line.locationId) ?? null)
    if (!rate) continue
    const group = groups.get(rate.id)
    if (group) group.baseCents += line.amountCents
    else groups.set(rate.id, { rate, baseCents: line.amountCents })
  }
  const taxes: TaxLine[] = []
  for (const { rate, baseCents } of groups.values()) {
    // One tax arithmetic for invoices and quotes (app/billing/quote-math.ts); 0 on a 0 % rate or a group ≤ $0.00.
    const amountCents = taxOf(baseCents, rate.milliPercent)
    if (amountCents === 0) continue
    taxes.push({
      rateId: rate.id,
      description: taxLineDescription(rate),
      milliPercent: rate.milliPercent,
      baseCents,
      amountCents,
    })
  }
  return taxes
}

/** Where a rate is used, as Settings says it: "12 Palm Ave (Jose O'Neil), 4 Bay Rd (Ann Lee) and 3 more". */
export function usedByText(places: string[], count: number) {
  const more = count - places.length
  return more > 0 ? `${places.join(', ')} and ${more} more` : places.join(', ')
}
