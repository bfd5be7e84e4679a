// The pools, spas and fountains at a service location (docs/product.md "Records"): what readings are judged against and
// doses computed for. A location's first body of water is "the pool" of its visits (visit page, report, portal).
import { and, asc, eq, max, type SQLWrapper, sql } from 'drizzle-orm'
import { bodiesOfWater, chemLogs, serviceLocations } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { type BodyOfWaterInput, BodyOfWaterSchema, firstIssue } from './customer-schemas'
import { LOCATION_NOT_FOUND } from './service-location.server'

export const BODY_NOT_FOUND = 'Body of water not found.'

/** The pool-profile columns under the names the water module reads (`poolProfileOf`). */
export const poolProfileColumns = {
  poolVolumeGallons: bodiesOfWater.gallons,
  poolSurface: bodiesOfWater.surface,
  poolSanitizer: bodiesOfWater.sanitizer,
  poolIndoor: bodiesOfWater.indoor,
}

export const bodyOrder = [asc(bodiesOfWater.position), asc(bodiesOfWater.createdAt), asc(bodiesOfWater.id)]

/**
 * The first body of water of a location (for a LATERAL join): the pool a visit there is judged against. With no
 * body of water the profile is empty and the water module falls back to a chlorine plaster pool.
 */
export function firstBodyOfWaterOf(location: { companyId: SQLWrapper; id: SQLWrapper }) {
  return db()
    .select({ id: bodiesOfWater.id, name: bodiesOfWater.name, ...poolProfileColumns })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, location.companyId), eq(bodiesOfWater.locationId, location.id)))
    .orderBy(...bodyOrder)
    .limit(1)
    .as('first_body')
}

/** Adds a body of water after the location's others. */
export async function addBodyOfWater(
  { companyId, locationId, input }: { companyId: string; locationId: string; input: BodyOfWaterInput },
  executor: Database = db(),
): Promise<Result<{ bodyOfWaterId: string }>> {
  const parsed = BodyOfWaterSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(locationId)) return failure('not-found', LOCATION_NOT_FOUND)
  const [location] = await executor
    .select({ id: serviceLocations.id })
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId)))
    .limit(1)
  if (!location) return failure('not-found', LOCATION_NOT_FOUND)
  const [last] = await executor
    .select({ position: max(bodiesOfWater.position) })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.locationId, locationId)))
  const [row] = await executor
    .insert(bodiesOfWater)
    .values({ companyId, locationId, ...parsed.data, position: last?.position == null ? 0 : last.position + 1 })
    .returning({ id: bodiesOfWater.id })
  if (!row) throw new Error('body of water insert returned no row')
  return success({ bodyOfWaterId: row.id })
}

export async function updateBodyOfWater(
  { companyId, bodyOfWaterId, input }: { companyId: string; bodyOfWaterId: string; input: BodyOfWaterInput },
  executor: Database = db(),
): Promise<Result> {
  const parsed = BodyOfWaterSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(bodyOfWaterId)) return failure('not-found', BODY_NOT_FOUND)
  // Every field may be left out (each keeps what is stored); an UPDATE needs at least one column, so the name
  // stands in for an empty change.
  const changes = Object.values(parsed.data).some((value) => value !== undefined)
    ? parsed.data
    : { name: sql`${bodiesOfWater.name}` }
  const rows = await executor
    .update(bodiesOfWater)
    .set(changes)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.id, bodyOfWaterId)))
    .returning({ id: bodiesOfWater.id })
  return rows.length ? success({}) : failure('not-found', BODY_NOT_FOUND)
}

/**
 * Removes a body of water and its equipment. One with chemistry readings stays: the readings of past visits are
 * the customer's history, and they say which pool they were taken in.
 */
export async function removeBodyOfWater({
  companyId,
  bodyOfWaterId,
}: {
  companyId: string
  bodyOfWaterId: string
}): Promise<Result> {
  if (!isUuid(bodyOfWaterId)) return failure('not-found', BODY_NOT_FOUND)
  const [body] = await db()
    .select({ id: bodiesOfWater.id })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.id, bodyOfWaterId)))
    .limit(1)
  if (!body) return failure('not-found', BODY_NOT_FOUND)
  const [reading] = await db()
    .select({ id: chemLogs.id })
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.bodyOfWaterId, bodyOfWaterId)))
    .limit(1)
  if (reading) {
    return failure(
      'conflict',
      'This body of water has chemistry readings from past visits, so it stays in the history.',
    )
  }
  // The foreign key from readings refuses the delete if one was saved meanwhile: no reading is ever orphaned.
  await db()
    .delete(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.id, bodyOfWaterId)))
  return success({})
}
