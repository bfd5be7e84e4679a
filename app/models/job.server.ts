import { and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import { companies, jobs, profiles } from '~/db/schema'
import { zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'

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
