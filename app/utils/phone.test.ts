// Numbers are shown as people write them, the same every time a page draws them (formatPhone remembers what it
// formatted: the customer list draws the same numbers on every load).
import { describe, expect, it } from 'vitest'
import { formatPhone, toE164 } from './phone'

describe('formatPhone', () => {
  it('shows a US number nationally and a number abroad internationally, the same on every call', () => {
    for (let i = 0; i < 3; i++) {
      expect(formatPhone('+18135550101')).toBe('(813) 555-0101')
      expect(formatPhone('+442071838750')).toBe('+44 20 7183 8750')
    }
  })

  it('depends on the company’s country, not on which country asked first', () => {
    expect(formatPhone('+442071838750', 'GB')).toBe('020 7183 8750')
    expect(formatPhone('+442071838750', 'US')).toBe('+44 20 7183 8750')
    expect(formatPhone('+442071838750', 'GB')).toBe('020 7183 8750')
  })

  it('shows a value that is not E.164 as it is', () => {
    expect(formatPhone('call the office')).toBe('call the office')
    expect(formatPhone('813 555 0101')).toBe('813 555 0101')
  })

  it('keeps answering correctly past the numbers it remembers', () => {
    const numbers = Array.from({ length: 6_000 }, (_, i) => `+1813555${String(i % 10_000).padStart(4, '0')}`)
    for (const number of numbers) expect(formatPhone(number)).toBe(`(813) 555-${number.slice(-4)}`)
    expect(formatPhone('+18135550101')).toBe('(813) 555-0101')
    expect(toE164('(813) 555-0101')).toBe('+18135550101')
  })
})
