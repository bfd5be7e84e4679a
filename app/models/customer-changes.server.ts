// What the office changes about a customer (docs/product.md "Customers"): add (with the first location), edit the
// contact, archive and restore. Each change is one transaction and records its webhook event.
import { and, eq, gte, isNotNull, isNull, sql } from 'drizzle-orm'
import {
  bodiesOfWater,
  chemLogs,
  customers,
  profiles,
  serviceLocations,
  servicePlans,
  session,
  visitPhotos,
  visits,
} from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { CUSTOMER_NOT_FOUND } from './customer.server'
import {
  type ContactInput,
  ContactSchema,
  firstIssue,
  type NewCustomerInput,
  NewCustomerSchema,
} from './customer-schemas'
import { locationOfPlan } from './joins.server'
import { newLocationPosition } from './location-position.server'
import { cancelOpenVisits } from './service-location.server'
import { generateVisits } from './visit-generation.server'

/**
 * "Add customer": the customer with their first service location and, when given, its first body of water, in one
 * transaction (the caller's, if it passes one).
 */
export async function createCustomerWithLocation(
  companyId: string,
  input: NewCustomerInput,
  executor: Database = db(),
): Promise<Result<{ customerId: string; locationId: string; bodyOfWaterId: string | null }>> {
  const parsed = NewCustomerSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  const { location, bodyOfWater, ...contact } = parsed.data
  return executor.transaction(async (tx) => {
    const [customer] = await tx
      .insert(customers)
      .values({ companyId, ...contact })
      .returning({ id: customers.id })
    if (!customer) throw new Error('customer insert returned no row')
    const [place] = await tx
      .insert(serviceLocations)
      .values({
        companyId,
        customerId: customer.id,
        ...location,
        ...newLocationPosition(location, 'manual'),
        position: 0,
      })
      .returning({ id: serviceLocations.id })
    if (!place) throw new Error('location insert returned no row')
    let bodyOfWaterId: string | null = null
    if (bodyOfWater) {
      const [body] = await tx
        .insert(bodiesOfWater)
        .values({ companyId, locationId: place.id, ...bodyOfWater, position: 0 })
        .returning({ id: bodiesOfWater.id })
      bodyOfWaterId = body?.id ?? null
    }
    await enqueue(tx, { kind: 'webhook', companyId, type: 'customer.created', data: { customerId: customer.id } })
    return success({ customerId: customer.id, locationId: place.id, bodyOfWaterId })
  })
}

/** "Edit" on the record: the account holder's name, email, phone, billing address and notes. */
export async function updateCustomerContact(
  {
    companyId,
    customerId,
    input,
  }: {
    companyId: string
    customerId: string
    input: ContactInput
  },
  executor: Database = db(),
): Promise<Result> {
  const parsed = ContactSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(customerId)) return failure('not-found', CUSTOMER_NOT_FOUND)
  return executor.transaction(async (tx) => {
    const rows = await tx
      .update(customers)
      .set(parsed.data)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .returning({ id: customers.id })
    if (!rows.length) return failure('not-found', CUSTOMER_NOT_FOUND)
    await enqueue(tx, { kind: 'webhook', companyId, type: 'customer.updated', data: { customerId } })
    return success({})
  })
}

/**
 * "Archive customer", in one transaction: the customer leaves the default list and the pickers, every visit still
 * open is canceled (nobody will do it; overdue ones too — completed visits stay as history), and portal access
 * ends: their portal login's sessions are deleted and its profile marked deactivated, which the sign-in check
 * (better-auth's session hook, `isDeactivated`) and every request's session check already refuse. Archiving an
 * archived customer changes nothing.
 */
export async function archiveCustomer({
  companyId,
  customerId,
  now = new Date(),
}: {
  companyId: string
  customerId: string
  now?: Date
}): Promise<Result<{ canceledVisits: number }>> {
  if (!isUuid(customerId)) return failure('not-found', CUSTOMER_NOT_FOUND)
  const result = await db().transaction(async (tx) => {
    const [customer] = await tx
      .select({ status: customers.status, portalUserId: customers.portalUserId })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .limit(1)
      .for('update')
    if (!customer) return failure('not-found', CUSTOMER_NOT_FOUND)
    if (customer.status === 'archived') return success({ canceledVisits: 0 })
    await tx
      .update(customers)
      .set({ status: 'archived', archivedAt: now })
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    const canceledVisits = await cancelOpenVisits(tx, { companyId, customerId, now })
    if (customer.portalUserId) await endPortalAccess(tx, companyId, customer.portalUserId, now)
    return success({ canceledVisits })
  })
  if (result.ok && result.canceledVisits > 0) await publishCompanyEvent({ companyId, type: 'visit.updated' })
  return result
}

/** Signs the customer's portal login out everywhere and refuses it from now on (until the customer is restored). */
async function endPortalAccess(tx: Database, companyId: string, userId: string, now: Date) {
  await tx
    .update(profiles)
    .set({ deactivatedAt: now })
    .where(and(eq(profiles.id, userId), eq(profiles.companyId, companyId), eq(profiles.role, 'customer')))
  await tx.delete(session).where(eq(session.userId, userId))
}

/**
 * "Restore customer": active again, in the list and the pickers, and their portal login may sign in again. Plan
 * visits still ahead that the archive canceled are given back: they are deleted and generation makes them again
 * from the plans (decision 018). One-off visits canceled by the archive stay canceled (the office books again what is
 * still wanted).
 */
export async function restoreCustomer({
  companyId,
  customerId,
  now = new Date(),
}: {
  companyId: string
  customerId: string
  now?: Date
}): Promise<Result> {
  if (!isUuid(customerId)) return failure('not-found', CUSTOMER_NOT_FOUND)
  const result = await db().transaction(async (tx) => {
    const [before] = await tx
      .select({ archivedAt: customers.archivedAt })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .for('update')
    if (!before) return failure('not-found', CUSTOMER_NOT_FOUND)
    const [customer] = await tx
      .update(customers)
      .set({ status: 'active', archivedAt: null })
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .returning({ portalUserId: customers.portalUserId })
    if (!customer) return failure('not-found', CUSTOMER_NOT_FOUND)
    if (customer.portalUserId) {
      await tx
        .update(profiles)
        .set({ deactivatedAt: null })
        .where(
          and(eq(profiles.id, customer.portalUserId), eq(profiles.companyId, companyId), eq(profiles.role, 'customer')),
        )
    }
    if (before.archivedAt) {
      // Exactly the visits the archive canceled (same instant), still ahead, never worked on.
      await tx
        .delete(visits)
        .where(
          and(
            eq(visits.companyId, companyId),
            eq(visits.customerId, customerId),
            isNotNull(visits.planId),
            eq(visits.canceledAt, before.archivedAt),
            isNull(visits.skipReason),
            gte(visits.scheduledAt, now),
            sql`not exists (select 1 from ${visitPhotos} where ${visitPhotos.companyId} = ${visits.companyId} and ${visitPhotos.visitId} = ${visits.id})`,
            sql`not exists (select 1 from ${chemLogs} where ${chemLogs.companyId} = ${visits.companyId} and ${chemLogs.visitId} = ${visits.id})`,
          ),
        )
      const plans = await tx
        .select({ id: servicePlans.id })
        .from(servicePlans)
        .innerJoin(serviceLocations, locationOfPlan)
        .where(and(eq(servicePlans.companyId, companyId), eq(serviceLocations.customerId, customerId)))
      await generateVisits({ now, companyId, planIds: plans.map((plan) => plan.id), executor: tx })
    }
    return success({})
  })
  if (result.ok) await publishCompanyEvent({ companyId, type: 'visit.updated' })
  return result
}
