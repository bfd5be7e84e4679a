// A customer's service locations (docs/product.md "Records"): where the pools are, with what a technician needs at the
// gate. Every function takes the company it works in; a location of another company is "not found".
import { and, asc, count, eq, isNull, max, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { customers, serviceLocations, taxRates, visits } from '~/db/schema'
import { type AddressParts, formatAddress } from '~/utils/address'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { addressColumns } from './customer-columns.server'
import { firstIssue, type ServiceLocationInput, ServiceLocationSchema, TAX_RATE_CHOICE } from './customer-schemas'
import { editedPosition, newLocationPosition } from './location-position.server'

export const LOCATION_NOT_FOUND = 'Service location not found.'

/** Joins a visit to its own location (the composite key keeps both in one company). */
export const visitLocation = and(
  eq(serviceLocations.companyId, visits.companyId),
  eq(serviceLocations.id, visits.locationId),
) as SQL

/**
 * The order a customer's locations are shown in: active ones first, then by position. The first is "the" address
 * where only one fits (lists, the portal header, a visit booked without choosing).
 */
export const locationOrder = [
  asc(sql`${serviceLocations.archivedAt} is not null`),
  asc(serviceLocations.position),
  asc(serviceLocations.createdAt),
  asc(serviceLocations.id),
]

/** A customer's first location (for a LATERAL join on a query of customers, or of visits by their customer). */
export function firstLocationOf(customer: { companyId: typeof customers.companyId; id: typeof customers.id }) {
  return db()
    .select({ id: serviceLocations.id, label: serviceLocations.label, ...addressColumns })
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, customer.companyId), eq(serviceLocations.customerId, customer.id)))
    .orderBy(...locationOrder)
    .limit(1)
    .as('first_location')
}

/** The one-line address of a row with address columns (null when the row has none, e.g. no location). */
export function addressOf(row: { street: string | null } & Omit<AddressParts, 'street'>) {
  return row.street ? formatAddress({ ...row, street: row.street }) : null
}

/** A location of `companyId` with its customer, locked for the rest of the transaction; null when there is none. */
async function findLocation(executor: Database, companyId: string, locationId: string) {
  if (!isUuid(locationId)) return null
  const [row] = await executor
    .select({
      id: serviceLocations.id,
      customerId: serviceLocations.customerId,
      archivedAt: serviceLocations.archivedAt,
    })
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId)))
    .limit(1)
    .for('update')
  return row ?? null
}

/** Whether `rateId` is one of the company's tax rates (another company's is not: the choice is refused). */
/**
 * The company's rate, kept from "Remove" until the caller's transaction ends (KEY SHARE against removeTaxRate's FOR
 * UPDATE): a location saved while the office removes its rate either keeps the rate in use (the removal is refused,
 * naming it) or finds it gone (a clear message), never a foreign-key error.
 */
async function isCompanyTaxRate(executor: Database, companyId: string, rateId: string) {
  const [rate] = await executor
    .select({ id: taxRates.id })
    .from(taxRates)
    .where(and(eq(taxRates.companyId, companyId), eq(taxRates.id, rateId)))
    .limit(1)
    .for('key share')
  return Boolean(rate)
}

/** Adds a location after the customer's others. */
export async function addServiceLocation(
  { companyId, customerId, input }: { companyId: string; customerId: string; input: ServiceLocationInput },
  executor: Database = db(),
): Promise<Result<{ locationId: string }>> {
  const parsed = ServiceLocationSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(customerId)) return failure('not-found', 'Customer not found.')
  const [customer] = await executor
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  if (!customer) return failure('not-found', 'Customer not found.')
  // One transaction (a savepoint inside an import's), so the rate checked stays until the location names it.
  return executor.transaction(async (tx) => {
    if (parsed.data.taxRateId && !(await isCompanyTaxRate(tx, companyId, parsed.data.taxRateId))) {
      return failure('invalid', TAX_RATE_CHOICE, 'taxRateId')
    }
    return insertLocation(tx, companyId, customerId, parsed.data)
  })
}

async function insertLocation(
  executor: Database,
  companyId: string,
  customerId: string,
  fields: z.infer<typeof ServiceLocationSchema>,
): Promise<Result<{ locationId: string }>> {
  const [last] = await executor
    .select({ position: max(serviceLocations.position) })
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.customerId, customerId)))
  const [row] = await executor
    .insert(serviceLocations)
    .values({
      companyId,
      customerId,
      ...fields,
      // Typed coordinates are the person's ("Adjust position"); without, the ZIP's center until geocoded.
      ...newLocationPosition(fields, 'manual'),
      position: last?.position == null ? 0 : last.position + 1,
    })
    .returning({ id: serviceLocations.id })
  if (!row) throw new Error('location insert returned no row')
  return success({ locationId: row.id })
}

/**
 * Changes a location's address, position and access details. Booked visits keep the address they were booked with.
 * The position follows `editedPosition`: typed coordinates are kept as the person's, a new address moves any other
 * position to the new ZIP's center.
 */
export async function updateServiceLocation({
  companyId,
  locationId,
  input,
}: {
  companyId: string
  locationId: string
  input: ServiceLocationInput
}): Promise<Result> {
  const parsed = ServiceLocationSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(locationId)) return failure('not-found', LOCATION_NOT_FOUND)
  return db().transaction(async (tx) => {
    const where = and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId))
    const [stored] = await tx
      .select({
        ...addressColumns,
        lat: serviceLocations.lat,
        lng: serviceLocations.lng,
        positionSource: serviceLocations.positionSource,
      })
      .from(serviceLocations)
      .where(where)
      .limit(1)
      .for('update')
    if (!stored) return failure('not-found', LOCATION_NOT_FOUND)
    if (parsed.data.taxRateId && !(await isCompanyTaxRate(tx, companyId, parsed.data.taxRateId))) {
      return failure('invalid', TAX_RATE_CHOICE, 'taxRateId')
    }
    const { lat: _lat, lng: _lng, ...rest } = parsed.data
    await tx
      .update(serviceLocations)
      .set({ ...rest, ...editedPosition(stored, parsed.data) })
      .where(where)
    return success({})
  })
}

/**
 * "Remove": a location nobody ever visited is deleted (with its bodies of water, equipment and plans); one with
 * visits is archived instead, so its history stays, and its open visits are canceled. A customer keeps at least
 * one location in use: the last one cannot be removed (archive the customer instead).
 */
export async function removeServiceLocation({
  companyId,
  locationId,
  now = new Date(),
}: {
  companyId: string
  locationId: string
  now?: Date
}): Promise<Result<{ outcome: 'deleted' | 'archived'; canceledVisits: number }>> {
  const result = await db().transaction(async (tx) => {
    const location = await findLocation(tx, companyId, locationId)
    if (!location) return failure('not-found', LOCATION_NOT_FOUND)
    if (location.archivedAt) return success({ outcome: 'archived' as const, canceledVisits: 0 })
    const [others] = await tx
      .select({ n: count() })
      .from(serviceLocations)
      .where(
        and(
          eq(serviceLocations.companyId, companyId),
          eq(serviceLocations.customerId, location.customerId),
          isNull(serviceLocations.archivedAt),
          sql`${serviceLocations.id} <> ${locationId}`,
        ),
      )
    if (!others?.n) {
      return failure(
        'conflict',
        'This is the customer’s only service location. Add another first, or archive the customer.',
      )
    }
    const [visited] = await tx
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, companyId), eq(visits.locationId, locationId)))
      .limit(1)
    if (!visited) {
      await tx
        .delete(serviceLocations)
        .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId)))
      return success({ outcome: 'deleted' as const, canceledVisits: 0 })
    }
    await tx
      .update(serviceLocations)
      .set({ archivedAt: now })
      .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.id, locationId)))
    const canceled = await cancelOpenVisits(tx, { companyId, locationId, now })
    return success({ outcome: 'archived' as const, canceledVisits: canceled })
  })
  if (result.ok && result.canceledVisits > 0) await publishCompanyEvent({ companyId, type: 'visit.updated' })
  return result
}

/**
 * Cancels the open visits of a customer or of one location: nobody will do them. Completed and already canceled
 * visits are history and stay as they are. Returns how many were canceled.
 */
export async function cancelOpenVisits(
  executor: Database,
  {
    companyId,
    customerId,
    locationId,
    now,
  }: { companyId: string; customerId?: string; locationId?: string; now: Date },
) {
  const rows = await executor
    .update(visits)
    .set({ canceledAt: now })
    .where(
      and(
        eq(visits.companyId, companyId),
        customerId ? eq(visits.customerId, customerId) : undefined,
        locationId ? eq(visits.locationId, locationId) : undefined,
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
      ),
    )
    .returning({ id: visits.id })
  return rows.length
}

/**
 * The location a new visit of `customerId` goes to: `locationId` when it is one of the customer's locations in
 * use, else (no location chosen) the customer's first. Null when there is none.
 */
export async function locationForNewVisit(
  executor: Pick<Database, 'select'>,
  { companyId, customerId, locationId }: { companyId: string; customerId: string; locationId?: string | null },
) {
  if (locationId !== undefined && locationId !== null && !isUuid(locationId)) return null
  const [row] = await executor
    .select({ id: serviceLocations.id, ...addressColumns })
    .from(serviceLocations)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        eq(serviceLocations.customerId, customerId),
        isNull(serviceLocations.archivedAt),
        locationId ? eq(serviceLocations.id, locationId) : undefined,
      ),
    )
    .orderBy(...locationOrder)
    .limit(1)
  return row ? { id: row.id, address: formatAddress(row) } : null
}
