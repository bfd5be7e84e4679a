import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { balanceStatus, carbonateAlkalinity, saturationIndex, waterBalance } from './balance'

describe('the saturation index', () => {
  it('gives the worked example of docs/product.md "Water": pH 7.5, 84 °F, CH 300, TA 80, CYA 50 → ≈ −0.06, Balanced', () => {
    const reading = { ph: 7.5, waterTempF: 84, calciumHardness: 300, alkalinity: 80, cyanuricAcid: 50 }
    expect(carbonateAlkalinity(80, 50, 7.5)).toBeCloseTo(64, 0)
    const balance = waterBalance(reading)
    expect(balance?.index).toBeGreaterThanOrEqual(-0.11)
    expect(balance?.index).toBeLessThanOrEqual(-0.01)
    expect(balance?.status).toBe('Balanced')
  })

  it('calls soft, acidic, cold water corrosive and hard, alkaline, hot water scaling', () => {
    expect(
      waterBalance({ ph: 7.0, waterTempF: 60, calciumHardness: 100, alkalinity: 50, cyanuricAcid: 30 })?.status,
    ).toBe('Corrosive')
    expect(
      waterBalance({ ph: 8.2, waterTempF: 95, calciumHardness: 600, alkalinity: 150, cyanuricAcid: 30 })?.status,
    ).toBe('Scaling')
  })

  it('rises 0.1 per 0.1 of pH and falls with salt (ionic strength)', () => {
    const base = { ph: 7.5, waterTempF: 84, calciumHardness: 300, alkalinity: 80, cyanuricAcid: 0 }
    const at75 = saturationIndex(base) ?? Number.NaN
    expect((saturationIndex({ ...base, ph: 7.6 }) ?? Number.NaN) - at75).toBeCloseTo(0.1, 5)
    expect(saturationIndex({ ...base, salt: 3200 }) ?? Number.NaN).toBeLessThan(at75)
  })

  it('is not given when hardness, stabilizer or temperature is missing, or carbonate alkalinity is gone', () => {
    expect(waterBalance({ ph: 7.5, alkalinity: 80, cyanuricAcid: 50, waterTempF: 84 })).toBeNull()
    expect(waterBalance({ ph: 7.5, alkalinity: 80, calciumHardness: 300, waterTempF: 84 })).toBeNull()
    expect(waterBalance({ ph: 7.5, alkalinity: 80, calciumHardness: 300, cyanuricAcid: 50 })).toBeNull()
    expect(
      waterBalance({ ph: 7.5, alkalinity: 10, calciumHardness: 300, cyanuricAcid: 100, waterTempF: 84 }),
    ).toBeNull()
  })

  it('maps the index to a status at ±0.3', () => {
    expect(balanceStatus(-0.31)).toBe('Corrosive')
    expect(balanceStatus(-0.3)).toBe('Balanced')
    expect(balanceStatus(0.3)).toBe('Balanced')
    expect(balanceStatus(0.31)).toBe('Scaling')
  })

  it('is a finite number or null for any stored reading', () => {
    fc.assert(
      fc.property(
        fc.record({
          ph: fc.double({ min: 0, max: 14, noNaN: true }),
          alkalinity: fc.double({ min: 0, max: 500, noNaN: true }),
          calciumHardness: fc.double({ min: 0, max: 2000, noNaN: true }),
          cyanuricAcid: fc.double({ min: 0, max: 300, noNaN: true }),
          waterTempF: fc.double({ min: 32, max: 110, noNaN: true }),
          salt: fc.double({ min: 0, max: 10_000, noNaN: true }),
        }),
        (reading) => {
          const balance = waterBalance(reading)
          if (balance) expect(Number.isFinite(balance.index)).toBe(true)
        },
      ),
    )
  })
})
