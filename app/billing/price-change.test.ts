// "Change prices" arithmetic against worked examples: the new rate to the cent (half up), the floor at $0, the
// month a change first bills, and the typed amounts read exactly.
import { describe, expect, it } from 'vitest'
import { describeIncrease, firstBilledMonth, newRate, parseHundredths } from './price-change'

describe('newRate', () => {
  it('raises by a percent, rounding each rate to the cent half up', () => {
    expect(newRate(10000, { kind: 'percent', basisPoints: 500 })).toBe(10500)
    // $45.10 × 1.05 = $47.355 → $47.36 (half up); $45.30 × 1.05 = $47.565 → $47.57.
    expect(newRate(4510, { kind: 'percent', basisPoints: 500 })).toBe(4736)
    expect(newRate(4530, { kind: 'percent', basisPoints: 500 })).toBe(4757)
    // 2.5 %: $95.00 → $97.375 → $97.38.
    expect(newRate(9500, { kind: 'percent', basisPoints: 250 })).toBe(9738)
  })

  it('lowers by a percent above −100 %, never below zero', () => {
    expect(newRate(10000, { kind: 'percent', basisPoints: -1000 })).toBe(9000)
    // −99.99 % of $1.00 = $0.0001 → $0.00.
    expect(newRate(100, { kind: 'percent', basisPoints: -9999 })).toBe(0)
    expect(newRate(0, { kind: 'percent', basisPoints: 500 })).toBe(0)
  })

  it('adds dollars, and a decrease larger than the rate stops at $0.00', () => {
    expect(newRate(9500, { kind: 'amount', cents: 500 })).toBe(10000)
    expect(newRate(9500, { kind: 'amount', cents: -250 })).toBe(9250)
    expect(newRate(2000, { kind: 'amount', cents: -5000 })).toBe(0)
  })
})

describe('firstBilledMonth', () => {
  it('is the month of the date: wholly from a 1st, in part from a later day (docs/billing.md)', () => {
    expect(firstBilledMonth('2026-08-01')).toEqual({ start: '2026-08-01', end: '2026-08-31' })
    expect(firstBilledMonth('2026-08-02')).toEqual({ start: '2026-08-01', end: '2026-08-31' })
    expect(firstBilledMonth('2026-12-31')).toEqual({ start: '2026-12-01', end: '2026-12-31' })
    expect(firstBilledMonth('2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-02-29' })
  })
})

describe('parseHundredths and describeIncrease', () => {
  it('reads percents and dollars exactly, signs included', () => {
    expect(parseHundredths('5')).toBe(500)
    expect(parseHundredths('2.5')).toBe(250)
    expect(parseHundredths('-10.25')).toBe(-1025)
    expect(parseHundredths('−3')).toBe(-300)
    expect(parseHundredths('+4.1 %')).toBe(410)
    expect(parseHundredths('$12.99')).toBe(1299)
    expect(parseHundredths('-$2.50')).toBe(-250)
    // 0.29 is 29 hundredths, not 28.999…
    expect(parseHundredths('0.29')).toBe(29)
    for (const bad of ['', 'five', '1.234', '1,5', '--1']) expect(parseHundredths(bad), bad).toBeNull()
  })

  it('names an increase as the preview says it', () => {
    expect(describeIncrease({ kind: 'percent', basisPoints: 500 })).toBe('+5 %')
    expect(describeIncrease({ kind: 'percent', basisPoints: -250 })).toBe('−2.5 %')
    expect(describeIncrease({ kind: 'percent', basisPoints: 1025 })).toBe('+10.25 %')
    expect(describeIncrease({ kind: 'amount', cents: 1000 })).toBe('+$10.00')
    expect(describeIncrease({ kind: 'amount', cents: -250 })).toBe('−$2.50')
  })
})
