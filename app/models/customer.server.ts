// Customers as a pool company sees them (OPERATIONS §1–§2): the account holder, their service locations, the
// bodies of water and equipment there, and their visits. Every function takes the company it works in; a customer
// of another company is "not found". Reads of a whole record run a fixed number of queries keyed by the customer.
import { and, asc, count, desc, eq, gte, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm'
import {
  bodiesOfWater,
  chemLogs,
  customers,
  equipment,
  jobs,
  profiles,
  serviceLocations,
  servicePlans,
  session,
  visitPhotos,
} from '~/db/schema'
import { formatAddress, parseAddress } from '~/utils/address'
import type { CustomerStatus } from '~/utils/customer-fields'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { balanceCentsOf } from './balance.server'
import { bodyOrder, firstBodyOfWaterOf } from './body-of-water.server'
import {
  type ContactInput,
  ContactSchema,
  firstIssue,
  type NewCustomerInput,
  NewCustomerSchema,
} from './customer-schemas'
import { editedPosition, newLocationPosition, zipPosition } from './location-position.server'
import { addressColumns, addressOf, cancelOpenVisits, firstLocationOf, locationOrder } from './service-location.server'
import { generateVisits } from './service-plan.server'

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

/**
 * Escapes LIKE wildcards so typed text is matched literally (the text itself is always a
 * parameter). NUL characters are dropped: PostgreSQL text cannot hold them, and no one types one.
 */
export function likePattern(text: string) {
  return `%${text.replaceAll('\u0000', '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

// ---- Searching ----

/**
 * What searches match, as one text per row: the same expressions as the trigram indexes of the schema
 * (`customers_company_search_trgm_idx`, `service_locations_company_search_trgm_idx`), so `ilike` uses them.
 */
const customerSearchText = sql<string>`(${customers.customerName} || ' ' || coalesce(${customers.email}, '') || ' ' || coalesce(${customers.phone}, ''))`
const locationSearchText = sql<string>`(coalesce(${serviceLocations.label}, '') || ' ' || ${serviceLocations.street} || ' ' || coalesce(${serviceLocations.city}, '') || ' ' || coalesce(${serviceLocations.state}, '') || ' ' || coalesce(${serviceLocations.postalCode}, ''))`

/**
 * The typed text as a search: null for none, 'nothing' for text that can identify nobody (punctuation alone —
 * every address has a comma), else the LIKE pattern and, for text that looks like a phone number, its digits
 * (phones are stored as "+18135550101", so "813-555" is looked for as "813555").
 */
function searchTerms(query: string | undefined) {
  // NUL characters are dropped here too: the text also goes to word_similarity as a parameter, not only to LIKE.
  const text = (query ?? '').replaceAll('\u0000', '').trim().slice(0, 100)
  if (!text) return null
  if (!/[\p{L}\p{N}]/u.test(text)) return 'nothing' as const
  const digits = text.replace(/\D/g, '')
  const phoneLike = /^[\d\s()+.-]+$/.test(text) && digits.length >= 3
  return { text, pattern: likePattern(text), digitsPattern: phoneLike ? likePattern(digits) : null }
}

/**
 * Customers of the company whose name, email, phone or any location's address contains the typed text: the ids
 * matching in either table, each found on its trigram index (a union rather than an OR, which no index answers).
 */
function customerFilter(companyId: string, query: string | undefined, status?: CustomerStatus) {
  const filters: Array<SQL | undefined> = [eq(customers.companyId, companyId)]
  if (status) filters.push(eq(customers.status, status))
  const terms = searchTerms(query)
  if (terms === 'nothing') filters.push(sql`false`)
  else if (terms) {
    const byCustomer = db()
      .select({ id: customers.id })
      .from(customers)
      .where(
        and(
          eq(customers.companyId, companyId),
          or(
            ilike(customerSearchText, terms.pattern),
            terms.digitsPattern ? ilike(customerSearchText, terms.digitsPattern) : undefined,
          ),
        ),
      )
    const byLocation = db()
      .select({ id: serviceLocations.customerId })
      .from(serviceLocations)
      .where(and(eq(serviceLocations.companyId, companyId), ilike(locationSearchText, terms.pattern)))
    filters.push(sql`${customers.id} in (${byCustomer} union ${byLocation})`)
  }
  return and(...filters)
}

/** The address columns of a first-location subquery, for a select list. */
function pick(location: ReturnType<typeof firstLocationOf>) {
  return { street: location.street, city: location.city, state: location.state, postalCode: location.postalCode }
}

/** The customer picker's page size (OPERATIONS §2: a search, not a 20-item dropdown). */
export const PICKER_LIMIT = 10

/**
 * The new-job form's customer picker: up to `limit` ACTIVE customers matching the typed text (name, email, phone,
 * any location's address), best first — names starting with the text, then the closest names (trigram word
 * similarity), then by name — each with its locations in use. Two queries, both on indexes, however many
 * customers the company has.
 */
export async function pickCustomers({
  companyId,
  query,
  limit = PICKER_LIMIT,
}: {
  companyId: string
  query: string
  limit?: number
}) {
  const terms = searchTerms(query)
  // Names starting with the text, then names with a word starting with it, then the closest (trigrams).
  const prefix = likePattern(terms && terms !== 'nothing' ? terms.text : '').slice(1)
  const relevance =
    terms && terms !== 'nothing'
      ? [
          desc(sql`${customers.customerName} ilike ${prefix}`),
          desc(sql`${customers.customerName} ilike ${`% ${prefix}`}`),
          desc(sql`word_similarity(${terms.text}, ${customerSearchText})`),
        ]
      : []
  const found = await db()
    .select({ id: customers.id, customerName: customers.customerName, email: customers.email, phone: customers.phone })
    .from(customers)
    .where(customerFilter(companyId, query, 'active'))
    .orderBy(...relevance, asc(customers.customerName), asc(customers.id))
    .limit(Math.min(Math.max(1, limit), 50))
  if (found.length === 0) return []
  const locations = await db()
    .select({
      id: serviceLocations.id,
      customerId: serviceLocations.customerId,
      label: serviceLocations.label,
      ...addressColumns,
    })
    .from(serviceLocations)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        inArray(
          serviceLocations.customerId,
          found.map((customer) => customer.id),
        ),
        isNull(serviceLocations.archivedAt),
      ),
    )
    .orderBy(...locationOrder)
  return found.map((customer) => ({
    ...customer,
    locations: locations
      .filter((location) => location.customerId === customer.id)
      .map((location) => ({ id: location.id, label: location.label, address: formatAddress(location) })),
  }))
}

// ---- Lists ----

/** Whether a customer can sign in to their portal: no login, invited but not set up, or set up. */
export type PortalStatus = 'none' | 'invited' | 'active'

const portalStatus = sql<PortalStatus>`case
  when ${customers.portalUserId} is null then 'none'
  when coalesce(${profiles.hasCompletedSetup}, false) then 'active'
  else 'invited' end`

/** A page number from anything: whole, at least 1. */
function pageNumber(page: number | undefined) {
  return page !== undefined && Number.isFinite(page) ? Math.min(Math.max(1, Math.floor(page)), 100_000) : 1
}

/**
 * One page of the customer list (OPERATIONS §2): "Active" (the default) or "Archived" customers matching the
 * search, by name, with the first location's address, the next visit (the earliest open visit, which may be
 * overdue), the balance and whether they can use the portal; with the total of matches. One query: the address and next visit are LATERAL index
 * probes per row of the page, the total a window count.
 */
export async function listCustomerDirectory({
  companyId,
  query = '',
  status = 'active',
  page = 1,
  pageSize = 50,
}: {
  companyId: string
  query?: string
  status?: CustomerStatus
  page?: number
  pageSize?: number
}) {
  const size = Math.min(Math.max(1, Math.floor(pageSize)), 200)
  const current = pageNumber(page)
  const where = customerFilter(companyId, query, status)
  const location = firstLocationOf(customers)
  const nextVisit = db()
    .select({ scheduledAt: jobs.scheduledAt })
    .from(jobs)
    .where(
      and(
        eq(jobs.companyId, customers.companyId),
        eq(jobs.customerId, customers.id),
        isNull(jobs.completedAt),
        isNull(jobs.cancelledAt),
      ),
    )
    .orderBy(asc(jobs.scheduledAt))
    .limit(1)
    .as('next_visit')
  // The page's customers first (and the total), then each one's location, next visit and balance: looked up for
  // the 50 rows shown, not for every match (a search matching 500 of 5,000 customers spent 9 ms finding next visits
  // for rows it then dropped).
  const shown = db()
    .select({ id: customers.id, total: sql<number>`count(*) over ()`.as('total') })
    .from(customers)
    .where(where)
    .orderBy(asc(customers.customerName), asc(customers.id))
    .limit(size)
    .offset((current - 1) * size)
    .as('shown')
  const rows = await db()
    .select({
      // Never null (every id on the page is a customer's): typed as the inner join would type them.
      id: shown.id,
      customerName: sql<string>`${customers.customerName}`,
      status: sql<CustomerStatus>`${customers.status}`,
      email: customers.email,
      phone: customers.phone,
      ...pick(location),
      nextVisitAt: nextVisit.scheduledAt,
      balanceDue: balanceCentsOf(customers.companyId, customers.id),
      portalStatus,
      total: sql<number>`${shown.total}`.mapWith(Number),
    })
    .from(shown)
    // A left join keeps the page (`shown`) on the outer side, worked out once. With an inner join a planner without
    // statistics (a database never analysed) may put it inside a loop over every customer: 3.3 s instead of 71 ms.
    .leftJoin(customers, and(eq(customers.companyId, companyId), eq(customers.id, shown.id)))
    .leftJoin(profiles, eq(profiles.id, customers.portalUserId))
    .leftJoinLateral(location, sql`true`)
    .leftJoinLateral(nextVisit, sql`true`)
    .orderBy(asc(customers.customerName), asc(customers.id))
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && current > 1) {
    const [counted] = await db().select({ value: count() }).from(customers).where(where)
    total = counted?.value ?? 0
  }
  return {
    page: current,
    pageSize: size,
    total,
    rows: rows.map(({ total: _total, street, city, state, postalCode, ...row }) => ({
      ...row,
      address: addressOf({ street, city, state, postalCode }),
    })),
  }
}

// ---- The customer record ----

/** Visits per page of a record's "Visit history". */
export const VISIT_HISTORY_PAGE_SIZE = 20
/** Open visits listed under "Upcoming visits". */
export const UPCOMING_VISITS_LIMIT = 20

/**
 * A customer's record page (OPERATIONS §2): contact details, the service locations (each with its bodies of water,
 * each with its equipment, and its service plans), the open visits from the earliest and a page of the visit
 * history (completed and cancelled visits, newest first). Seven queries run at once, each keyed by the customer,
 * whatever the number of locations. Null for a customer of another company.
 */
export async function getCustomerRecord({
  companyId,
  customerId,
  historyPage = 1,
}: {
  companyId: string
  customerId: string
  historyPage?: number
}) {
  if (!isUuid(customerId)) return null
  const page = pageNumber(historyPage)
  const ofCustomer = and(eq(serviceLocations.companyId, companyId), eq(serviceLocations.customerId, customerId))
  const visitsOfCustomer = and(eq(jobs.companyId, companyId), eq(jobs.customerId, customerId))
  const technician = and(eq(profiles.id, jobs.technicianId), eq(profiles.companyId, jobs.companyId))
  const visitColumns = {
    id: jobs.id,
    locationId: jobs.locationId,
    address: jobs.address,
    scheduledAt: jobs.scheduledAt,
    completedAt: jobs.completedAt,
    cancelledAt: jobs.cancelledAt,
    skipReason: jobs.skipReason,
    technicianName: profiles.fullName,
  }
  const [header, locationRows, bodyRows, equipmentRows, planRows, upcoming, history] = await Promise.all([
    db()
      .select({
        id: customers.id,
        customerName: customers.customerName,
        email: customers.email,
        phone: customers.phone,
        billingAddress: customers.billingAddress,
        notes: customers.notes,
        status: customers.status,
        archivedAt: customers.archivedAt,
        balanceDue: balanceCentsOf(customers.companyId, customers.id),
        portalStatus,
        createdAt: customers.createdAt,
        // "Visa ending 4242" when the customer saved a card for autopay; the page shows it to billing roles only.
        autopayCardLabel: customers.autopayCardLabel,
      })
      .from(customers)
      .leftJoin(profiles, eq(profiles.id, customers.portalUserId))
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .limit(1),
    db()
      .select({
        id: serviceLocations.id,
        label: serviceLocations.label,
        ...addressColumns,
        lat: serviceLocations.lat,
        lng: serviceLocations.lng,
        positionSource: serviceLocations.positionSource,
        gateCode: serviceLocations.gateCode,
        accessNotes: serviceLocations.accessNotes,
        dogOnSite: serviceLocations.dogOnSite,
        minutesOnSite: serviceLocations.minutesOnSite,
        archivedAt: serviceLocations.archivedAt,
      })
      .from(serviceLocations)
      .where(ofCustomer)
      .orderBy(...locationOrder),
    db()
      .select({
        id: bodiesOfWater.id,
        locationId: bodiesOfWater.locationId,
        name: bodiesOfWater.name,
        gallons: bodiesOfWater.gallons,
        surface: bodiesOfWater.surface,
        sanitiser: bodiesOfWater.sanitiser,
        indoor: bodiesOfWater.indoor,
      })
      .from(bodiesOfWater)
      .innerJoin(
        serviceLocations,
        and(eq(serviceLocations.companyId, bodiesOfWater.companyId), eq(serviceLocations.id, bodiesOfWater.locationId)),
      )
      .where(ofCustomer)
      .orderBy(...bodyOrder),
    db()
      .select({
        id: equipment.id,
        bodyOfWaterId: equipment.bodyOfWaterId,
        kind: equipment.kind,
        make: equipment.make,
        model: equipment.model,
        serial: equipment.serial,
        installedOn: equipment.installedOn,
        notes: equipment.notes,
      })
      .from(equipment)
      .innerJoin(
        bodiesOfWater,
        and(eq(bodiesOfWater.companyId, equipment.companyId), eq(bodiesOfWater.id, equipment.bodyOfWaterId)),
      )
      .innerJoin(
        serviceLocations,
        and(eq(serviceLocations.companyId, bodiesOfWater.companyId), eq(serviceLocations.id, bodiesOfWater.locationId)),
      )
      .where(ofCustomer)
      .orderBy(asc(equipment.createdAt), asc(equipment.id)),
    db()
      .select({
        id: servicePlans.id,
        locationId: servicePlans.locationId,
        frequencyWeeks: servicePlans.frequencyWeeks,
        weekday: servicePlans.weekday,
        technicianId: servicePlans.technicianId,
        technicianName: profiles.fullName,
        startsOn: servicePlans.startsOn,
        endsOn: servicePlans.endsOn,
        serviceWindow: servicePlans.serviceWindow,
        rateCents: servicePlans.rateCents,
        rateType: servicePlans.rateType,
      })
      .from(servicePlans)
      .innerJoin(
        serviceLocations,
        and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
      )
      .leftJoin(
        profiles,
        and(eq(profiles.id, servicePlans.technicianId), eq(profiles.companyId, servicePlans.companyId)),
      )
      .where(ofCustomer)
      .orderBy(asc(servicePlans.weekday), asc(servicePlans.startsOn), asc(servicePlans.id)),
    db()
      .select(visitColumns)
      .from(jobs)
      .leftJoin(profiles, technician)
      .where(and(visitsOfCustomer, isNull(jobs.completedAt), isNull(jobs.cancelledAt)))
      .orderBy(asc(jobs.scheduledAt), asc(jobs.id))
      .limit(UPCOMING_VISITS_LIMIT),
    db()
      .select({ ...visitColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(jobs)
      .leftJoin(profiles, technician)
      .where(and(visitsOfCustomer, or(isNotNull(jobs.completedAt), isNotNull(jobs.cancelledAt))))
      .orderBy(desc(jobs.scheduledAt), desc(jobs.id))
      .limit(VISIT_HISTORY_PAGE_SIZE)
      .offset((page - 1) * VISIT_HISTORY_PAGE_SIZE),
  ])
  const customer = header[0]
  if (!customer) return null

  const equipmentByBody = groupBy(equipmentRows, (row) => row.bodyOfWaterId)
  const bodiesByLocation = groupBy(bodyRows, (row) => row.locationId)
  const plansByLocation = groupBy(planRows, (row) => row.locationId)
  const total = history[0]?.total ?? 0
  return {
    customer,
    locations: locationRows.map((location) => ({
      ...location,
      address: formatAddress(location),
      bodiesOfWater: (bodiesByLocation.get(location.id) ?? []).map(({ locationId: _, ...body }) => ({
        ...body,
        equipment: (equipmentByBody.get(body.id) ?? []).map(({ bodyOfWaterId: __, ...item }) => item),
      })),
      plans: (plansByLocation.get(location.id) ?? []).map(({ locationId: _, ...plan }) => plan),
    })),
    upcomingVisits: upcoming,
    visitHistory: {
      page,
      pageSize: VISIT_HISTORY_PAGE_SIZE,
      // A page past the end has no rows to count with; the record page then links back to the first.
      total,
      rows: history.map(({ total: _, ...visit }) => visit),
    },
  }
}

export type CustomerRecord = NonNullable<Awaited<ReturnType<typeof getCustomerRecord>>>

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K) {
  const groups = new Map<K, T[]>()
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row])
  return groups
}

// ---- Changes ----

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
    return success({ customerId: customer.id, locationId: place.id, bodyOfWaterId })
  })
}

/** "Edit" on the record: the account holder's name, email, phone, billing address and notes. */
export async function updateCustomerContact({
  companyId,
  customerId,
  input,
}: {
  companyId: string
  customerId: string
  input: ContactInput
}): Promise<Result> {
  const parsed = ContactSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(customerId)) return failure('not-found', CUSTOMER_NOT_FOUND)
  const rows = await db()
    .update(customers)
    .set(parsed.data)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .returning({ id: customers.id })
  return rows.length ? success({}) : failure('not-found', CUSTOMER_NOT_FOUND)
}

/**
 * "Archive customer", in one transaction: the customer leaves the default list and the pickers, every visit still
 * open is cancelled (nobody will do it; overdue ones too — completed visits stay as history), and portal access
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
}): Promise<Result<{ cancelledVisits: number }>> {
  if (!isUuid(customerId)) return failure('not-found', CUSTOMER_NOT_FOUND)
  const result = await db().transaction(async (tx) => {
    const [customer] = await tx
      .select({ status: customers.status, portalUserId: customers.portalUserId })
      .from(customers)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .limit(1)
      .for('update')
    if (!customer) return failure('not-found', CUSTOMER_NOT_FOUND)
    if (customer.status === 'archived') return success({ cancelledVisits: 0 })
    await tx
      .update(customers)
      .set({ status: 'archived', archivedAt: now })
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    const cancelledVisits = await cancelOpenVisits(tx, { companyId, customerId, now })
    if (customer.portalUserId) await endPortalAccess(tx, companyId, customer.portalUserId, now)
    return success({ cancelledVisits })
  })
  if (result.ok && result.cancelledVisits > 0) await publishCompanyEvent({ companyId, type: 'job.updated' })
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
 * visits still ahead that the archive cancelled are given back: they are deleted and generation makes them again
 * from the plans (decision 018). One-off jobs cancelled by the archive stay cancelled (the office books again what is
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
      // Exactly the visits the archive cancelled (same instant), still ahead, never worked on.
      await tx
        .delete(jobs)
        .where(
          and(
            eq(jobs.companyId, companyId),
            eq(jobs.customerId, customerId),
            isNotNull(jobs.planId),
            eq(jobs.cancelledAt, before.archivedAt),
            isNull(jobs.skipReason),
            gte(jobs.scheduledAt, now),
            sql`not exists (select 1 from ${visitPhotos} where ${visitPhotos.companyId} = ${jobs.companyId} and ${visitPhotos.jobId} = ${jobs.id})`,
            sql`not exists (select 1 from ${chemLogs} where ${chemLogs.companyId} = ${jobs.companyId} and ${chemLogs.jobId} = ${jobs.id})`,
          ),
        )
      const plans = await tx
        .select({ id: servicePlans.id })
        .from(servicePlans)
        .innerJoin(
          serviceLocations,
          and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
        )
        .where(and(eq(servicePlans.companyId, companyId), eq(serviceLocations.customerId, customerId)))
      await generateVisits({ now, companyId, planIds: plans.map((plan) => plan.id), executor: tx })
    }
    return success({})
  })
  if (result.ok) await publishCompanyEvent({ companyId, type: 'job.updated' })
  return result
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
      poolSanitiser: pool.poolSanitiser,
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
