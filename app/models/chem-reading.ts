// The Chemical Test form's rules, shared by the browser (instant messages) and the server.
import { z } from 'zod'

const FILL_ALL = 'Fill in all readings before submitting.'

/** A reading field: required, numeric, within the physical range (docs/product.md "Roles"). */
function reading(label: string, min: number, max: number, unit = '') {
  return z
    .string({ error: FILL_ALL })
    .trim()
    .min(1, FILL_ALL)
    .pipe(
      z.coerce
        .number<string>({ error: `${label} must be a number.` })
        .refine(Number.isFinite, `${label} must be a number.`)
        .min(min, `${label} must be between ${min} and ${max}${unit}.`)
        .max(max, `${label} must be between ${min} and ${max}${unit}.`),
    )
}

/** An optional reading: left empty it is simply not stored; filled in it must be a number within range. */
function optionalReading(label: string, min: number, max: number, unit = '') {
  const message = `${label} must be between ${min} and ${max}${unit}.`
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ error: `${label} must be a number.` })
      .refine(Number.isFinite, `${label} must be a number.`)
      .min(min, message)
      .max(max, message)
      .optional(),
  )
}

/**
 * The Chemical Test form (docs/product.md "Screens", "Forms"). Readings are stored as numbers, not text. pH, chlorine
 * and alkalinity are required; the rest (same ranges as the database CHECKs) give the water balance when present.
 */
export const ChemReadingSchema = z.object({
  ph: reading('pH', 0, 14),
  chlorinePpm: reading('Chlorine', 0, 50, ' ppm'),
  alkalinity: reading('Alkalinity', 0, 500, ' ppm'),
  cyanuricAcid: optionalReading('Cyanuric acid', 0, 300, ' ppm'),
  calciumHardness: optionalReading('Calcium hardness', 0, 2000, ' ppm'),
  salt: optionalReading('Salt', 0, 10000, ' ppm'),
  waterTempF: optionalReading('Water temp', 32, 110, ' °F'),
})

export type ChemReading = z.infer<typeof ChemReadingSchema>
