// Dosing advice: what to add (or drain) to bring a reading to the pool's targets, in the units technicians use.
// The same chemistry model computes the dose and, in applyDose, the water it produces, so the two cannot drift.
import { cyanurateAlkalinity } from './balance'
import { type Parameter, type PoolProfile, type Reading, readingStatus, targetsFor } from './targets'

const LITERS_PER_GALLON = 3.785411784
const ML_PER_FL_OZ = 29.5735295625
const GRAMS_PER_LB = 453.59237
const FL_OZ_PER_GALLON = 128
/** Grams of calcium carbonate per equivalent: alkalinity and hardness are both reported "as CaCO3". */
const CACO3_EQ = 50.04

export type Product =
  | 'liquid chlorine'
  | 'muriatic acid'
  | 'sodium bicarbonate'
  | 'soda ash'
  | 'cyanuric acid'
  | 'calcium chloride'
  | 'salt'

type ProductSpec = { unit: 'fl oz' | 'lb'; name: string; assumption: string; gramsPerUnit: number }

/** Grams of active chemical in one unit of each product as sold. */
const PRODUCTS: Record<Product, ProductSpec> = {
  'liquid chlorine': {
    unit: 'fl oz',
    name: 'liquid chlorine (12.5 %)',
    // Trade percent = grams of available chlorine per 100 mL, the figure on the jug.
    assumption: '12.5 % trade-percent liquid chlorine (sodium hypochlorite)',
    gramsPerUnit: 0.125 * ML_PER_FL_OZ,
  },
  'muriatic acid': {
    unit: 'fl oz',
    name: 'muriatic acid (31.45 %)',
    assumption: '31.45 % muriatic (hydrochloric) acid, 1.16 g/mL',
    gramsPerUnit: 0.3145 * 1.16 * ML_PER_FL_OZ,
  },
  'sodium bicarbonate': {
    unit: 'lb',
    name: 'sodium bicarbonate',
    assumption: 'sodium bicarbonate (baking soda)',
    gramsPerUnit: GRAMS_PER_LB,
  },
  'soda ash': {
    unit: 'lb',
    name: 'soda ash',
    assumption: 'soda ash (sodium carbonate)',
    gramsPerUnit: GRAMS_PER_LB,
  },
  'cyanuric acid': {
    unit: 'lb',
    name: 'cyanuric acid (stabilizer)',
    assumption: 'pure cyanuric acid granules',
    gramsPerUnit: GRAMS_PER_LB,
  },
  'calcium chloride': {
    unit: 'lb',
    name: 'calcium chloride (77 %)',
    assumption: '77 % calcium chloride (dihydrate flakes)',
    gramsPerUnit: 0.77 * GRAMS_PER_LB,
  },
  salt: { unit: 'lb', name: 'pool salt', assumption: 'pure pool salt (sodium chloride)', gramsPerUnit: GRAMS_PER_LB },
}

/** Grams of chemical per ppm-unit change, per liter (1 ppm = 1 mg/L). */
const GRAMS_PER_PPM_LITER: Record<Product, number> = {
  'liquid chlorine': 1e-3,
  // Alkalinity in ppm as CaCO3 → equivalents → grams of the reagent.
  'muriatic acid': (1e-3 / CACO3_EQ) * 36.46,
  'sodium bicarbonate': (1e-3 / CACO3_EQ) * 84.007,
  // Soda ash is counted in carbonate added, in the same units as alkalinity: one Na2CO3 per 50.04 mg.
  'soda ash': (1e-3 / CACO3_EQ) * 105.99,
  'cyanuric acid': 1e-3,
  'calcium chloride': (1e-3 / 100.09) * 110.98,
  salt: 1e-3,
}

export type Dose = {
  kind: 'dose'
  parameter: Parameter
  product: Product
  /** Product quantity in `unit`, rounded to what a technician can measure. */
  amount: number
  unit: 'fl oz' | 'lb' | 'gal'
  text: string
  assumption: string
}
export type Drain = { kind: 'drain'; parameter: Parameter; percent: number; text: string; assumption: string }
export type Hold = { kind: 'hold'; parameter: Parameter; text: string; assumption: string }
export type Advice = Dose | Drain | Hold

/**
 * What to do about each out-of-range value of the reading, or null when the pool volume is unknown.
 * Each line is computed from the reading alone: retest between additions.
 */
export function dosingAdvice(reading: Reading, profile: PoolProfile): Advice[] | null {
  const gallons = profile.volumeGallons
  if (gallons == null || !(gallons > 0)) return null
  const targets = targetsFor(profile, reading.cyanuricAcid)
  const advice: Advice[] = []
  for (const status of readingStatus(reading, profile)) {
    if (status.level === 'in range') continue
    const { parameter, value, range } = status
    const raise = status.level === 'low'
    const from = formatNumber(value)
    const to = formatNumber(range.target)
    switch (parameter) {
      case 'chlorine':
        advice.push(
          raise
            ? dose(
                parameter,
                'liquid chlorine',
                range.target - value,
                gallons,
                `raise chlorine from ${from} to ${to} ppm`,
              )
            : {
                kind: 'hold',
                parameter,
                text: `Add no chlorine until it falls below ${formatNumber(range.max)} ppm (sunlight and use lower it).`,
                assumption: 'Chlorine falls on its own; no product lowers it safely.',
              },
        )
        break
      case 'ph':
        if (raise) {
          const ppm = sodaAshForPh(reading, targets.ph.target)
          advice.push(dose(parameter, 'soda ash', ppm, gallons, `raise pH from ${from} to ${to}`))
        } else {
          const ppm = acidForPh(reading, targets.ph.target)
          advice.push(dose(parameter, 'muriatic acid', ppm, gallons, `lower pH from ${from} to ${to}`))
        }
        break
      case 'alkalinity':
        advice.push(
          raise
            ? dose(
                parameter,
                'sodium bicarbonate',
                range.target - value,
                gallons,
                `raise alkalinity from ${from} to ${to} ppm`,
              )
            : dose(
                parameter,
                'muriatic acid',
                value - range.target,
                gallons,
                `lower alkalinity from ${from} to ${to} ppm, then aerate to bring pH back up`,
              ),
        )
        break
      case 'cyanuricAcid':
      case 'calciumHardness':
      case 'salt': {
        const label = status.label
        if (raise) {
          const product: Product =
            parameter === 'cyanuricAcid' ? 'cyanuric acid' : parameter === 'salt' ? 'salt' : 'calcium chloride'
          advice.push(
            dose(parameter, product, range.target - value, gallons, `raise ${label} from ${from} to ${to} ppm`),
          )
        } else {
          // Nothing takes these out of the water: only replacing some of it does.
          const percent = Math.min(100, Math.ceil((1 - range.target / value) * 100))
          advice.push({
            kind: 'drain',
            parameter,
            percent,
            text: `Partial drain: replace about ${percent} % of the water to lower ${label} from ${from} to ${to} ppm.`,
            assumption: `Refill water assumed to contain no ${label}; test it if unsure.`,
          })
        }
        break
      }
    }
  }
  return advice
}

function dose(parameter: Parameter, product: Product, ppm: number, gallons: number, purpose: string): Dose {
  const spec = PRODUCTS[product]
  const grams = ppm * GRAMS_PER_PPM_LITER[product] * gallons * LITERS_PER_GALLON
  let amount = roundPractical(grams / spec.gramsPerUnit)
  let unit: Dose['unit'] = spec.unit
  if (unit === 'fl oz' && amount >= FL_OZ_PER_GALLON) {
    amount = roundPractical(amount / FL_OZ_PER_GALLON)
    unit = 'gal'
  }
  const quantity = `${formatNumber(amount)} ${unit === 'gal' ? (amount === 1 ? 'gallon' : 'gallons') : unit}`
  return {
    kind: 'dose',
    parameter,
    product,
    amount,
    unit,
    text: `Add ${quantity} of ${spec.name} to ${purpose}.`,
    assumption: `Assumes ${spec.assumption} and ${formatNumber(gallons)} US gallons.`,
  }
}

/** The water after adding a dose, by the same model the advice uses (temperature and CYA's own acidity ignored). */
export function applyDose(reading: Reading, advice: Dose, gallons: number): Reading {
  const spec = PRODUCTS[advice.product]
  const units = advice.unit === 'gal' ? advice.amount * FL_OZ_PER_GALLON : advice.amount
  const ppm = (units * spec.gramsPerUnit) / (GRAMS_PER_PPM_LITER[advice.product] * gallons * LITERS_PER_GALLON)
  const cya = reading.cyanuricAcid ?? 0
  const carbonate = totalCarbonate(reading)
  switch (advice.product) {
    case 'liquid chlorine':
      return { ...reading, chlorinePpm: reading.chlorinePpm + ppm }
    case 'muriatic acid': {
      const alkalinity = reading.alkalinity - ppm
      return { ...reading, alkalinity, ph: phFor(carbonate, alkalinity, cya) }
    }
    case 'sodium bicarbonate': {
      const alkalinity = reading.alkalinity + ppm
      return { ...reading, alkalinity, ph: phFor(carbonate + ppm, alkalinity, cya) }
    }
    case 'soda ash': {
      const alkalinity = reading.alkalinity + 2 * ppm
      return { ...reading, alkalinity, ph: phFor(carbonate + ppm, alkalinity, cya) }
    }
    case 'cyanuric acid':
      return { ...reading, cyanuricAcid: cya + ppm }
    case 'calcium chloride':
      return { ...reading, calciumHardness: (reading.calciumHardness ?? 0) + ppm }
    case 'salt':
      return { ...reading, salt: (reading.salt ?? 0) + ppm }
  }
}

// --- Carbonate model (closed system: acid and base change alkalinity, not the dissolved carbonate) ---
// Apparent constants for warm, slightly salty pool water; pH changes depend on alkalinity (docs/product.md "Water": no
// fixed rule).
const PK1 = 6.2
const PK2 = 10.2

/** Carbonate alkalinity per unit of total carbonate (both as CaCO3) at a pH: α1 + 2·α2. */
function carbonateFactor(ph: number) {
  const h = 10 ** -ph
  const k1 = 10 ** -PK1
  const k2 = 10 ** -PK2
  const denominator = h * h + k1 * h + k1 * k2
  return (k1 * h + 2 * k1 * k2) / denominator
}

/** Hydroxide minus hydrogen ion, in ppm as CaCO3. */
function waterAlkalinity(ph: number) {
  return (10 ** (ph - 14) - 10 ** -ph) * CACO3_EQ * 1000
}

/** Total alkalinity (as measured, cyanurate included) the water would have at a pH. */
function alkalinityAt(ph: number, carbonate: number, cya: number) {
  return carbonate * carbonateFactor(ph) + waterAlkalinity(ph) + cyanurateAlkalinity(cya, ph)
}

/** Dissolved carbonate (as CaCO3) implied by a reading. */
function totalCarbonate(reading: Reading) {
  const cya = reading.cyanuricAcid ?? 0
  const carbonateAlk = reading.alkalinity - cyanurateAlkalinity(cya, reading.ph) - waterAlkalinity(reading.ph)
  return Math.max(0, carbonateAlk / carbonateFactor(reading.ph))
}

/** The pH at which the water has this alkalinity (alkalinity rises with pH, so bisection converges). */
function phFor(carbonate: number, alkalinity: number, cya: number) {
  let low = 2
  let high = 13
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2
    if (alkalinityAt(mid, carbonate, cya) < alkalinity) low = mid
    else high = mid
  }
  return (low + high) / 2
}

/** Acid (ppm of alkalinity removed) that brings pH down to the target. */
function acidForPh(reading: Reading, targetPh: number) {
  const cya = reading.cyanuricAcid ?? 0
  const carbonate = totalCarbonate(reading)
  return reading.alkalinity - alkalinityAt(targetPh, carbonate, cya)
}

/** Soda ash (ppm of carbonate added, as CaCO3) that brings pH up to the target: each unit adds two of alkalinity. */
function sodaAshForPh(reading: Reading, targetPh: number) {
  const cya = reading.cyanuricAcid ?? 0
  const carbonate = totalCarbonate(reading)
  const factor = carbonateFactor(targetPh)
  const needed = carbonate * factor + waterAlkalinity(targetPh) + cyanurateAlkalinity(cya, targetPh)
  return (needed - reading.alkalinity) / (2 - factor)
}

/** Three significant figures: a measuring cup, not a lab balance. */
function roundPractical(value: number) {
  if (!(value > 0)) return 0
  const step = 10 ** (Math.floor(Math.log10(value)) - 2)
  return Math.round(value / step) * step
}

/** Up to two decimals, thousands separated, no float noise (e.g. 0.30000000000000004). */
export function formatNumber(value: number) {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}
