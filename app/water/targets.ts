// Target ranges for a residential pool, by sanitizer, surface and setting (docs/product.md "Water").
// Pure and dependency-free: the visit page, dashboards, portal and report emails all judge readings with it.

export const SANITIZERS = ['chlorine', 'salt'] as const
export const SURFACES = ['plaster', 'vinyl', 'fiberglass'] as const
export type Sanitizer = (typeof SANITIZERS)[number]
export type Surface = (typeof SURFACES)[number]

/**
 * A surface as the product writes it. `fiberglass` stays the stored value (a check constraint, the API's values and
 * the imports' files name it), but what people read is US English
 * (docs/decisions/064-house-tests-spelling-comment-paths-bundles.md).
 */
export const SURFACE_WORDS: Record<Surface, string> = { plaster: 'plaster', vinyl: 'vinyl', fiberglass: 'fiberglass' }

/** The word for a stored surface; a value this list does not know is shown as it is. */
export function surfaceWord(surface: string | null | undefined): string | null {
  if (!surface) return null
  return (SURFACE_WORDS as Record<string, string>)[surface] ?? surface
}

/** What the water is judged against; missing fields fall back to a chlorine plaster outdoor pool. */
export type PoolProfile = {
  volumeGallons?: number | null
  surface?: Surface | null
  sanitizer?: Sanitizer | null
  indoor?: boolean | null
}

/** The pool profile of a customer row as the database names its columns. */
export function poolProfileOf(row: {
  poolVolumeGallons: number | null
  poolSurface: Surface | null
  poolSanitizer: Sanitizer | null
  poolIndoor: boolean | null
}): PoolProfile {
  return {
    volumeGallons: row.poolVolumeGallons,
    surface: row.poolSurface,
    sanitizer: row.poolSanitizer,
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
  // Plaster needs calcium in the water or the water takes it from the plaster; vinyl and fiberglass need less.
  plaster: { min: 200, max: 400, target: 300 },
  vinyl: { min: 175, max: 225, target: 200 },
  fiberglass: { min: 150, max: 250, target: 200 },
}

/**
 * The targets for a pool. Free chlorine scales with cyanuric acid (≈ 7.5 % of CYA, never below 3 ppm) because
 * stabilizer binds most of the chlorine; unknown CYA is treated as unstabilised water.
 */
export function targetsFor(profile: PoolProfile, cyanuricAcid?: number | null): Targets {
  const sanitizer = profile.sanitizer ?? 'chlorine'
  const surface = profile.surface ?? 'plaster'
  const cya = cyanuricAcid ?? 0
  const chlorine: Range =
    cya > 0
      ? { min: Math.max(2, round1(0.05 * cya)), max: 10, target: Math.max(3, round1(0.075 * cya)) }
      : { min: 1, max: 10, target: 3 }
  return {
    ph: { min: 7.2, max: 7.8, target: 7.5 },
    chlorine,
    alkalinity: sanitizer === 'salt' ? { min: 50, max: 90, target: 70 } : { min: 80, max: 120, target: 100 },
    // Indoors there is no sunlight to protect chlorine from, so stabilizer only slows disinfection.
    cyanuricAcid: profile.indoor
      ? { min: 0, max: 30, target: 0 }
      : sanitizer === 'salt'
        ? { min: 60, max: 90, target: 70 }
        : { min: 30, max: 50, target: 40 },
    calciumHardness: HARDNESS[surface],
    salt: sanitizer === 'salt' ? { min: 2700, max: 3400, target: 3200 } : null,
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
