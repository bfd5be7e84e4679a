import { and, asc, eq, gte, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { companies, jobs, profiles } from '~/db/schema'
import { zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { isCompanyTechnician } from './profile.server'

/** SPEC §9: the "all companies" job query is capped at 50 rows. */
export const ALL_COMPANIES_JOB_LIMIT = 50
/** SPEC §9: one company's job query is capped at 200 rows. */
export const COMPANY_JOB_LIMIT = 200

export type JobStatus = 'Completed' | 'Overdue' | 'Scheduled'

/** SPEC §4: completed when completed_at is set; open and in the past is overdue. */
export function jobStatus(
  job: { completedAt: Date | string | null; scheduledAt: Date | string },
  now = new Date(),
): JobStatus {
  if (job.completedAt) return 'Completed'
  return new Date(job.scheduledAt) < now ? 'Overdue' : 'Scheduled'
}

const jobCardColumns = {
  id: jobs.id,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  technicianId: jobs.technicianId,
  technicianName: profiles.fullName,
  companyName: companies.name,
  timezone: companies.timezone,
}

/**
 * Today's jobs for the "Today's Jobs" list, in the company's timezone.
 * `technicianId` narrows it to one technician's own jobs.
 */
export async function listTodaysJobs({
  companyId,
  timezone,
  technicianId,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  technicianId?: string
  now?: Date
}) {
  const { start, end } = zonedDayRange(now, timezone)
  const filters: SQL[] = [eq(jobs.companyId, companyId), gte(jobs.scheduledAt, start), lt(jobs.scheduledAt, end)]
  if (technicianId) filters.push(eq(jobs.technicianId, technicianId))
  return db()
    .select(jobCardColumns)
    .from(jobs)
    .innerJoin(companies, eq(companies.id, jobs.companyId))
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(and(...filters))
    .orderBy(asc(jobs.scheduledAt))
    .limit(COMPANY_JOB_LIMIT)
}

/** Today's jobs across every company (each in its own timezone): the platform admin's read-only view. */
export async function listTodaysJobsAllCompanies(now = new Date()) {
  const day = sql`(${now.toISOString()}::timestamptz at time zone ${companies.timezone})::date`
  return db()
    .select(jobCardColumns)
    .from(jobs)
    .innerJoin(companies, eq(companies.id, jobs.companyId))
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(sql`(${jobs.scheduledAt} at time zone ${companies.timezone})::date = ${day}`)
    .orderBy(asc(jobs.scheduledAt))
    .limit(ALL_COMPANIES_JOB_LIMIT)
}

export type JobViewer = { id: string; role: string; companyId: string }

/**
 * One job as `viewer` may see it: within their company, and for technicians only when
 * it is assigned to them. Anything else is null, which routes answer with 404.
 */
export async function getJobForViewer(viewer: JobViewer, jobId: string) {
  if (!isUuid(jobId)) return null
  const filters: SQL[] = [eq(jobs.companyId, viewer.companyId), eq(jobs.id, jobId)]
  if (viewer.role === 'tech') filters.push(eq(jobs.technicianId, viewer.id))
  const [job] = await db()
    .select({
      id: jobs.id,
      companyId: jobs.companyId,
      customerId: jobs.customerId,
      customerName: jobs.customerName,
      address: jobs.address,
      scheduledAt: jobs.scheduledAt,
      completedAt: jobs.completedAt,
      beforeUrl: jobs.beforeUrl,
      afterUrl: jobs.afterUrl,
      technicianId: jobs.technicianId,
      technicianName: profiles.fullName,
      technicianPhone: profiles.phone,
      createdAt: jobs.createdAt,
    })
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(and(...filters))
    .limit(1)
  return job ?? null
}

/** Marks an open job complete now. Returns false when it was already complete (nothing changes). */
export async function completeJob({
  companyId,
  jobId,
  now = new Date(),
}: {
  companyId: string
  jobId: string
  now?: Date
}) {
  const updated = await db()
    .update(jobs)
    .set({ completedAt: now })
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId), isNull(jobs.completedAt)))
    .returning({ id: jobs.id })
  return updated.length > 0
}

/**
 * Assigns (or unassigns, with null) and reschedules an open job. The technician must be
 * one of the company's; completed jobs are not changed. Returns whether a job changed.
 */
export async function assignJob({
  companyId,
  jobId,
  technicianId,
  scheduledAt,
}: {
  companyId: string
  jobId: string
  technicianId: string | null
  scheduledAt: Date
}) {
  if (!isUuid(jobId)) return false
  if (technicianId && !(await isCompanyTechnician(companyId, technicianId))) return false
  const updated = await db()
    .update(jobs)
    .set({ technicianId, scheduledAt })
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId), isNull(jobs.completedAt)))
    .returning({ id: jobs.id })
  return updated.length > 0
}
