// The public API's schedule (docs/decisions/050-public-api.md): visits, service plans and the technicians they are
// assigned to, by the key's company, paged by keyset.
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import { profiles, serviceLocations, servicePlans, visits } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { after, changedSince, iso, keysetOrder, type Page, paged } from './api-paging.server'
import { locationOfPlan } from './joins.server'
import { visitSummaryColumns } from './visit-record.server'

// ---- Visits ----

const visitColumns = {
  id: visits.id,
  customerId: visits.customerId,
  locationId: visits.locationId,
  ...visitSummaryColumns,
  technicianId: visits.technicianId,
  servicePlanId: visits.planId,
  createdAt: visits.createdAt,
}

type VisitRow = {
  id: string
  customerId: string
  locationId: string
  customerName: string
  address: string
  scheduledAt: Date
  completedAt: Date | null
  canceledAt: Date | null
  skipReason: string | null
  technicianId: string | null
  servicePlanId: string | null
  createdAt: Date
}

function toVisit({ canceledAt, ...row }: VisitRow) {
  const status = row.completedAt
    ? 'completed'
    : row.skipReason
      ? 'skipped'
      : canceledAt
        ? 'canceled'
        : ('scheduled' as const)
  return {
    ...row,
    status: status as 'scheduled' | 'completed' | 'skipped' | 'canceled',
    scheduledAt: row.scheduledAt.toISOString(),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
  }
}

const VISIT_STATUS_FILTER: Record<string, SQL> = {
  scheduled: sql`(${visits.completedAt} is null and ${visits.canceledAt} is null)`,
  completed: sql`${visits.completedAt} is not null`,
  skipped: sql`${visits.skipReason} is not null`,
  canceled: sql`(${visits.canceledAt} is not null and ${visits.skipReason} is null)`,
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
    .from(visits)
    .where(
      and(
        eq(visits.companyId, companyId),
        from ? gte(visits.scheduledAt, new Date(from)) : undefined,
        to ? lt(visits.scheduledAt, new Date(to)) : undefined,
        technicianId ? eq(visits.technicianId, technicianId) : undefined,
        status ? VISIT_STATUS_FILTER[status] : undefined,
        changedSince(visits.updatedAt, updated_since),
        after(visits.createdAt, visits.id, cursor),
      ),
    )
    .orderBy(...keysetOrder(visits.createdAt, visits.id))
    .limit(limit + 1)
  const page = paged(rows, limit)
  return { data: page.data.map(toVisit), nextCursor: page.nextCursor }
}

export async function apiGetVisit(companyId: string, visitId: string, ex: Database = db()) {
  if (!isUuid(visitId)) return null
  const [row] = await ex
    .select(visitColumns)
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
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
    .innerJoin(serviceLocations, locationOfPlan)
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
