// A visit (a `jobs` row) as one record (docs/product.md "Visit states"): its state in SQL (`overdueSql`, the open
// condition; in TypeScript it is `visitState`, models/visit-state.ts), and one visit as a viewer may read it. What changes a visit is in
// `job-changes.server.ts`; the dashboards' figures and lists are in `dashboard-counts.server.ts` and
// `dashboard-lists.server.ts`.
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import { customers, jobs, profiles, serviceLocations } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { accessColumns, visitLocation } from './service-location.server'

/** Open work: neither done nor cancelled (the condition of the open-jobs index, so queries can use it). */
export const isOpen = () => and(isNull(jobs.completedAt), isNull(jobs.cancelledAt)) as SQL
export const openSql = sql`(${jobs.completedAt} is null and ${jobs.cancelledAt} is null)`

/**
 * Overdue, in SQL (decision 049): open — not completed, skipped or cancelled (a skipped visit is cancelled with a
 * reason) — and scheduled before `todayStart`, the start of today in the company's timezone (`startOfZonedDay`). A
 * visit later today, or earlier today, is not overdue yet. Every dashboard's "Overdue" counts with this.
 */
export function overdueSql(todayStart: Date) {
  return sql`(${openSql} and ${jobs.scheduledAt} < ${todayStart.toISOString()})`
}

/** Who is looking at a job: a company member, or a platform admin (companyId null: every company, read-only). */
export type JobViewer = { id: string; role: string; companyId: string | null }

/** What a technician needs at the property; null where the viewer may not see it. */
export type SiteAccess = {
  gateCode: string | null
  accessNotes: string | null
  dogOnSite: boolean
  minutesOnSite: number
}

/**
 * One job as `viewer` may see it: within their company, and for technicians only when
 * it is assigned to them; platform admins see any job (read-only, docs/product.md "Roles"'s fallback).
 * Anything else is null, which routes answer with 404. The pool is the first body of water at the visit's
 * location; the gate code and access notes (`access`) only reach staff of the job's company
 * (docs/architecture.md "Shared rules"), never a platform admin's read-only view.
 */
export async function getJobForViewer(viewer: JobViewer, jobId: string) {
  if (!isUuid(jobId)) return null
  const filters: SQL[] = [eq(jobs.id, jobId)]
  if (viewer.role !== 'platform_admin') {
    if (!viewer.companyId) return null
    filters.push(eq(jobs.companyId, viewer.companyId))
  }
  if (viewer.role === 'tech') filters.push(eq(jobs.technicianId, viewer.id))
  const pool = firstBodyOfWaterOf({ companyId: jobs.companyId, id: jobs.locationId })
  const [row] = await db()
    .select({
      id: jobs.id,
      companyId: jobs.companyId,
      customerId: jobs.customerId,
      locationId: jobs.locationId,
      planId: jobs.planId,
      customerName: jobs.customerName,
      address: jobs.address,
      scheduledAt: jobs.scheduledAt,
      completedAt: jobs.completedAt,
      cancelledAt: jobs.cancelledAt,
      skipReason: jobs.skipReason,
      technicianId: jobs.technicianId,
      technicianName: profiles.fullName,
      technicianPhone: profiles.phone,
      createdAt: jobs.createdAt,
      // The pool the technician is servicing: targets and doses depend on it.
      bodyOfWaterName: pool.name,
      poolVolumeGallons: pool.poolVolumeGallons,
      poolSurface: pool.poolSurface,
      poolSanitiser: pool.poolSanitiser,
      poolIndoor: pool.poolIndoor,
      ...accessColumns,
      customerPhone: customers.phone,
    })
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .innerJoin(serviceLocations, visitLocation)
    .leftJoin(customers, and(eq(customers.companyId, jobs.companyId), eq(customers.id, jobs.customerId)))
    .leftJoinLateral(pool, sql`true`)
    .where(and(...filters))
    .limit(1)
  if (!row) return null
  const { gateCode, accessNotes, dogOnSite, minutesOnSite, customerPhone, ...job } = row
  const staff = viewer.role !== 'platform_admin' && viewer.companyId === job.companyId
  const access: SiteAccess | null = staff ? { gateCode, accessNotes, dogOnSite, minutesOnSite } : null
  // The customer's phone, for "Call" and "Text" at the gate: like the gate code, staff of the company only.
  return { ...job, access, customerPhone: staff ? customerPhone : null }
}
