import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineAmountCents } from './line-math'
import { depositCents, type QuoteLineInput, quoteStatus, quoteTotals } from './quote-math'

const line = fc.record({
  id: fc.uuid(),
  quantityHundredths: fc.integer({ min: 1, max: 100_000 }),
  unitPriceCents: fc.integer({ min: 0, max: 500_000 }),
  taxable: fc.boolean(),
  optional: fc.boolean(),
}) satisfies fc.Arbitrary<QuoteLineInput>

describe('quote totals', () => {
  it('are the sums of the lines counted: required lines, and optional lines only when ticked', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.array(fc.boolean(), { maxLength: 20 }),
        (lines, rate, ticks) => {
          const ticked = new Set(lines.filter((l, i) => l.optional && ticks[i]).map((l) => l.id))
          const totals = quoteTotals(lines, rate, ticked)
          const counted = lines.filter((l) => !l.optional || ticked.has(l.id))
          const amounts = counted.map((l) => lineAmountCents(l.quantityHundredths, l.unitPriceCents))
          expect(totals.subtotalCents).toBe(amounts.reduce((a, b) => a + b, 0))
          expect(totals.totalCents).toBe(totals.subtotalCents + totals.taxCents)
          const taxable = counted
            .filter((l) => l.taxable)
            .reduce((sum, l) => sum + lineAmountCents(l.quantityHundredths, l.unitPriceCents), 0)
          // Tax is rounded once, half up, on the taxable lines' sum.
          expect(Math.abs(totals.taxCents - (taxable * rate) / 100_000)).toBeLessThanOrEqual(0.5)
          // An optional line left unticked changes nothing; ticking every line counts them all.
          const none = quoteTotals(
            lines.filter((l) => !l.optional),
            rate,
          )
          expect(quoteTotals(lines, rate).subtotalCents).toBe(none.subtotalCents)
        },
      ),
    )
  })

  it('rounds each line half up to the cent: 2.5 × $3.33 = $8.33', () => {
    const totals = quoteTotals(
      [{ id: 'a', quantityHundredths: 250, unitPriceCents: 333, taxable: false, optional: false }],
      0,
    )
    expect(totals).toEqual({ subtotalCents: 833, taxCents: 0, totalCents: 833 })
  })

  it('takes a deposit as a whole percent (half up) or an amount, never more than the total', () => {
    expect(depositCents({ kind: 'percent', value: 30 }, 10_005)).toBe(3002)
    expect(depositCents({ kind: 'amount', value: 50_000 }, 10_000)).toBe(10_000)
    expect(depositCents({ kind: 'none', value: 0 }, 10_000)).toBe(0)
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000_000 }), (pct, total) => {
        const cents = depositCents({ kind: 'percent', value: pct }, total)
        expect(cents).toBeGreaterThanOrEqual(0)
        expect(cents).toBeLessThanOrEqual(total)
        expect(Math.abs(cents - (total * pct) / 100)).toBeLessThanOrEqual(0.5)
      }),
    )
  })

  it('shows a sent quote past its Valid until as Expired, whatever the hour', () => {
    expect(quoteStatus('sent', '2026-11-01', '2026-11-02')).toBe('Expired')
    expect(quoteStatus('viewed', '2026-11-02', '2026-11-02')).toBe('Viewed')
    expect(quoteStatus('approved', '2026-11-01', '2026-11-02')).toBe('Approved')
    expect(quoteStatus('draft', '2026-11-01', '2026-11-02')).toBe('Draft')
  })
})
