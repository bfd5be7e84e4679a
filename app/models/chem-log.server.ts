import { and, desc, eq } from 'drizzle-orm'
import { z } from 'zod'
import { chemLogs } from '~/db/schema'
import { db } from '~/utils/db.server'

/** Recent Logs on the job page, newest first. */
export const RECENT_LOGS_LIMIT = 20

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

export async function addChemLog({
  companyId,
  jobId,
  reading: value,
  takenAt = new Date(),
}: {
  companyId: string
  jobId: string
  reading: ChemReading
  takenAt?: Date
}) {
  const [row] = await db()
    .insert(chemLogs)
    .values({ companyId, jobId, ...value, takenAt })
    .returning({ id: chemLogs.id })
  return row
}

/** A job's readings, newest first. */
export async function listChemLogsForJob({
  companyId,
  jobId,
  limit = RECENT_LOGS_LIMIT,
}: {
  companyId: string
  jobId: string
  limit?: number
}) {
  return db()
    .select({
      id: chemLogs.id,
      ph: chemLogs.ph,
      chlorinePpm: chemLogs.chlorinePpm,
      alkalinity: chemLogs.alkalinity,
      takenAt: chemLogs.takenAt,
    })
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.jobId, jobId)))
    .orderBy(desc(chemLogs.takenAt))
    .limit(limit)
}
