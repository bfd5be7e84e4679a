import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  MAX_GALLONS,
  MAX_RATE_CENTS,
  MIN_GALLONS,
  parseBodyNames,
  parseCoordinate,
  parseDog,
  parseFrequency,
  parseGallons,
  parseIndoor,
  parseLocalDate,
  parseMinutes,
  parseMoneyCents,
  parseRate,
  parseRateType,
  parseSalt,
  parseSanitizer,
  parseServiceWindow,
  parseStatus,
  parseSurface,
  parseWeekdays,
  parseYesNo,
} from './values'

const value = <T>(parsed: { ok: true; value: T } | { ok: false; problem: string }) => {
  if (!parsed.ok) throw new Error(parsed.problem)
  return parsed.value
}
const problem = (parsed: { ok: boolean; problem?: string }) => (parsed.ok ? null : parsed.problem)

/** Any text, and text made of the characters numbers, money and gallons are written with. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...'0123456789.,$€kKmgal -+/()~:xX'.split('')), maxLength: 25 }),
)

describe('money', () => {
  /** Every way an amount of `cents` is written in the exports and spreadsheets we read. */
  function writings(cents: number): string[] {
    const whole = Math.floor(cents / 100)
    const fraction = String(cents % 100).padStart(2, '0')
    const us = whole.toLocaleString('en-US')
    const eu = whole.toLocaleString('de-DE')
    const out = [`${whole}.${fraction}`, `$${us}.${fraction}`, `USD ${whole}.${fraction}`, ` $ ${us}.${fraction} `]
    out.push(`${eu},${fraction}`, `${fraction === '00' ? whole : `${whole}.${fraction}`} $`)
    if (cents % 100 === 0) out.push(String(whole), `$${us}`)
    if (cents % 10 === 0) out.push(`${whole}.${fraction.charAt(0)}`)
    return out
  }

  it('reads any amount up to $1,000,000.00 exactly to the cent, however it is written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RATE_CENTS }), (cents) => {
        for (const text of writings(cents)) expect([text, value(parseMoneyCents(text))]).toEqual([text, cents])
      }),
      { numRuns: 500 },
    )
  })

  it('refuses amounts above $1,000,000.00, negatives and fractions of a cent with a reason', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_RATE_CENTS + 1, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        for (const text of writings(cents)) expect(parseMoneyCents(text).ok).toBe(false)
      }),
    )
    expect(problem(parseMoneyCents('-5'))).toBe("the rate '-5' is negative; use an amount of $0 or more.")
    expect(problem(parseMoneyCents('($12.00)'))).toContain('negative')
    expect(problem(parseMoneyCents('85.005'))).toBe("the rate '85.005' has a fraction of a cent; round it to the cent.")
    expect(problem(parseMoneyCents('eighty'))).toBe(
      "the rate 'eighty' is not an amount of money (e.g. 85, $85.00 or $1,200.50).",
    )
    expect(problem(parseMoneyCents('1,20,0'))).toContain('not an amount')
  })

  it('reads the examples of the brief, and a rate with what it is per', () => {
    expect(['$85', '85.00', '$1,200.50'].map((text) => value(parseMoneyCents(text)))).toEqual([8500, 8500, 120050])
    expect(value(parseRate('$85/visit'))).toEqual({ cents: 8500, rateType: 'per-visit' })
    expect(value(parseRate('$160 per month'))).toEqual({ cents: 16000, rateType: 'monthly' })
    expect(value(parseRate('95'))).toEqual({ cents: 9500, rateType: null })
    expect(problem(parseRate('85/day'))).toContain('per visit or per month')
  })

  it('reads rate types as other products name them', () => {
    const cases: Array<[string, string]> = [
      ['Per Stop', 'per-visit'],
      ['per visit', 'per-visit'],
      ['Monthly', 'monthly'],
      ['Flat rate', 'monthly'],
      ['Monthly (chems included)', 'monthly'],
      ['Monthly + Chems', 'monthly-plus-chemicals'],
      ['Per visit plus chemicals', 'per-visit-plus-chemicals'],
    ]
    for (const [text, type] of cases) expect([text, value(parseRateType(text))]).toEqual([text, type])
    expect(parseRateType('Quarterly').ok).toBe(false)
  })
})

describe('gallons', () => {
  it('reads "15k", "15,000", "15000 gal", "15.5k" and their kin', () => {
    const cases: Array<[string, number]> = [
      ['15k', 15000],
      ['15K', 15000],
      ['15,000', 15000],
      ['15000 gal', 15000],
      ['15,000 gallons', 15000],
      ['15.5k', 15500],
      ['15.25 k', 15250],
      ['~20,000', 20000],
      ['15.000', 15000],
      ['15,5k', 15500],
      ['500', 500],
    ]
    for (const [text, gallons] of cases) expect([text, value(parseGallons(text))]).toEqual([text, gallons])
  })

  it('reads any size in range exactly as exports write it', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_GALLONS, max: MAX_GALLONS }), (gallons) => {
        const texts = [String(gallons), gallons.toLocaleString('en-US'), `${gallons} gal`, `${gallons} gallons`]
        if (gallons % 100 === 0) texts.push(`${gallons / 1000}k`)
        for (const text of texts) expect([text, value(parseGallons(text))]).toEqual([text, gallons])
      }),
      { numRuns: 500 },
    )
  })

  it('refuses sizes out of range, liters and words', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: MIN_GALLONS - 1 }), fc.integer({ min: MAX_GALLONS + 1, max: 10 ** 9 })),
        (gallons) => {
          expect(problem(parseGallons(String(gallons)))).toBe(
            `the pool size '${gallons}' is outside 100 to 2,000,000 gallons.`,
          )
        },
      ),
    )
    expect(problem(parseGallons('123456789012345678901234'))).toContain('is outside 100 to 2,000,000 gallons')
    expect(problem(parseGallons('56000 L'))).toContain('in liters')
    expect(problem(parseGallons('big'))).toBe(
      "the pool size 'big' is not a number of gallons (e.g. 15000, 15,000 or 15k).",
    )
  })
})

describe('days, frequency and the plan', () => {
  it('reads service days', () => {
    const cases: Array<[string, number[]]> = [
      ['Mon', [1]],
      ['monday', [1]],
      ['Tuesdays', [2]],
      ['1', [1]],
      ['7', [7]],
      ['0', [7]],
      ['Thurs.', [4]],
      ['SAT', [6]],
      ['Mon/Thu', [1, 4]],
      ['Monday and Thursday', [1, 4]],
      ['M, W, F', [1, 3, 5]],
    ]
    for (const [text, days] of cases) expect([text, value(parseWeekdays(text))]).toEqual([text, days])
    expect(problem(parseWeekdays('Someday'))).toBe(
      "the service day 'Someday' is not a day of the week (e.g. Monday or Mon).",
    )
    expect(parseWeekdays('8').ok).toBe(false)
  })

  it('reads frequencies as every 1 to 4 weeks, or as times a week', () => {
    const cases: Array<[string, object]> = [
      ['Weekly', { weeks: 1 }],
      ['Every week', { weeks: 1 }],
      ['Every 2 weeks', { weeks: 2 }],
      ['Bi-weekly', { weeks: 2 }],
      ['biweekly', { weeks: 2 }],
      ['Every other week', { weeks: 2 }],
      ['Fortnightly', { weeks: 2 }],
      ['every 3 wks', { weeks: 3 }],
      ['Monthly', { weeks: 4 }],
      ['Every 4 weeks', { weeks: 4 }],
      ['2', { weeks: 2 }],
      ['Twice a week', { timesPerWeek: 2 }],
      ['3x week', { timesPerWeek: 3 }],
    ]
    for (const [text, frequency] of cases) expect([text, value(parseFrequency(text))]).toEqual([text, frequency])
    expect(problem(parseFrequency('Every 6 weeks'))).toBe(
      "the frequency 'Every 6 weeks' is not one Pool Bud can plan: choose every 1 to 4 weeks.",
    )
    expect(parseFrequency('Daily').ok).toBe(false)
    expect(problem(parseFrequency('whenever'))).toContain('(e.g. Weekly, Every 2 weeks, Monthly)')
  })

  it('reads service windows, statuses and dates', () => {
    expect(value(parseServiceWindow('AM'))).toBe('morning')
    expect(value(parseServiceWindow('Afternoon'))).toBe('afternoon')
    expect(value(parseServiceWindow('Anytime'))).toBe('flexible')
    expect(value(parseStatus('Inactive'))).toBe('archived')
    expect(value(parseStatus('Active'))).toBe('active')
    expect(parseStatus('Lead').ok).toBe(false)
    expect(value(parseLocalDate('2026-01-05', 'start date'))).toBe('2026-01-05')
    expect(value(parseLocalDate('1/5/2026', 'start date'))).toBe('2026-01-05')
    expect(value(parseLocalDate('5/1/2026', 'start date', true))).toBe('2026-01-05')
    expect(problem(parseLocalDate('2/30/2026', 'start date'))).toBe(
      "the start date '2/30/2026' is not a date on the calendar.",
    )
  })
})

describe('yes/no, the location and the water', () => {
  it('reads "Dog"/"Yes"/"Y"/"true" as yes, and words about a dog as yes with a note', () => {
    for (const text of ['Yes', 'Y', 'y', 'true', 'TRUE', '1', 'x', 'Dog', 'dogs']) {
      expect([text, parseDog(text).dog]).toEqual([text, true])
    }
    for (const text of ['No', 'N', 'false', '0', 'none', 'No dog'])
      expect([text, parseDog(text).dog]).toEqual([text, false])
    expect(parseDog('2 dogs - friendly')).toEqual({ dog: true, note: 'Dog: 2 dogs - friendly' })
    expect(problem(parseYesNo('maybe', 'indoor'))).toBe("the indoor value 'maybe' is not yes or no.")
    expect(value(parseIndoor('Outdoor'))).toBe(false)
    expect(value(parseIndoor('Indoor'))).toBe(true)
    expect(value(parseSalt('Yes'))).toBe(true)
  })

  it('validates coordinates', () => {
    expect(value(parseCoordinate('26.1224', 'latitude'))).toBe(26.1224)
    expect(value(parseCoordinate('-80.1373', 'longitude'))).toBe(-80.1373)
    expect(problem(parseCoordinate('95', 'latitude'))).toBe("the latitude '95' is not between -90 and 90.")
    expect(problem(parseCoordinate('-181', 'longitude'))).toBe("the longitude '-181' is not between -180 and 180.")
    expect(problem(parseCoordinate('26,1224', 'latitude'))).toBe("the latitude '26,1224' is not a number.")
  })

  it('reads minutes on site, surfaces, sanitizers and bodies of water', () => {
    expect(['30', '45 min', '0:45', '1h', '1 hr 15 min', '1.5 hours'].map((t) => value(parseMinutes(t)))).toEqual([
      30, 45, 45, 60, 75, 90,
    ])
    expect(parseMinutes('0').ok).toBe(false)
    expect(['Plaster', 'Pebble Tec', 'Vinyl liner', 'Fiberglass'].map((t) => value(parseSurface(t)))).toEqual([
      'plaster',
      'plaster',
      'vinyl',
      'fiberglass',
    ])
    expect(problem(parseSurface('Tile'))).toContain('use Plaster, Vinyl or Fiberglass')
    expect(['Chlorine', 'Salt', 'Saltwater', 'Liquid chlorine'].map((t) => value(parseSanitizer(t)))).toEqual([
      'chlorine',
      'salt',
      'salt',
      'chlorine',
    ])
    expect(problem(parseSanitizer('Bromine'))).toBe(
      "the sanitizer 'Bromine' is not one Pool Bud plans for: use Chlorine or Salt, or leave it blank.",
    )
    expect(parseBodyNames('Pool & Spa')).toEqual(['Pool', 'Spa'])
    expect(parseBodyNames('hot tub')).toEqual(['Spa'])
    expect(parseBodyNames('In-ground')).toEqual(['Pool'])
    expect(parseBodyNames('Koi pond')).toEqual(['Koi pond'])
  })
})

describe('any text', () => {
  it('never throws: every reader answers with a value or a problem', () => {
    const readers: Array<(text: string) => unknown> = [
      parseMoneyCents,
      parseRate,
      parseRateType,
      parseGallons,
      parseWeekdays,
      parseFrequency,
      parseMinutes,
      (text) => parseCoordinate(text, 'latitude'),
      (text) => parseLocalDate(text, 'start date'),
      parseSurface,
      parseSanitizer,
      parseServiceWindow,
      parseStatus,
      parseIndoor,
      parseSalt,
    ]
    fc.assert(
      fc.property(anyText, (text) => {
        for (const read of readers) {
          const parsed = read(text) as { ok: boolean; problem?: string }
          expect(parsed.ok || (typeof parsed.problem === 'string' && parsed.problem.length > 0)).toBe(true)
        }
        expect(parseDog(text).dog).toBeTypeOf('boolean')
        expect(parseBodyNames(text).length).toBeGreaterThan(0)
      }),
      { numRuns: 1000 },
    )
  })
})
