// The public API's schedule (docs/decisions/050-public-api.md): visits, service plans and the technicians they are
// assigned to, by the key's company, paged by keyset.
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import { jobs, profiles, serviceLocations, servicePlans } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { after, changedSince, iso, keysetOrder, type Page, paged } from './api-paging.server'

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
