import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Advice, applyDose, type Dose, dosingAdvice } from './dosing'
import { type PoolProfile, type Reading, readingStatus, SANITIZERS, SURFACES, targetsFor } from './targets'

const CHLORINE_PLASTER: PoolProfile = { volumeGallons: 15_000, sanitizer: 'chlorine', surface: 'plaster' }
const TEN_K: PoolProfile = { ...CHLORINE_PLASTER, volumeGallons: 10_000 }
const BALANCED: Reading = { ph: 7.5, chlorinePpm: 3, alkalinity: 100, cyanuricAcid: 40, calciumHardness: 300 }

function only(advice: Advice[] | null, parameter: string) {
  const found = advice?.filter((line) => line.parameter === parameter) ?? []
  expect(found).toHaveLength(1)
  return found[0] as Advice
}

describe('dosing advice for the visit page example (pH 7.9, chlorine 0.5, alkalinity 70, 15,000 gal)', () => {
  const reading: Reading = { ph: 7.9, chlorinePpm: 0.5, alkalinity: 70 }
  const advice = dosingAdvice(reading, CHLORINE_PLASTER)

  it('flags pH high and chlorine low', () => {
    const texts = readingStatus(reading, CHLORINE_PLASTER).map((status) => status.text)
    expect(texts).toEqual(['pH high', 'chlorine low', 'alkalinity low'])
  })

  it('doses liquid chlorine to 3 ppm: 2.5 ppm × 1.5 × 10.24 fl oz ≈ 38 fl oz of 12.5 %', () => {
    const chlorine = only(advice, 'chlorine') as Dose
    expect(chlorine.product).toBe('liquid chlorine')
    expect(chlorine.unit).toBe('fl oz')
    expect(chlorine.amount).toBeCloseTo(38.4, 0)
    expect(chlorine.text).toBe('Add 38.4 fl oz of liquid chlorine (12.5 %) to raise chlorine from 0.5 to 3 ppm.')
    expect(chlorine.assumption).toContain('12.5 % trade-percent')
  })

  it('doses muriatic acid for pH and bicarbonate for alkalinity', () => {
    const acid = only(advice, 'ph') as Dose
    expect(acid.product).toBe('muriatic acid')
    expect(acid.amount).toBeGreaterThan(5)
    expect(acid.amount).toBeLessThan(40)
    expect(acid.text).toMatch(/^Add [\d.]+ fl oz of muriatic acid \(31\.45 %\) to lower pH from 7\.9 to 7\.5\.$/)
    const bicarb = only(advice, 'alkalinity') as Dose
    // +30 ppm at 1.4 lb per 10 ppm per 10,000 gal → 6.3 lb for 15,000 gal.
    expect(bicarb).toMatchObject({ product: 'sodium bicarbonate', unit: 'lb' })
    expect(bicarb.amount).toBeCloseTo(6.3, 1)
  })
})

describe('the per-10,000-gallon figures of docs/product.md "Water"', () => {
  it('matches bicarbonate, acid, stabilizer, calcium chloride and salt', () => {
    const bicarb = only(dosingAdvice({ ...BALANCED, alkalinity: 70 }, TEN_K), 'alkalinity') as Dose
    expect(bicarb.amount).toBeCloseTo(4.2, 1) // 1.4 lb per 10 ppm → 30 ppm
    const acid = only(dosingAdvice({ ...BALANCED, alkalinity: 130 }, TEN_K), 'alkalinity') as Dose
    expect(acid.product).toBe('muriatic acid')
    expect(acid.amount).toBeCloseTo(76.8, 0) // 3 × 25.6 fl oz for −30 ppm
    const cya = only(dosingAdvice({ ...BALANCED, cyanuricAcid: 20, chlorinePpm: 3 }, TEN_K), 'cyanuricAcid') as Dose
    expect(cya.amount * 16).toBeCloseTo(26.7, 0) // 13.35 oz per 10 ppm → 20 ppm
    const calcium = only(dosingAdvice({ ...BALANCED, calciumHardness: 190 }, TEN_K), 'calciumHardness') as Dose
    expect(calcium.amount).toBeGreaterThan(13) // 110 ppm at 1.2–1.25 lb per 10 ppm
    expect(calcium.amount).toBeLessThan(14)
    const salt = only(
      dosingAdvice({ ...BALANCED, cyanuricAcid: 70, alkalinity: 70, salt: 2200 }, { ...TEN_K, sanitizer: 'salt' }),
      'salt',
    ) as Dose
    expect(salt.amount).toBeCloseTo(83.5, 0) // 8.35 lb per 100 ppm → 1,000 ppm
  })

  it('switches liquid chlorine to gallons past one gallon', () => {
    const advice = only(dosingAdvice({ ...BALANCED, chlorinePpm: 0 }, { ...TEN_K, volumeGallons: 60_000 }), 'chlorine')
    expect(advice).toMatchObject({ kind: 'dose', unit: 'gal' })
    expect(advice.text).toMatch(/^Add [\d.]+ gallons of liquid chlorine/)
  })
})

describe('what cannot be dosed', () => {
  it('advises a partial drain to lower stabilizer, hardness or salt', () => {
    const advice = dosingAdvice({ ...BALANCED, cyanuricAcid: 100, chlorinePpm: 8, calciumHardness: 600 }, TEN_K)
    expect(only(advice, 'cyanuricAcid')).toMatchObject({ kind: 'drain', percent: 60 })
    expect(only(advice, 'calciumHardness')).toMatchObject({ kind: 'drain', percent: 50 })
    expect(only(advice, 'calciumHardness').text).toBe(
      'Partial drain: replace about 50 % of the water to lower calcium hardness from 600 to 300 ppm.',
    )
  })

  it('advises waiting when chlorine is too high', () => {
    expect(only(dosingAdvice({ ...BALANCED, chlorinePpm: 15 }, TEN_K), 'chlorine')).toMatchObject({ kind: 'hold' })
  })

  it('gives nothing for water in range and no advice without a volume', () => {
    expect(dosingAdvice(BALANCED, TEN_K)).toEqual([])
    expect(dosingAdvice(BALANCED, { ...TEN_K, volumeGallons: null })).toBeNull()
  })
})

const profiles = fc.record({
  volumeGallons: fc.integer({ min: 1_000, max: 100_000 }),
  sanitizer: fc.constantFrom(...SANITIZERS),
  surface: fc.constantFrom(...SURFACES),
  indoor: fc.boolean(),
})
const readings = fc.record({
  ph: fc.double({ min: 6.4, max: 8.6, noNaN: true }),
  chlorinePpm: fc.double({ min: 0, max: 20, noNaN: true }),
  alkalinity: fc.double({ min: 50, max: 300, noNaN: true }),
  cyanuricAcid: fc.option(fc.double({ min: 0, max: 120, noNaN: true }), { nil: null }),
  calciumHardness: fc.option(fc.double({ min: 0, max: 1_000, noNaN: true }), { nil: null }),
  salt: fc.option(fc.double({ min: 0, max: 6_000, noNaN: true }), { nil: null }),
})

describe('properties of the advice', () => {
  it('every dose, applied by the same chemistry, brings its parameter into range', () => {
    fc.assert(
      fc.property(readings, profiles, (reading, profile) => {
        for (const advice of dosingAdvice(reading, profile) ?? []) {
          if (advice.kind !== 'dose') continue
          const after = applyDose(reading, advice, profile.volumeGallons)
          const status = readingStatus(after, profile).find((line) => line.parameter === advice.parameter)
          expect(status?.level, `${advice.text} → ${JSON.stringify(after)}`).toBe('in range')
        }
      }),
    )
  })

  it('amounts and percentages are positive, finite numbers and every out-of-range value gets advice', () => {
    fc.assert(
      fc.property(readings, profiles, (reading, profile) => {
        const advice = dosingAdvice(reading, profile) ?? []
        for (const line of advice) {
          if (line.kind === 'dose') expect(Number.isFinite(line.amount) && line.amount > 0).toBe(true)
          if (line.kind === 'drain') expect(line.percent > 0 && line.percent <= 100).toBe(true)
          expect(line.text).not.toMatch(/NaN|Infinity|-\d/)
        }
        const outOfRange = readingStatus(reading, profile).filter((status) => status.level !== 'in range')
        expect(advice.map((line) => line.parameter).sort()).toEqual(outOfRange.map((s) => s.parameter).sort())
      }),
    )
  })

  it('chlorine targets follow stabilizer (≈ 7.5 % of CYA)', () => {
    expect(targetsFor(CHLORINE_PLASTER, 40).chlorine).toEqual({ min: 2, max: 10, target: 3 })
    expect(targetsFor(CHLORINE_PLASTER, 80).chlorine).toEqual({ min: 4, max: 10, target: 6 })
  })
})
