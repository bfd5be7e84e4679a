import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { bodiesOfWater, chemLogs, visits } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import type { ChemReading } from './chem-reading'

/** Every measured value of a reading and when it was taken: one list for every query that shows readings. */
export const readingColumns = {
  ph: chemLogs.ph,
  chlorinePpm: chemLogs.chlorinePpm,
  alkalinity: chemLogs.alkalinity,
  cyanuricAcid: chemLogs.cyanuricAcid,
  calciumHardness: chemLogs.calciumHardness,
  salt: chemLogs.salt,
  waterTempF: chemLogs.waterTempF,
  takenAt: chemLogs.takenAt,
}

/** Recent Logs on the visit page, newest first. */
export const RECENT_LOGS_LIMIT = 20

/**
 * Saves a reading of a visit. It is taken in the first body of water at the visit's location (the form has no choice of
 * pool or spa yet), found in the same statement.
 */
export async function addChemLog(
  {
    companyId,
    visitId,
    reading: value,
    takenAt = new Date(),
  }: {
    companyId: string
    visitId: string
    reading: ChemReading
    takenAt?: Date
  },
  executor: Pick<Database, 'insert' | 'execute'> = db(),
) {
  const firstBody = db()
    .select({ id: bodiesOfWater.id })
    .from(bodiesOfWater)
    .innerJoin(
      visits,
      and(eq(visits.companyId, bodiesOfWater.companyId), eq(visits.locationId, bodiesOfWater.locationId)),
    )
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    .orderBy(asc(bodiesOfWater.position), asc(bodiesOfWater.createdAt), asc(bodiesOfWater.id))
    .limit(1)
  const [row] = await executor
    .insert(chemLogs)
    .values({ companyId, visitId, bodyOfWaterId: sql`(${firstBody})`, ...value, takenAt })
    .returning({ id: chemLogs.id })
  await publishCompanyEvent({ companyId, type: 'reading.saved', visitId }, executor)
  return row
}

/** A visit's readings, newest first. */
export async function listChemLogsForVisit({
  companyId,
  visitId,
  limit = RECENT_LOGS_LIMIT,
}: {
  companyId: string
  visitId: string
  limit?: number
}) {
  return db()
    .select({ id: chemLogs.id, ...readingColumns })
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.visitId, visitId)))
    .orderBy(desc(chemLogs.takenAt))
    .limit(limit)
}
