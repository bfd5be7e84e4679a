// Customers as a pool company sees them (docs/product.md "Records", "Customers"): the account holder, their service
// locations, the bodies of water and equipment there, and their visits. Every function takes the company it works in; a
// customer of another company is "not found". Reads of a whole record run a fixed number of queries keyed by the
// customer.
//
// This module reads one customer in brief (and a portal login's own, for its setup); the search and picker, the list,
// the record page and the changes each have a module of their own (`customer-search`, `customer-list`,
// `customer-record`, `customer-changes`).
import { and, eq, sql } from 'drizzle-orm'
import { customers, serviceLocations } from '~/db/schema'
import { formatAddress, parseAddress } from '~/utils/address'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { balanceCentsOf } from './balance.server'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { addressColumns } from './customer-columns.server'
import { editedPosition, zipPosition } from './location-position.server'
import { addressOf, firstLocationOf, locationOrder } from './service-location.server'

export const CUSTOMER_NOT_FOUND = 'Customer not found.'

/** The customer record a portal login belongs to. */
export async function getCustomerIdForPortalUser(userId: string) {
  const [row] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.portalUserId, userId))
    .limit(1)
  return row?.id ?? null
}

/** Who may open one customer's portal: the customer of `companyId` and its portal login. */
export async function getPortalCustomer({ companyId, customerId }: { companyId: string; customerId: string }) {
  if (!isUuid(customerId)) return null
  const [row] = await db()
    .select({ id: customers.id, companyId: customers.companyId, portalUserId: customers.portalUserId })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  return row ?? null
}

/** The address columns of a first-location subquery, for a select list. */
export function pick(location: ReturnType<typeof firstLocationOf>) {
  return { street: location.street, city: location.city, state: location.state, postalCode: location.postalCode }
}

/**
 * Puts `address` on the customer's first location (creating it if they have none) and returns that location's id.
 * The location is only rewritten when the text differs from its address as shown, so parts the one-line form
 * cannot express (a city without a state) are never re-split needlessly.
 */
async function setFirstLocationAddress(
  tx: Database,
  { companyId, customerId, address }: { companyId: string; customerId: string; address: string },
) {
  const [first] = await tx
    .select({
      id: serviceLocations.id,
      ...addressColumns,
      lat: serviceLocations.lat,
      lng: serviceLocations.lng,
      positionSource: serviceLocations.positionSource,
    })
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.customerId, customerId)))
    .orderBy(...locationOrder)
    .limit(1)
  const text = address.trim()
  if (!first) {
    const parts = parseAddress(text)
    const [place] = await tx
      .insert(serviceLocations)
      .values({ companyId, customerId, ...parts, ...zipPosition(parts.postalCode) })
      .returning({ id: serviceLocations.id })
    return place?.id ?? null
  }
  if (formatAddress(first) !== text) {
    const parts = parseAddress(text)
    await tx
      .update(serviceLocations)
      .set({ ...parts, ...editedPosition(first, parts) })
      .where(eq(serviceLocations.id, first.id))
  }
  return first.id
}

/**
 * One customer of `companyId` in brief: contact, the first location's address and its first body of water's profile
 * (the list's invite, the record's check that a posted customer is the company's). Null for another company's id
 * or anything that is not an id.
 */
export async function getCustomer({ companyId, customerId }: { companyId: string; customerId: string }) {
  if (!isUuid(customerId)) return null
  const location = firstLocationOf(customers)
  const pool = firstBodyOfWaterOf({ companyId: customers.companyId, id: location.id })
  const [row] = await db()
    .select({
      id: customers.id,
      customerName: customers.customerName,
      ...pick(location),
      email: customers.email,
      phone: customers.phone,
      status: customers.status,
      balanceDue: balanceCentsOf(customers.companyId, customers.id),
      portalUserId: customers.portalUserId,
      createdAt: customers.createdAt,
      poolVolumeGallons: pool.poolVolumeGallons,
      poolSurface: pool.poolSurface,
      poolSanitizer: pool.poolSanitizer,
      poolIndoor: pool.poolIndoor,
    })
    .from(customers)
    .leftJoinLateral(location, sql`true`)
    .leftJoinLateral(pool, sql`true`)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .limit(1)
  if (!row) return null
  const { street, city, state, postalCode, ...customer } = row
  return { ...customer, address: addressOf({ street, city, state, postalCode }) ?? '' }
}

/**
 * The customer `customerId` if `userId` is its portal login (customer setup): name, first address and phone.
 * Null otherwise.
 */
export async function getOwnCustomerForSetup(userId: string, customerId: string | null) {
  if (!isUuid(customerId)) return null
  const location = firstLocationOf(customers)
  const [row] = await db()
    .select({
      id: customers.id,
      companyId: customers.companyId,
      name: customers.customerName,
      phone: customers.phone,
      ...pick(location),
    })
    .from(customers)
    .leftJoinLateral(location, sql`true`)
    .where(and(eq(customers.id, customerId), eq(customers.portalUserId, userId)))
    .limit(1)
  if (!row) return null
  const { street, city, state, postalCode, ...customer } = row
  return { ...customer, address: addressOf({ street, city, state, postalCode }) ?? '' }
}

/** What a customer confirms at setup: their phone (E.164) and their service address (the first location's). */
export async function saveCustomerSetup(
  tx: Database,
  {
    companyId,
    customerId,
    phone,
    address,
  }: { companyId: string; customerId: string; phone?: string | null; address: string },
) {
  await tx
    .update(customers)
    .set({ phone: phone ?? null })
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  await setFirstLocationAddress(tx, { companyId, customerId, address })
}
