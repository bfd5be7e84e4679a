import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countSegments, isGsm7, splitIntoSegments } from './sms-segments'

// The tables written out independently of the module, row by row as 3GPP TS 23.038 prints them (ESC left out).
const BASIC_ROWS = [
  '@£$¥èéùìòÇ\nØø\rÅå',
  'Δ_ΦΓΛΩΠΨΣΘΞÆæßÉ',
  ' !"#¤%&\'()*+,-./',
  '0123456789:;<=>?',
  '¡ABCDEFGHIJKLMNO',
  'PQRSTUVWXYZÄÖÑÜ§',
  '¿abcdefghijklmno',
  'pqrstuvwxyzäöñüà',
]
const BASIC = Array.from(BASIC_ROWS.join(''))
const EXTENSION = Array.from('\f^{}\\[~]|€')

const basicText = fc.array(fc.constantFrom(...BASIC), { minLength: 1, maxLength: 160 }).map((chars) => chars.join(''))
const gsmText = fc.array(fc.constantFrom(...BASIC, ...EXTENSION), { maxLength: 500 }).map((chars) => chars.join(''))
// Characters outside GSM-7: accented letters the table lacks, curly quotes, CJK, emoji (surrogate pairs).
const nonGsmChar = fc.constantFrom('ç', 'á', '’', '“', 'ł', '日', '😀', '🏊', '\u{1F469}\u{200D}\u{1F527}')
const anyText = fc
  .array(fc.oneof(fc.constantFrom(...BASIC, ...EXTENSION), nonGsmChar), { maxLength: 400 })
  .map((chars) => chars.join(''))

describe('SMS segments', () => {
  it('knows the 127 basic characters and 10 extension characters of GSM-7, and nothing else', () => {
    expect(BASIC).toHaveLength(127)
    expect(isGsm7(BASIC.join('') + EXTENSION.join(''))).toBe(true)
    for (const character of ['ç', 'á', '`', '’', '\t', '😀', '\u00a0']) expect(isGsm7(character)).toBe(false)
  })

  it.each([
    ['', 'GSM-7', 0, 0],
    ['Hi Dana, Sam is on the way.', 'GSM-7', 27, 1],
    ['a'.repeat(160), 'GSM-7', 160, 1],
    ['a'.repeat(161), 'GSM-7', 161, 2],
    ['a'.repeat(306), 'GSM-7', 306, 2],
    ['a'.repeat(307), 'GSM-7', 307, 3],
    ['€'.repeat(80), 'GSM-7', 160, 1],
    ['€'.repeat(81), 'GSM-7', 162, 2],
    ['é'.repeat(160), 'GSM-7', 160, 1],
    ['ç'.repeat(70), 'UCS-2', 70, 1],
    ['ç'.repeat(71), 'UCS-2', 71, 2],
    ['ç'.repeat(134), 'UCS-2', 134, 2],
    ['ç'.repeat(135), 'UCS-2', 135, 3],
    [`${'a'.repeat(159)}’`, 'UCS-2', 160, 3],
    ['😀'.repeat(35), 'UCS-2', 70, 1],
  ])('%j is %s, %i units, %i segments', (text, encoding, units, segments) => {
    expect(countSegments(text)).toEqual({ encoding, units, segments })
  })

  it('keeps an escape pair in one part: 152 septets then € starts the second part', () => {
    const text = `${'a'.repeat(152)}€${'b'.repeat(10)}`
    expect(splitIntoSegments(text)).toEqual(['a'.repeat(152), `€${'b'.repeat(10)}`])
  })

  it('never splits a surrogate pair: 66 units then an emoji moves whole to the next part', () => {
    const text = `${'ç'.repeat(66)}😀xxxx`
    expect(splitIntoSegments(text)).toEqual(['ç'.repeat(66), '😀xxxx'])
  })

  it('a GSM-7 text of at most 160 basic characters is one segment', () => {
    fc.assert(
      fc.property(basicText, (text) => {
        expect(countSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 1 })
      }),
    )
  })

  it('any character outside GSM-7 switches the whole text to UCS-2', () => {
    fc.assert(
      fc.property(gsmText, nonGsmChar, fc.nat(), (text, odd, at) => {
        const position = at % (text.length + 1)
        const mixed = text.slice(0, position) + odd + text.slice(position)
        const count = countSegments(mixed)
        expect(count.encoding).toBe('UCS-2')
        expect(count.units).toBe(mixed.length)
      }),
    )
  })

  it('the segment count never decreases as a text grows', () => {
    fc.assert(
      fc.property(anyText, anyText, (text, more) => {
        expect(countSegments(text + more).segments).toBeGreaterThanOrEqual(countSegments(text).segments)
      }),
    )
  })

  it('the parts give the text back, each fits its part, and none splits a character', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const parts = splitIntoSegments(text)
        expect(parts.join('')).toBe(text)
        const { encoding, units } = countSegments(text)
        const capacity = parts.length === 1 ? (encoding === 'GSM-7' ? 160 : 70) : encoding === 'GSM-7' ? 153 : 67
        for (const part of parts) {
          expect(part.length).toBeGreaterThan(0)
          // No part starts with a low surrogate or ends with a high one.
          expect(part).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/)
          const size =
            encoding === 'GSM-7'
              ? Array.from(part).reduce((sum, c) => sum + (EXTENSION.includes(c) ? 2 : 1), 0)
              : part.length
          expect(size).toBeLessThanOrEqual(capacity)
        }
        // Greedy packing wastes at most one unit per part, so the count is the least possible.
        const perPart = encoding === 'GSM-7' ? 153 : 67
        if (parts.length > 1) expect(parts.length).toBeLessThanOrEqual(Math.ceil(units / (perPart - 1)))
      }),
    )
  })
})
