// Water balance: the calcite saturation index (CSI), the LSI corrected for cyanurate and ionic strength.
// Formula as in the public Pool Math calculator (Wojtowicz): it reproduces the worked example of
// docs/product.md "Water" (≈ −0.06).

/** Inputs the index needs; salt is optional (adds ionic strength, which lowers the index). */
export type BalanceInputs = {
  ph: number
  alkalinity: number
  calciumHardness: number
  cyanuricAcid: number
  waterTempF: number
  salt?: number | null
}

export type BalanceStatus = 'Balanced' | 'Corrosive' | 'Scaling'
export type Balance = { index: number; status: BalanceStatus }

/** Below −0.3 the water dissolves plaster and metal; above +0.3 it deposits scale (docs/product.md "Water"). */
export const BALANCED_LIMIT = 0.3

/** pKa of cyanuric acid in pool water: the share of CYA that is cyanurate counts in the alkalinity test. */
export const CYANURIC_PKA = 6.83

/** Cyanurate measured as alkalinity, in ppm as CaCO3 (0.38772 = 50.04 / 129.07 g/mol). */
export function cyanurateAlkalinity(cyanuricAcid: number, ph: number) {
  return (0.38772 * cyanuricAcid) / (1 + 10 ** (CYANURIC_PKA - ph))
}

/** Carbonate alkalinity: total alkalinity minus the cyanurate the test also counts (≈ TA − CYA/3). */
export function carbonateAlkalinity(alkalinity: number, cyanuricAcid: number, ph: number) {
  return alkalinity - cyanurateAlkalinity(cyanuricAcid, ph)
}

/** The saturation index, or null when it cannot be computed (no carbonate alkalinity or no calcium). */
export function saturationIndex(inputs: BalanceInputs): number | null {
  const { ph, alkalinity, calciumHardness, cyanuricAcid, waterTempF } = inputs
  const carbAlk = carbonateAlkalinity(alkalinity, cyanuricAcid, ph)
  if (!(carbAlk > 0) || !(calciumHardness > 0)) return null
  const kelvin = ((waterTempF - 32) * 5) / 9 + 273.15
  const ionicStrength = (1.5 * calciumHardness + alkalinity) / 50_045 + (inputs.salt ?? 0) / 58_440
  const root = Math.sqrt(ionicStrength)
  return (
    ph -
    6.9395 +
    Math.log10(calciumHardness) +
    Math.log10(carbAlk) -
    (2.56 * root) / (1 + 1.65 * root) -
    1412.5 / kelvin
  )
}

export function balanceStatus(index: number): BalanceStatus {
  if (index < -BALANCED_LIMIT) return 'Corrosive'
  if (index > BALANCED_LIMIT) return 'Scaling'
  return 'Balanced'
}

/** A stored reading's balance, or null when hardness, cyanuric acid or temperature were not measured. */
export function waterBalance(reading: {
  ph: number
  alkalinity: number
  calciumHardness?: number | null
  cyanuricAcid?: number | null
  waterTempF?: number | null
  salt?: number | null
}): Balance | null {
  const { calciumHardness, cyanuricAcid, waterTempF } = reading
  if (calciumHardness == null || cyanuricAcid == null || waterTempF == null) return null
  const index = saturationIndex({ ...reading, calciumHardness, cyanuricAcid, waterTempF })
  if (index == null || !Number.isFinite(index)) return null
  return { index: Math.round(index * 100) / 100, status: balanceStatus(index) }
}
