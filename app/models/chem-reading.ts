// The Chemical Test form's rules, shared by the browser (instant messages) and the server.
import { z } from 'zod'

const FILL_ALL = 'Fill in all readings before submitting.'

/** A reading field: required, numeric, within the physical range (ARCHITECTURE §4). */
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

/** The Chemical Test form (SPEC §2, §5). Readings are stored as numbers, not text. */
export const ChemReadingSchema = z.object({
  ph: reading('pH', 0, 14),
  chlorinePpm: reading('Chlorine', 0, 50, ' ppm'),
  alkalinity: reading('Alkalinity', 0, 500, ' ppm'),
})

export type ChemReading = z.infer<typeof ChemReadingSchema>
