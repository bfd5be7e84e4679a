import { and, asc, desc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { chemLogs, companies, customers, jobs, profiles } from '~/db/schema'
import { startOfZonedWeek, zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
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

/** Who is looking at a job: a company member, or a platform admin (companyId null: every company, read-only). */
export type JobViewer = { id: string; role: string; companyId: string | null }

/**
 * One job as `viewer` may see it: within their company, and for technicians only when
 * it is assigned to them; platform admins see any job (read-only, ARCHITECTURE §4's fallback).
 * Anything else is null, which routes answer with 404.
 */
export async function getJobForViewer(viewer: JobViewer, jobId: string) {
  if (!isUuid(jobId)) return null
  const filters: SQL[] = [eq(jobs.id, jobId)]
  if (viewer.role !== 'platform_admin') {
    if (!viewer.companyId) return null
    filters.push(eq(jobs.companyId, viewer.companyId))
  }
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
  if (updated.length) await publishCompanyEvent({ companyId, type: 'job.completed', jobId })
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
  if (updated.length) await publishCompanyEvent({ companyId, type: 'job.updated', jobId })
  return updated.length > 0
}

/** SPEC §9 list sizes. */
export const RECENT_ACTIVITY_LIMIT = 10
export const TECH_HISTORY_LIMIT = 10
/** Rows shown per dashboard list before "show more" (the unassigned list and routes). */
export const DASHBOARD_LIST_LIMIT = 50

/** `count(*) filter (where …)`: several counts over the same rows in one scan. */
function countWhere(condition: SQL) {
  return sql<number>`count(*) filter (where ${condition})::int`
}

/** Today's jobs (scheduled within [start, end)), overdue (open, before now) and upcoming (open, from now). */
function dayCounts(now: Date, start: Date, end: Date) {
  return {
    today: countWhere(
      sql`${jobs.scheduledAt} >= ${start.toISOString()} and ${jobs.scheduledAt} < ${end.toISOString()}`,
    ),
    overdue: countWhere(sql`${jobs.completedAt} is null and ${jobs.scheduledAt} < ${now.toISOString()}`),
    upcoming: countWhere(sql`${jobs.completedAt} is null and ${jobs.scheduledAt} >= ${now.toISOString()}`),
  }
}

/**
 * The dispatcher's four counts over the whole company, in one query:
 * unassigned (open, no technician), today (scheduled today in the company's timezone),
 * overdue (open, scheduled before now) and upcoming (open, scheduled from now on).
 */
export async function getDispatchCounts({
  companyId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  now?: Date
}) {
  const { start, end } = zonedDayRange(now, timezone)
  const [row] = await db()
    .select({
      unassigned: countWhere(sql`${jobs.completedAt} is null and ${jobs.technicianId} is null`),
      ...dayCounts(now, start, end),
    })
    .from(jobs)
    .where(eq(jobs.companyId, companyId))
  return row ?? { unassigned: 0, today: 0, overdue: 0, upcoming: 0 }
}

const jobListColumns = {
  id: jobs.id,
  customerId: jobs.customerId,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  createdAt: jobs.createdAt,
  technicianId: jobs.technicianId,
  technicianName: profiles.fullName,
  technicianPhone: profiles.phone,
}

/** Open jobs with no technician, earliest first. */
export async function listUnassignedJobs({
  companyId,
  limit = DASHBOARD_LIST_LIMIT,
}: {
  companyId: string
  limit?: number
}) {
  return db()
    .select(jobListColumns)
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(and(eq(jobs.companyId, companyId), isNull(jobs.completedAt), isNull(jobs.technicianId)))
    .orderBy(asc(jobs.scheduledAt))
    .limit(limit)
}

/** Today's route: open jobs scheduled today in the company's timezone, in time order. */
export async function listTodaysRoute({
  companyId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  now?: Date
}) {
  const { start, end } = zonedDayRange(now, timezone)
  return db()
    .select(jobListColumns)
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(
      and(
        eq(jobs.companyId, companyId),
        isNull(jobs.completedAt),
        gte(jobs.scheduledAt, start),
        lt(jobs.scheduledAt, end),
      ),
    )
    .orderBy(asc(jobs.scheduledAt))
    .limit(DASHBOARD_LIST_LIMIT)
}

/** Recent activity: the most recently created jobs. */
export async function listRecentlyCreatedJobs({
  companyId,
  limit = RECENT_ACTIVITY_LIMIT,
}: {
  companyId: string
  limit?: number
}) {
  return db()
    .select(jobListColumns)
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(eq(jobs.companyId, companyId))
    .orderBy(desc(jobs.createdAt))
    .limit(limit)
}

/**
 * A technician's figures in one query: today's jobs, overdue, upcoming and completed
 * this week (from Sunday 00:00 in the company's timezone).
 */
export async function getTechCounts({
  companyId,
  technicianId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  technicianId: string
  timezone: string
  now?: Date
}) {
  const { start, end } = zonedDayRange(now, timezone)
  const weekStart = startOfZonedWeek(now, timezone)
  const [row] = await db()
    .select({
      ...dayCounts(now, start, end),
      completedThisWeek: countWhere(sql`${jobs.completedAt} >= ${weekStart.toISOString()}`),
    })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.technicianId, technicianId)))
  return row ?? { today: 0, overdue: 0, upcoming: 0, completedThisWeek: 0 }
}

/** A technician's open jobs from the earliest (overdue first), capped at SPEC §9's 100. */
export async function listTechOpenJobs({
  companyId,
  technicianId,
  limit = 100,
}: {
  companyId: string
  technicianId: string
  limit?: number
}) {
  return db()
    .select(jobListColumns)
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .where(and(eq(jobs.companyId, companyId), eq(jobs.technicianId, technicianId), isNull(jobs.completedAt)))
    .orderBy(asc(jobs.scheduledAt))
    .limit(limit)
}

/** A technician's most recent completions, newest first, each with its number of readings (one query). */
export async function listTechHistory({
  companyId,
  technicianId,
  limit = TECH_HISTORY_LIMIT,
}: {
  companyId: string
  technicianId: string
  limit?: number
}) {
  const readingCount = db()
    .select({ jobId: chemLogs.jobId, n: sql<number>`count(*)::int`.as('n') })
    .from(chemLogs)
    .where(eq(chemLogs.companyId, companyId))
    .groupBy(chemLogs.jobId)
    .as('reading_count')
  return db()
    .select({
      id: jobs.id,
      customerName: jobs.customerName,
      address: jobs.address,
      scheduledAt: jobs.scheduledAt,
      completedAt: jobs.completedAt,
      readings: sql<number>`coalesce(${readingCount.n}, 0)::int`,
    })
    .from(jobs)
    .leftJoin(readingCount, eq(readingCount.jobId, jobs.id))
    .where(and(eq(jobs.companyId, companyId), eq(jobs.technicianId, technicianId), isNotNull(jobs.completedAt)))
    .orderBy(desc(jobs.completedAt))
    .limit(limit)
}

/** Creates a job for one of the company's customers (and optionally one of its technicians). */
export async function createJob(input: {
  companyId: string
  customerId: string
  customerName: string
  address: string
  scheduledAt: Date
  technicianId: string | null
}) {
  if (!isUuid(input.customerId)) return null
  if (input.technicianId && !(await isCompanyTechnician(input.companyId, input.technicianId))) return null
  // The composite foreign key also refuses a customer of another company; checking first gives a clean null.
  const [customer] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, input.companyId), eq(customers.id, input.customerId)))
    .limit(1)
  if (!customer) return null
  const [row] = await db().insert(jobs).values(input).returning({ id: jobs.id })
  if (row) await publishCompanyEvent({ companyId: input.companyId, type: 'job.created', jobId: row.id })
  return row ?? null
}
