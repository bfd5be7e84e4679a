// Tax per rate (issue 31 item 9; docs/billing.md, "Tax"): lines grouped by their location's rate, one tax line per
// rate rounded half up on its group's subtotal, the invoice's tax the sum of those lines.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { draftInvoice, type PlanToBill } from './invoice-draft'
import { flatTax, type NamedRate, NO_TAX, percentText, type TaxRule, taxLineDescription, taxLinesFor } from './tax'

const TAMPA: NamedRate = { id: 'tampa', name: 'Tampa', milliPercent: 7500 }
const COUNTY: NamedRate = { id: 'county', name: 'Hillsborough County', milliPercent: 8500 }
const NOVEMBER = { start: '2026-11-01', end: '2026-11-30' }

/** round_half_up(base × milliPercent / 100,000), in exact integers. */
const roundHalfUp = (base: number, milliPercent: number) => Math.floor((2 * base * milliPercent + 100_000) / 200_000)

function perVisit(id: string, locationId: string, rateCents: number, visits: number): PlanToBill {
  return {
    id,
    locationId,
    place: `${id} Palm Ave`,
    rateType: 'per-visit',
    rateCents,
    completedVisits: visits,
    frequencyWeeks: 1,
    weekday: 1,
    startsOn: '2026-01-05',
    endsOn: null,
  }
}

describe('tax lines', () => {
  it('names the rate and its percent', () => {
    expect(taxLineDescription(TAMPA)).toBe('Tampa 7.5 % tax')
    expect(taxLineDescription({ name: 'Sales tax', milliPercent: 7250 })).toBe('Sales tax 7.25 %')
    expect(percentText(8875)).toBe('8.875')
    expect(percentText(7000)).toBe('7')
  })

  it('bills a customer with pools under two rates one tax line per rate, each on its own pools', () => {
    const rule: TaxRule = { defaultRate: TAMPA, locationRates: { county: COUNTY } }
    const draft = draftInvoice({
      period: NOVEMBER,
      plans: [perVisit('a', 'city', 4333, 3), perVisit('b', 'county', 5555, 1)],
      chemicals: [],
      itemizeChemicals: true,
      tax: rule,
      creditCents: 0,
    })
    const taxes = draft?.lines.filter((line) => line.kind === 'tax')
    // $129.99 × 7.5 % = $9.74925 → $9.75; $55.55 × 8.5 % = $4.72175 → $4.72.
    expect(taxes?.map((line) => [line.description, line.amountCents, line.taxMilliPercent])).toEqual([
      ['Tampa 7.5 % tax', 975, 7500],
      ['Hillsborough County 8.5 % tax', 472, 8500],
    ])
    expect(draft?.taxCents).toBe(1447)
    expect(draft?.totalCents).toBe(12999 + 5555 + 1447)
  })

  it('taxes a line of no location at the rate every pool shares, else the default; none for a 0 % rate', () => {
    const lines = [
      { amountCents: 10000, locationId: 'county' },
      { amountCents: -1000, locationId: null },
    ]
    expect(taxLinesFor(lines, { defaultRate: TAMPA, locationRates: { county: COUNTY } })).toEqual([
      {
        rateId: 'county',
        description: 'Hillsborough County 8.5 % tax',
        milliPercent: 8500,
        baseCents: 9000,
        amountCents: 765,
      },
    ])
    const two = [...lines, { amountCents: 2000, locationId: 'city' }]
    expect(
      taxLinesFor(two, { defaultRate: TAMPA, locationRates: { county: COUNTY } }).map((t) => [t.rateId, t.baseCents]),
    ).toEqual([
      ['county', 10000],
      ['tampa', 1000],
    ])
    expect(taxLinesFor(lines, NO_TAX)).toEqual([])
    expect(taxLinesFor(lines, flatTax(0))).toEqual([])
  })

  it('for any lines over any rates: each tax line is its group rounded half up once, and the tax their sum', () => {
    const rate = fc.record({ milliPercent: fc.integer({ min: 0, max: 30_000 }), name: fc.constantFrom('A', 'B tax') })
    fc.assert(
      fc.property(
        fc.array(rate, { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(3), { nil: null }),
        fc.array(
          fc.record({
            location: fc.option(fc.nat(5), { nil: null }),
            amountCents: fc.integer({ min: -5000, max: 900_000 }),
          }),
          { maxLength: 20 },
        ),
        fc.array(fc.option(fc.nat(3), { nil: null }), { minLength: 6, maxLength: 6 }),
        (rates, defaultIndex, lines, locationRate) => {
          const named = rates.map((r, i): NamedRate => ({ id: `r${i}`, ...r }))
          const pick = (i: number | null) => (i === null ? null : (named[i % named.length] ?? null))
          const locationRates: Record<string, NamedRate> = {}
          locationRate.forEach((i, location) => {
            const r = pick(i)
            if (r) locationRates[`loc${location}`] = r
          })
          const rule: TaxRule = { defaultRate: pick(defaultIndex), locationRates }
          const taxable = lines.map((l) => ({
            amountCents: l.amountCents,
            locationId: l.location === null ? null : `loc${l.location}`,
          }))
          const taxes = taxLinesFor(taxable, rule)
          // Each rate at most once, on the lines of its group, rounded half up once.
          expect(new Set(taxes.map((t) => t.rateId)).size).toBe(taxes.length)
          const located = taxable.filter((l) => l.locationId !== null)
          const ratesUsed = new Set(
            located.map((l) => (locationRates[l.locationId ?? ''] ?? rule.defaultRate)?.id ?? null),
          )
          const shared = ratesUsed.size === 1 ? [...ratesUsed][0] : (rule.defaultRate?.id ?? null)
          for (const tax of taxes) {
            const base = taxable
              .filter((l) =>
                l.locationId === null
                  ? shared === tax.rateId
                  : ((locationRates[l.locationId] ?? rule.defaultRate)?.id ?? null) === tax.rateId,
              )
              .reduce((sum, l) => sum + l.amountCents, 0)
            expect(tax.baseCents).toBe(base)
            expect(base).toBeGreaterThan(0)
            expect(tax.amountCents).toBe(roundHalfUp(base, tax.milliPercent))
          }
          // A rate with a positive group and a positive tax is never left out.
          for (const r of named) {
            const group = taxable.filter((l) =>
              l.locationId === null
                ? shared === r.id
                : ((locationRates[l.locationId] ?? rule.defaultRate)?.id ?? null) === r.id,
            )
            const base = group.reduce((sum, l) => sum + l.amountCents, 0)
            const owed = base > 0 ? roundHalfUp(base, r.milliPercent) : 0
            expect(taxes.find((t) => t.rateId === r.id)?.amountCents ?? 0).toBe(owed)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
