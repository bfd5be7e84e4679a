// The public API's reads (docs/decisions/050-public-api.md): every query by the key's company, paged by keyset on
// (created_at, id) — an opaque cursor that stays right while rows are added — with a fixed number of queries per
// page (a customer page reads its locations and bodies of water in one query each).
import { and, asc, eq, gt, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import {
  bodiesOfWater,
  customers,
  invoices,
  jobs,
  payments,
  paymentVoids,
  profiles,
  serviceLocations,
  servicePlans,
} from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { refundedCentsOf } from './balance.server'
import { customerFilter } from './customer-search.server'

export type Cursor = { createdAt: string; id: string }

export function encodeCursor(row: { createdAt: Date; id: string }) {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url')
}

/** The cursor's position, or null when it is not one of ours (the route answers 400). */
export function decodeCursor(cursor: string | undefined): Cursor | null | undefined {
  if (!cursor) return undefined
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || typeof value[0] !== 'string' || !isUuid(value[1])) return null
    if (Number.isNaN(Date.parse(value[0]))) return null
    return { createdAt: value[0], id: value[1] }
  } catch {
    return null
  }
}

/** `updated_since`: only the records created or changed at or after this instant (docs/api.md "Changes since"). */
type Page = { limit: number; cursor?: Cursor; updated_since?: string }

function changedSince(updatedAt: PgColumn, since: string | undefined): SQL | undefined {
  return since ? gte(updatedAt, new Date(since)) : undefined
}

/**
 * Timestamps are kept to the microsecond and a cursor carries milliseconds (a JavaScript Date): pages order and
 * compare by the millisecond, ties by id, so a row is never shown twice or skipped.
 */
const toMs = (column: PgColumn) => sql`date_trunc('milliseconds', ${column})`

export function keysetOrder(createdAt: PgColumn, idColumn: PgColumn) {
  return [asc(toMs(createdAt)), asc(idColumn)] as const
}

export function after(createdAt: PgColumn, idColumn: PgColumn, cursor: Cursor | undefined): SQL | undefined {
  if (!cursor) return undefined
  const at = new Date(cursor.createdAt).toISOString()
  return or(
    gt(toMs(createdAt), sql`${at}::timestamptz`),
    and(eq(toMs(createdAt), sql`${at}::timestamptz`), gt(idColumn, cursor.id)),
  )
}

/** One more row than asked tells whether there is a next page. */
function paged<T extends { createdAt: Date; id: string }>(rows: T[], limit: number) {
  const data = rows.slice(0, limit)
  const last = data[data.length - 1]
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(last) : null }
}

const iso = (value: Date | null) => (value ? value.toISOString() : null)

// ---- Customers ----

async function locationsOf(companyId: string, customerIds: string[], ex: Database = db()) {
  if (customerIds.length === 0) return new Map<string, ReturnType<typeof shapeLocation>[]>()
  const places = await ex
    .select()
    .from(serviceLocations)
    .where(and(eq(serviceLocations.companyId, companyId), inArray(serviceLocations.customerId, customerIds)))
    .orderBy(asc(serviceLocations.position), asc(serviceLocations.createdAt))
  const bodies = places.length
    ? await ex
        .select()
        .from(bodiesOfWater)
        .where(
          and(
            eq(bodiesOfWater.companyId, companyId),
            inArray(
              bodiesOfWater.locationId,
              places.map((place) => place.id),
            ),
          ),
        )
        .orderBy(asc(bodiesOfWater.position), asc(bodiesOfWater.createdAt))
    : []
  const byCustomer = new Map<string, ReturnType<typeof shapeLocation>[]>()
  for (const place of places) {
    const list = byCustomer.get(place.customerId) ?? []
    list.push(
      shapeLocation(
        place,
        bodies.filter((body) => body.locationId === place.id),
      ),
    )
    byCustomer.set(place.customerId, list)
  }
  return byCustomer
}

function shapeLocation(place: typeof serviceLocations.$inferSelect, bodies: (typeof bodiesOfWater.$inferSelect)[]) {
  return {
    id: place.id,
    label: place.label,
    street: place.street,
    city: place.city,
    state: place.state,
    postalCode: place.postalCode,
    lat: place.lat,
    lng: place.lng,
    gateCode: place.gateCode,
    accessNotes: place.accessNotes,
    dogOnSite: place.dogOnSite,
    minutesOnSite: place.minutesOnSite,
    archived: place.archivedAt !== null,
    bodiesOfWater: bodies.map((body) => ({
      id: body.id,
      name: body.name,
      gallons: body.gallons,
      surface: body.surface,
      sanitiser: body.sanitiser,
      indoor: body.indoor,
    })),
  }
}

const customerColumns = {
  id: customers.id,
  customerName: customers.customerName,
  email: customers.email,
  phone: customers.phone,
  billingAddress: customers.billingAddress,
  notes: customers.notes,
  status: customers.status,
  createdAt: customers.createdAt,
}

async function withLocations<T extends { id: string; createdAt: Date }>(
  companyId: string,
  rows: T[],
  ex: Database = db(),
) {
  const places = await locationsOf(
    companyId,
    rows.map((row) => row.id),
    ex,
  )
  return (row: T) => ({ ...row, serviceLocations: places.get(row.id) ?? [] })
}

export async function apiListCustomers(
  companyId: string,
  { limit, cursor, q, status, updated_since }: Page & { q?: string; status?: 'active' | 'archived' },
) {
  const rows = await db()
    .select(customerColumns)
    .from(customers)
    .where(
      and(
        customerFilter(companyId, q, status),
        changedSince(customers.updatedAt, updated_since),
        after(customers.createdAt, customers.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(customers.createdAt, customers.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  const shape = await withLocations(companyId, page.data)
  return {
    data: page.data.map((row) => toCustomer(shape(row))),
    nextCursor: page.nextCursor,
  }
}

function toCustomer<T extends { createdAt: Date }>(row: T) {
  return { ...row, createdAt: row.createdAt.toISOString() }
}

export async function apiGetCustomer(companyId: string, customerId: string, ex: Database = db()) {
  if (!isUuid(customerId)) return null
  const [row] = await ex
    .select(customerColumns)
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!row) return null
  const shape = await withLocations(companyId, [row], ex)
  return toCustomer(shape(row))
}

// ---- Visits ----

const visitColumns = {
  id: jobs.id,
  customerId: jobs.customerId,
  locationId: jobs.locationId,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  cancelledAt: jobs.cancelledAt,
  skipReason: jobs.skipReason,
  technicianId: jobs.technicianId,
  servicePlanId: jobs.planId,
  createdAt: jobs.createdAt,
}

type VisitRow = {
  id: string
  customerId: string
  locationId: string
  customerName: string
  address: string
  scheduledAt: Date
  completedAt: Date | null
  cancelledAt: Date | null
  skipReason: string | null
  technicianId: string | null
  servicePlanId: string | null
  createdAt: Date
}

function toVisit({ cancelledAt, ...row }: VisitRow) {
  const status = row.completedAt
    ? 'completed'
    : row.skipReason
      ? 'skipped'
      : cancelledAt
        ? 'cancelled'
        : ('scheduled' as const)
  return {
    ...row,
    status: status as 'scheduled' | 'completed' | 'skipped' | 'cancelled',
    scheduledAt: row.scheduledAt.toISOString(),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
  }
}

const VISIT_STATUS_FILTER: Record<string, SQL> = {
  scheduled: sql`(${jobs.completedAt} is null and ${jobs.cancelledAt} is null)`,
  completed: sql`${jobs.completedAt} is not null`,
  skipped: sql`${jobs.skipReason} is not null`,
  cancelled: sql`(${jobs.cancelledAt} is not null and ${jobs.skipReason} is null)`,
}

export async function apiListVisits(
  companyId: string,
  {
    limit,
    cursor,
    from,
    to,
    technicianId,
    status,
    updated_since,
  }: Page & { from?: string; to?: string; technicianId?: string; status?: string },
) {
  const rows = await db()
    .select(visitColumns)
    .from(jobs)
    .where(
      and(
        eq(jobs.companyId, companyId),
        from ? gte(jobs.scheduledAt, new Date(from)) : undefined,
        to ? lt(jobs.scheduledAt, new Date(to)) : undefined,
        technicianId ? eq(jobs.technicianId, technicianId) : undefined,
        status ? VISIT_STATUS_FILTER[status] : undefined,
        changedSince(jobs.updatedAt, updated_since),
        after(jobs.createdAt, jobs.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(jobs.createdAt, jobs.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toVisit), nextCursor: page.nextCursor }
}

export async function apiGetVisit(companyId: string, visitId: string, ex: Database = db()) {
  if (!isUuid(visitId)) return null
  const [row] = await ex
    .select(visitColumns)
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, visitId)))
  return row ? toVisit(row) : null
}

// ---- Service plans ----

const planColumns = {
  id: servicePlans.id,
  customerId: serviceLocations.customerId,
  locationId: servicePlans.locationId,
  frequencyWeeks: servicePlans.frequencyWeeks,
  weekday: servicePlans.weekday,
  technicianId: servicePlans.technicianId,
  startsOn: servicePlans.startsOn,
  endsOn: servicePlans.endsOn,
  serviceWindow: servicePlans.serviceWindow,
  rateCents: servicePlans.rateCents,
  rateType: servicePlans.rateType,
  createdAt: servicePlans.createdAt,
}

function planQuery(companyId: string, where: SQL | undefined) {
  return db()
    .select(planColumns)
    .from(servicePlans)
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
    )
    .where(and(eq(servicePlans.companyId, companyId), where))
}

const toDated = <T extends { createdAt: Date }>(row: T) => ({ ...row, createdAt: row.createdAt.toISOString() })

export async function apiListServicePlans(companyId: string, { limit, cursor, updated_since }: Page) {
  const rows = await planQuery(
    companyId,
    and(changedSince(servicePlans.updatedAt, updated_since), after(servicePlans.createdAt, servicePlans.id, cursor)),
  )
    .orderBy(...keysetOrder(servicePlans.createdAt, servicePlans.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toDated), nextCursor: page.nextCursor }
}

export async function apiGetServicePlan(companyId: string, planId: string) {
  if (!isUuid(planId)) return null
  const [row] = await planQuery(companyId, eq(servicePlans.id, planId))
  return row ? toDated(row) : null
}

// ---- Invoices ----

const invoiceColumns = {
  id: invoices.id,
  customerId: invoices.customerId,
  number: invoices.number,
  state: invoices.state,
  periodStart: invoices.periodStart,
  periodEnd: invoices.periodEnd,
  issuedOn: invoices.issuedOn,
  dueOn: invoices.dueOn,
  subtotalCents: invoices.subtotalCents,
  taxCents: invoices.taxCents,
  totalCents: invoices.totalCents,
  paidCents: invoices.paidCents,
  sentAt: invoices.sentAt,
  voidedAt: invoices.voidedAt,
  createdAt: invoices.createdAt,
}

function toInvoice<T extends { sentAt: Date | null; voidedAt: Date | null; createdAt: Date }>(row: T) {
  return { ...row, sentAt: iso(row.sentAt), voidedAt: iso(row.voidedAt), createdAt: row.createdAt.toISOString() }
}

export async function apiListInvoices(
  companyId: string,
  {
    limit,
    cursor,
    customerId,
    state,
    updated_since,
  }: Page & { customerId?: string; state?: 'draft' | 'sent' | 'void' },
) {
  const rows = await db()
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        customerId ? eq(invoices.customerId, customerId) : undefined,
        state ? eq(invoices.state, state) : undefined,
        changedSince(invoices.updatedAt, updated_since),
        after(invoices.createdAt, invoices.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(invoices.createdAt, invoices.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toInvoice), nextCursor: page.nextCursor }
}

export async function apiGetInvoice(companyId: string, invoiceId: string) {
  if (!isUuid(invoiceId)) return null
  const [row] = await db()
    .select(invoiceColumns)
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  return row ? toInvoice(row) : null
}

// ---- Payments ----

function paymentQuery(companyId: string, where: SQL | undefined) {
  return db()
    .select({
      id: payments.id,
      customerId: payments.customerId,
      invoiceId: payments.invoiceId,
      amountCents: payments.amountCents,
      refundedCents: refundedCentsOf(payments.id),
      receivedOn: payments.receivedOn,
      method: payments.method,
      reference: payments.reference,
      voidedAt: paymentVoids.voidedAt,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .leftJoin(
      paymentVoids,
      and(eq(paymentVoids.companyId, payments.companyId), eq(paymentVoids.paymentId, payments.id)),
    )
    .where(and(eq(payments.companyId, companyId), where))
}

function toPayment<T extends { voidedAt: Date | null; createdAt: Date }>(row: T) {
  return { ...row, voidedAt: iso(row.voidedAt), createdAt: row.createdAt.toISOString() }
}

export async function apiListPayments(
  companyId: string,
  { limit, cursor, customerId, updated_since }: Page & { customerId?: string },
) {
  const rows = await paymentQuery(
    companyId,
    and(
      customerId ? eq(payments.customerId, customerId) : undefined,
      changedSince(payments.updatedAt, updated_since),
      after(payments.createdAt, payments.id, cursor),
    ),
  )
    .orderBy(...keysetOrder(payments.createdAt, payments.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toPayment), nextCursor: page.nextCursor }
}

export async function apiGetPayment(companyId: string, paymentId: string) {
  if (!isUuid(paymentId)) return null
  const [row] = await paymentQuery(companyId, eq(payments.id, paymentId))
  return row ? toPayment(row) : null
}

// ---- Technicians ----

export async function apiGetTechnician(companyId: string, technicianId: string) {
  if (technicianId.length > 100) return null
  const [row] = await db()
    .select({ id: profiles.id, name: profiles.fullName, email: profiles.email, deactivatedAt: profiles.deactivatedAt })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, technicianId), eq(profiles.role, 'tech')))
  return row ? { id: row.id, name: row.name, email: row.email, active: row.deactivatedAt === null } : null
}

export async function apiListTechnicians(companyId: string) {
  const rows = await db()
    .select({ id: profiles.id, name: profiles.fullName, email: profiles.email, deactivatedAt: profiles.deactivatedAt })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech')))
    .orderBy(...keysetOrder(profiles.createdAt, profiles.id))
    .limit(500)
  return rows.map((row) => ({ id: row.id, name: row.name, email: row.email, active: row.deactivatedAt === null }))
}
