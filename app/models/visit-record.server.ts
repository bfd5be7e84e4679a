// A visit (a `visits` row) as one record (docs/product.md "Visit states"): its state in SQL (`overdueSql`, the open
// condition; in TypeScript it is `visitState`, models/visit-state.ts), and one visit as a viewer may read it. What changes a visit is in
// `visit-changes.server.ts`; the dashboards' figures and lists are in `dashboard-counts.server.ts` and
// `dashboard-lists.server.ts`.
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import { customers, profiles, serviceLocations, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { accessColumns } from './customer-columns.server'
import { visitLocation } from './service-location.server'

/**
 * What every list of visits shows of one and reads its state from (`visitState`, models/visit-state.ts): the
 * customer and address as the visit was booked, when, and how it ended. Lists add their own columns around it.
 */
export const visitSummaryColumns = {
  customerName: visits.customerName,
  address: visits.address,
  scheduledAt: visits.scheduledAt,
  completedAt: visits.completedAt,
  canceledAt: visits.canceledAt,
  skipReason: visits.skipReason,
}

/** Open work: neither done nor canceled (the condition of the open-visits index, so queries can use it). */
export const isOpen = () => and(isNull(visits.completedAt), isNull(visits.canceledAt)) as SQL
export const openSql = sql`(${visits.completedAt} is null and ${visits.canceledAt} is null)`

/**
 * Overdue, in SQL (decision 049): open — not completed, skipped or canceled (a skipped visit is canceled with a
 * reason) — and scheduled before `todayStart`, the start of today in the company's timezone (`startOfZonedDay`). A
 * visit later today, or earlier today, is not overdue yet. Every dashboard's "Overdue" counts with this.
 */
export function overdueSql(todayStart: Date) {
  return sql`(${openSql} and ${visits.scheduledAt} < ${todayStart.toISOString()})`
}

/** Who is looking at a visit: a company member, or a platform admin (companyId null: every company, read-only). */
export type VisitViewer = { id: string; role: string; companyId: string | null }

/** What a technician needs at the property; null where the viewer may not see it. */
export type SiteAccess = {
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
  minutesOnSite: number
}

/**
 * One visit as `viewer` may see it: within their company, and for technicians only when
 * it is assigned to them; platform admins see any visit (read-only, docs/product.md "Roles"'s fallback).
 * Anything else is null, which routes answer with 404. The pool is the first body of water at the visit's
 * location; the gate code and access notes (`access`) only reach staff of the visit's company
 * (docs/architecture.md "Shared rules"), never a platform admin's read-only view.
 */
export async function getVisitForViewer(viewer: VisitViewer, visitId: string) {
  if (!isUuid(visitId)) return null
  const filters: SQL[] = [eq(visits.id, visitId)]
  if (viewer.role !== 'platform_admin') {
    if (!viewer.companyId) return null
    filters.push(eq(visits.companyId, viewer.companyId))
  }
  if (viewer.role === 'tech') filters.push(eq(visits.technicianId, viewer.id))
  const pool = firstBodyOfWaterOf({ companyId: visits.companyId, id: visits.locationId })
  const [row] = await db()
    .select({
      id: visits.id,
      companyId: visits.companyId,
      customerId: visits.customerId,
      locationId: visits.locationId,
      planId: visits.planId,
      ...visitSummaryColumns,
      technicianId: visits.technicianId,
      technicianName: profiles.fullName,
      technicianPhone: profiles.phone,
      createdAt: visits.createdAt,
      // The pool the technician is servicing: targets and doses depend on it.
      bodyOfWaterName: pool.name,
      poolVolumeGallons: pool.poolVolumeGallons,
      poolSurface: pool.poolSurface,
      poolSanitizer: pool.poolSanitizer,
      poolIndoor: pool.poolIndoor,
      ...accessColumns,
      customerPhone: customers.phone,
    })
    .from(visits)
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .innerJoin(serviceLocations, visitLocation)
    .leftJoin(customers, and(eq(customers.companyId, visits.companyId), eq(customers.id, visits.customerId)))
    .leftJoinLateral(pool, sql`true`)
    .where(and(...filters))
    .limit(1)
  if (!row) return null
  const { gateCode, accessNotes, dogOnSite, minutesOnSite, customerPhone, ...visit } = row
  const staff = viewer.role !== 'platform_admin' && viewer.companyId === visit.companyId
  const access: SiteAccess | null = staff ? { gateCode, accessNotes, dogOnSite, minutesOnSite } : null
  // The customer's phone, for "Call" and "Text" at the gate: like the gate code, staff of the company only.
  return { ...visit, access, customerPhone: staff ? customerPhone : null }
}
