// Target ranges for a residential pool, by sanitiser, surface and setting (docs/product.md "Water").
// Pure and dependency-free: the job page, dashboards, portal and report emails all judge readings with it.

export const SANITISERS = ['chlorine', 'salt'] as const
export const SURFACES = ['plaster', 'vinyl', 'fibreglass'] as const
export type Sanitiser = (typeof SANITISERS)[number]
export type Surface = (typeof SURFACES)[number]

/**
 * A surface as the product writes it. `fibreglass` stays the stored value (a check constraint, the API's values and
 * the imports' files name it), but what people read is US English
 * (docs/decisions/064-house-tests-spelling-comment-paths-bundles.md).
 */
export const SURFACE_WORDS: Record<Surface, string> = { plaster: 'plaster', vinyl: 'vinyl', fibreglass: 'fiberglass' }

/** The word for a stored surface; a value this list does not know is shown as it is. */
export function surfaceWord(surface: string | null | undefined): string | null {
  if (!surface) return null
  return (SURFACE_WORDS as Record<string, string>)[surface] ?? surface
}

/** What the water is judged against; missing fields fall back to a chlorine plaster outdoor pool. */
export type PoolProfile = {
  volumeGallons?: number | null
  surface?: Surface | null
  sanitiser?: Sanitiser | null
  indoor?: boolean | null
}

/** The pool profile of a customer row as the database names its columns. */
export function poolProfileOf(row: {
  poolVolumeGallons: number | null
  poolSurface: Surface | null
  poolSanitiser: Sanitiser | null
  poolIndoor: boolean | null
}): PoolProfile {
  return {
    volumeGallons: row.poolVolumeGallons,
    surface: row.poolSurface,
    sanitiser: row.poolSanitiser,
    indoor: row.poolIndoor,
  }
}

/** One test of the water. pH, free chlorine and total alkalinity are always taken; the rest are optional. */
export type Reading = {
  ph: number
  chlorinePpm: number
  alkalinity: number
  cyanuricAcid?: number | null
  calciumHardness?: number | null
  salt?: number | null
  waterTempF?: number | null
}

/** Acceptable band (a value inside it is "in range") and the value doses aim for. */
export type Range = { min: number; max: number; target: number }

export type Parameter = 'ph' | 'chlorine' | 'alkalinity' | 'cyanuricAcid' | 'calciumHardness' | 'salt'

export const PARAMETER_LABELS: Record<Parameter, string> = {
  ph: 'pH',
  chlorine: 'chlorine',
  alkalinity: 'alkalinity',
  cyanuricAcid: 'cyanuric acid',
  calciumHardness: 'calcium hardness',
  salt: 'salt',
}

export type Targets = Record<Exclude<Parameter, 'salt'>, Range> & { salt: Range | null }

const HARDNESS: Record<Surface, Range> = {
  // Plaster needs calcium in the water or the water takes it from the plaster; vinyl and fibreglass need less.
  plaster: { min: 200, max: 400, target: 300 },
  vinyl: { min: 175, max: 225, target: 200 },
  fibreglass: { min: 150, max: 250, target: 200 },
}

/**
 * The targets for a pool. Free chlorine scales with cyanuric acid (≈ 7.5 % of CYA, never below 3 ppm) because
 * stabiliser binds most of the chlorine; unknown CYA is treated as unstabilised water.
 */
export function targetsFor(profile: PoolProfile, cyanuricAcid?: number | null): Targets {
  const sanitiser = profile.sanitiser ?? 'chlorine'
  const surface = profile.surface ?? 'plaster'
  const cya = cyanuricAcid ?? 0
  const chlorine: Range =
    cya > 0
      ? { min: Math.max(2, round1(0.05 * cya)), max: 10, target: Math.max(3, round1(0.075 * cya)) }
      : { min: 1, max: 10, target: 3 }
  return {
    ph: { min: 7.2, max: 7.8, target: 7.5 },
    chlorine,
    alkalinity: sanitiser === 'salt' ? { min: 50, max: 90, target: 70 } : { min: 80, max: 120, target: 100 },
    // Indoors there is no sunlight to protect chlorine from, so stabiliser only slows disinfection.
    cyanuricAcid: profile.indoor
      ? { min: 0, max: 30, target: 0 }
      : sanitiser === 'salt'
        ? { min: 60, max: 90, target: 70 }
        : { min: 30, max: 50, target: 40 },
    calciumHardness: HARDNESS[surface],
    salt: sanitiser === 'salt' ? { min: 2700, max: 3400, target: 3200 } : null,
  }
}

export type Level = 'low' | 'in range' | 'high'
export type ParameterStatus = {
  parameter: Parameter
  label: string
  value: number
  level: Level
  range: Range
  /** e.g. "pH high", "chlorine low", "alkalinity in range". */
  text: string
}

/** Each measured value of a reading against the pool's targets, in a fixed order. */
export function readingStatus(reading: Reading, profile: PoolProfile): ParameterStatus[] {
  const targets = targetsFor(profile, reading.cyanuricAcid)
  const values: [Parameter, number | null | undefined, Range | null][] = [
    ['ph', reading.ph, targets.ph],
    ['chlorine', reading.chlorinePpm, targets.chlorine],
    ['alkalinity', reading.alkalinity, targets.alkalinity],
    ['cyanuricAcid', reading.cyanuricAcid, targets.cyanuricAcid],
    ['calciumHardness', reading.calciumHardness, targets.calciumHardness],
    ['salt', reading.salt, targets.salt],
  ]
  const statuses: ParameterStatus[] = []
  for (const [parameter, value, range] of values) {
    if (value == null || range == null) continue
    const level: Level = value < range.min ? 'low' : value > range.max ? 'high' : 'in range'
    const label = PARAMETER_LABELS[parameter]
    statuses.push({ parameter, label, value, level, range, text: `${label} ${level}` })
  }
  return statuses
}

function round1(value: number) {
  return Math.round(value * 10) / 10
}
