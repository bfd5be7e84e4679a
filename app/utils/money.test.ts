import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { divideHalfUp, formatCents } from './money'

describe('divideHalfUp', () => {
  it('rounds halves up and everything else to the nearest integer', () => {
    expect(divideHalfUp(8325, 1000)).toBe(8)
    expect(divideHalfUp(5, 10)).toBe(1)
    expect(divideHalfUp(4, 10)).toBe(0)
    expect(divideHalfUp(15, 10)).toBe(2)
    expect(divideHalfUp(0, 7)).toBe(0)
  })

  it('is the nearest integer to the exact quotient, a half going up', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 12 }), (numerator, denominator) => {
        const q = divideHalfUp(numerator, denominator)
        // q − ½ ≤ n/d < q + ½, in integers: 2n ≥ (2q − 1)d and 2n < (2q + 1)d.
        expect(2 * numerator).toBeGreaterThanOrEqual((2 * q - 1) * denominator)
        expect(2 * numerator).toBeLessThan((2 * q + 1) * denominator)
      }),
    )
  })
})

describe('formatCents', () => {
  it('shows dollars with cents', () => {
    expect(formatCents(12000)).toBe('$120.00')
    expect(formatCents(5)).toBe('$0.05')
  })
})
