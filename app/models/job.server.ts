import { and, asc, desc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { chemLogs, companies, customers, jobs, profiles, serviceLocations } from '~/db/schema'
import { startOfZonedDay, startOfZonedMonth, startOfZonedWeek, zonedDayRange } from '~/utils/dates'
import { type Database, db, queryRows } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { readingColumns } from './chem-log.server'
import { ASSIGN_MESSAGES } from './job-assignment'
import { queueVisitNotice } from './notice.server'
import { isCompanyTechnician } from './profile.server'
import { accessColumns, locationForNewVisit, visitLocation } from './service-location.server'
import { queueServiceReport } from './service-report.server'

/** SPEC §9: the "all companies" job query is capped at 50 rows. */
export const ALL_COMPANIES_JOB_LIMIT = 50
/** SPEC §9: one company's job query is capped at 200 rows. */
export const COMPANY_JOB_LIMIT = 200

export type JobStatus = 'Completed' | 'Skipped' | 'Cancelled' | 'Overdue' | 'Scheduled'

/**
 * SPEC §4: completed when completed_at is set; open and in the past is overdue. A cancelled visit (its customer
 * was archived, say) is "Cancelled" in history and part of no open work; one cancelled with a skip reason was
 * skipped (OPERATIONS §4) and says so.
 */
export function jobStatus(
  job: {
    completedAt: Date | string | null
    cancelledAt?: Date | string | null
    skipReason?: string | null
    scheduledAt: Date | string
  },
  now = new Date(),
): JobStatus {
  if (job.completedAt) return 'Completed'
  if (job.skipReason) return 'Skipped'
  if (job.cancelledAt) return 'Cancelled'
  return new Date(job.scheduledAt) < now ? 'Overdue' : 'Scheduled'
}

/** Open work: neither done nor cancelled (the condition of the open-jobs index, so queries can use it). */
const isOpen = () => and(isNull(jobs.completedAt), isNull(jobs.cancelledAt)) as SQL
const openSql = sql`(${jobs.completedAt} is null and ${jobs.cancelledAt} is null)`

const jobCardColumns = {
  id: jobs.id,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  cancelledAt: jobs.cancelledAt,
  skipReason: jobs.skipReason,
  technicianId: jobs.technicianId,
  technicianName: profiles.fullName,
  companyName: companies.name,
  timezone: companies.timezone,
}

/**
 * Today's jobs for the "Today's Jobs" list, in the company's timezone (cancelled ones are no one's work).
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
  const filters: SQL[] = [
    eq(jobs.companyId, companyId),
    gte(jobs.scheduledAt, start),
    lt(jobs.scheduledAt, end),
    isNull(jobs.cancelledAt),
  ]
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
    .where(and(sql`(${jobs.scheduledAt} at time zone ${companies.timezone})::date = ${day}`, isNull(jobs.cancelledAt)))
    .orderBy(asc(jobs.scheduledAt))
    .limit(ALL_COMPANIES_JOB_LIMIT)
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
 * it is assigned to them; platform admins see any job (read-only, ARCHITECTURE §4's fallback).
 * Anything else is null, which routes answer with 404. The pool is the first body of water at the visit's
 * location; the gate code and access notes (`access`) only reach staff of the job's company (ARCHITECTURE §6),
 * never a platform admin's read-only view.
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
    })
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .innerJoin(serviceLocations, visitLocation)
    .leftJoinLateral(pool, sql`true`)
    .where(and(...filters))
    .limit(1)
  if (!row) return null
  const { gateCode, accessNotes, dogOnSite, minutesOnSite, ...job } = row
  const staff = viewer.role !== 'platform_admin' && viewer.companyId === job.companyId
  const access: SiteAccess | null = staff ? { gateCode, accessNotes, dogOnSite, minutesOnSite } : null
  return { ...job, access }
}

export const COMPLETE_MESSAGES = {
  notFound: 'Visit not found.',
  completed: 'This visit was already completed.',
  closed: 'This visit was skipped or cancelled: it can no longer be completed.',
} as const

/**
 * Marks an open job complete now and, in the same transaction, queues the customer's service report: the job is
 * never complete without its report queued, nor the report sent for a job that is not. A job already complete, or
 * skipped or cancelled, is a conflict (nothing changes, nothing is sent); one the company does not have, not found.
 */
export async function completeJob(
  {
    companyId,
    jobId,
    completedBy = null,
    now = new Date(),
  }: {
    companyId: string
    jobId: string
    /** Who marked it complete (null: not known, as for visits completed before this was kept). */
    completedBy?: string | null
    now?: Date
  },
  // Inside a caller's transaction (the field app's change) this one becomes a savepoint.
  executor: Database = db(),
): Promise<Result> {
  if (!isUuid(jobId)) return failure('not-found', COMPLETE_MESSAGES.notFound)
  return executor.transaction(async (tx) => {
    const updated = await tx
      .update(jobs)
      .set({ completedAt: now, completedBy })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId), isOpen()))
      .returning({ id: jobs.id })
    if (updated.length === 0) {
      const [job] = await tx
        .select({ completedAt: jobs.completedAt })
        .from(jobs)
        .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
      if (!job) return failure('not-found', COMPLETE_MESSAGES.notFound)
      return failure('conflict', job.completedAt ? COMPLETE_MESSAGES.completed : COMPLETE_MESSAGES.closed)
    }
    await queueServiceReport({ companyId, jobId }, tx)
    // The report is the email; a company that texts "Visit completed" texts it too (OPERATIONS §6).
    await queueVisitNotice(tx, {
      companyId,
      jobId,
      event: 'visit-completed',
      channels: ['text'],
    })
    await publishCompanyEvent({ companyId, type: 'job.completed', jobId }, tx)
    return success({})
  })
}

/**
 * "Reopen visit" (office, OPERATIONS §5): a completed or skipped visit becomes open work again, so the technician
 * can finish it. Its readings, ticks and photos stay. A report already sent is not sent again when it is completed
 * a second time (service_reports keeps the first).
 */
export async function reopenVisit({ companyId, jobId }: { companyId: string; jobId: string }): Promise<Result> {
  if (!isUuid(jobId)) return failure('not-found', 'Visit not found.')
  return db().transaction(async (tx) => {
    const [visit] = await tx
      .select({ completedAt: jobs.completedAt, skipReason: jobs.skipReason })
      .from(jobs)
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
      .for('update')
    if (!visit) return failure('not-found', 'Visit not found.')
    if (!visit.completedAt && !visit.skipReason)
      return failure('conflict', 'Only a completed or skipped visit can be reopened.')
    await tx
      .update(jobs)
      .set({ completedAt: null, completedBy: null, cancelledAt: null, skipReason: null })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
    await publishCompanyEvent({ companyId, type: 'job.updated', jobId }, tx)
    return success({})
  })
}

/**
 * What a form saw of a job's assignment. Sent back with the save, it lets two people editing the
 * same job at once end with one consistent result: the second save finds it changed and is told.
 */
export function assignmentVersion(job: { technicianId: string | null; scheduledAt: Date }) {
  return `${job.technicianId ?? ''}@${job.scheduledAt.toISOString()}`
}

function parseAssignmentVersion(version: string) {
  const at = version.lastIndexOf('@')
  const scheduledAt = new Date(version.slice(at + 1))
  if (at < 0 || Number.isNaN(scheduledAt.getTime())) return null
  return { technicianId: version.slice(0, at) || null, scheduledAt }
}

/**
 * Assigns and reschedules an open job of the company. With `expectedVersion` (from
 * `assignmentVersion`), the update only applies if nobody changed the job since: PostgreSQL
 * re-checks the condition after waiting for a concurrent update, so of two simultaneous saves one
 * wins and the other gets a conflict. A job that is not an open one of the company, or a technician of another
 * company, is refused as invalid.
 */
export async function assignJob({
  companyId,
  jobId,
  technicianId,
  scheduledAt,
  expectedVersion,
}: {
  companyId: string
  jobId: string
  technicianId: string | null
  scheduledAt: Date
  expectedVersion?: string
}): Promise<Result> {
  const refused = failure('invalid', ASSIGN_MESSAGES.refused)
  const conflict = failure('conflict', ASSIGN_MESSAGES.conflict)
  if (!isUuid(jobId)) return refused
  if (technicianId && !(await isCompanyTechnician(companyId, technicianId))) return refused
  const conditions = [eq(jobs.companyId, companyId), eq(jobs.id, jobId), isOpen()]
  if (expectedVersion !== undefined) {
    const expected = parseAssignmentVersion(expectedVersion)
    if (!expected) return conflict
    conditions.push(
      sql`${jobs.technicianId} is not distinct from ${expected.technicianId}`,
      eq(jobs.scheduledAt, expected.scheduledAt),
    )
  }
  const updated = await db()
    .update(jobs)
    .set({ technicianId, scheduledAt })
    .where(and(...conditions))
    .returning({ id: jobs.id })
  if (updated.length) {
    await publishCompanyEvent({ companyId, type: 'job.updated', jobId })
    return success({})
  }
  if (expectedVersion === undefined) return refused
  // Nothing matched: either the job changed meanwhile (tell them) or it is not an open job here.
  const [stillOpen] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId), isOpen()))
  return stillOpen ? conflict : refused
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

/**
 * Today's jobs (open visits scheduled within [start, end): a completed, skipped or cancelled one is no longer work to
 * do), overdue (open, before now) and upcoming (open, from now).
 */
function dayCounts(now: Date, start: Date, end: Date) {
  return {
    today: countWhere(
      sql`${openSql} and ${jobs.scheduledAt} >= ${start.toISOString()} and ${jobs.scheduledAt} < ${end.toISOString()}`,
    ),
    overdue: countWhere(sql`${openSql} and ${jobs.scheduledAt} < ${now.toISOString()}`),
    upcoming: countWhere(sql`${openSql} and ${jobs.scheduledAt} >= ${now.toISOString()}`),
  }
}

/** Open visits from earlier days: a visit later today is not overdue yet, whatever the time. */
function overdueBefore(todayStart: Date) {
  return countWhere(sql`${openSql} and ${jobs.scheduledAt} < ${todayStart.toISOString()}`)
}

/**
 * Bounds a counting query to the rows some count can include: open jobs, jobs scheduled in
 * [start, end) and jobs completed from `completedFrom` (and before `completedTo`). Without it
 * the counts read every job the company ever had (250,000 rows for a large company); with it
 * PostgreSQL combines the open, scheduled and completed indexes (docs/performance.md).
 */
function countableRows(start: Date, end: Date, completedFrom?: Date, completedTo?: Date) {
  const scheduled = sql`(${jobs.scheduledAt} >= ${start.toISOString()} and ${jobs.scheduledAt} < ${end.toISOString()})`
  if (!completedFrom) return sql`(${openSql} or ${scheduled})`
  const completed = completedTo
    ? sql`(${jobs.completedAt} >= ${completedFrom.toISOString()} and ${jobs.completedAt} < ${completedTo.toISOString()})`
    : sql`${jobs.completedAt} >= ${completedFrom.toISOString()}`
  return sql`(${openSql} or ${scheduled} or ${completed})`
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
      unassigned: countWhere(sql`${openSql} and ${jobs.technicianId} is null`),
      ...dayCounts(now, start, end),
    })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), countableRows(start, end)))
  return row ?? { unassigned: 0, today: 0, overdue: 0, upcoming: 0 }
}

const jobListColumns = {
  id: jobs.id,
  customerId: jobs.customerId,
  customerName: jobs.customerName,
  address: jobs.address,
  scheduledAt: jobs.scheduledAt,
  completedAt: jobs.completedAt,
  cancelledAt: jobs.cancelledAt,
  createdAt: jobs.createdAt,
  technicianId: jobs.technicianId,
  technicianName: profiles.fullName,
  technicianPhone: profiles.phone,
}

/** Job rows with their technician's name and phone: one join, never a query per row. */
function selectJobList() {
  return db().select(jobListColumns).from(jobs).leftJoin(profiles, eq(profiles.id, jobs.technicianId))
}

/** Open jobs with no technician, earliest first (the id keeps pages from overlapping). */
export async function listUnassignedJobs({
  companyId,
  limit = DASHBOARD_LIST_LIMIT,
  offset = 0,
}: {
  companyId: string
  limit?: number
  offset?: number
}) {
  return selectJobList()
    .where(and(eq(jobs.companyId, companyId), isOpen(), isNull(jobs.technicianId)))
    .orderBy(asc(jobs.scheduledAt), asc(jobs.id))
    .limit(limit)
    .offset(offset)
}

/**
 * The business figures of the owner and admin dashboards, over the whole company in one query: open jobs, today's open
 * visits, overdue (open visits from before today), visits skipped this week, and completions this week (from Monday
 * 00:00, OPERATIONS §8) and this month, all in the company's timezone.
 */
export async function getBusinessCounts({
  companyId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  timezone: string
  now?: Date
}) {
  const { start, end } = zonedDayRange(now, timezone)
  const weekStart = startOfZonedWeek(now, timezone)
  const weekEnd = startOfZonedDay(weekStart, timezone, 7)
  const monthStart = startOfZonedMonth(now, timezone)
  const monthEnd = startOfZonedMonth(startOfZonedDay(monthStart, timezone, 32), timezone)
  // One statement, one count per index range: each subquery counts entries of the index that holds exactly its rows
  // (the open-work partial index, the completed partial index, the schedule), so a company with 250,000 visits costs
  // what its open work and this month's completions cost, read from the index alone. One scan under all the counts'
  // conditions together read 16,000 rows from the table for 9 ms (docs/performance.md).
  const count = (condition: SQL) =>
    sql`(select count(*)::int from ${jobs} where ${jobs.companyId} = ${companyId} and ${condition})`
  const iso = (date: Date) => date.toISOString()
  const open = sql`${jobs.completedAt} is null and ${jobs.cancelledAt} is null`
  const [row] = await queryRows<{
    open: number
    today: number
    overdue: number
    upcoming: number
    skippedThisWeek: number
    completedThisWeek: number
    completedThisMonth: number
  }>(sql`select
      ${count(open)} as "open",
      ${count(sql`${open} and ${jobs.scheduledAt} >= ${iso(start)} and ${jobs.scheduledAt} < ${iso(end)}`)} as "today",
      ${count(sql`${open} and ${jobs.scheduledAt} < ${iso(start)}`)} as "overdue",
      ${count(sql`${open} and ${jobs.scheduledAt} >= ${iso(now)}`)} as "upcoming",
      ${count(sql`${jobs.skipReason} is not null and ${jobs.scheduledAt} >= ${iso(weekStart)} and ${jobs.scheduledAt} < ${iso(weekEnd)}`)} as "skippedThisWeek",
      ${count(sql`${jobs.completedAt} is not null and ${jobs.completedAt} >= ${iso(weekStart)} and ${jobs.completedAt} < ${iso(weekEnd)}`)} as "completedThisWeek",
      ${count(sql`${jobs.completedAt} is not null and ${jobs.completedAt} >= ${iso(monthStart)} and ${jobs.completedAt} < ${iso(monthEnd)}`)} as "completedThisMonth"`)
  return (
    row ?? {
      open: 0,
      today: 0,
      overdue: 0,
      upcoming: 0,
      skippedThisWeek: 0,
      completedThisWeek: 0,
      completedThisMonth: 0,
    }
  )
}

/** Open jobs from the earliest (ARCHITECTURE §4 "upcoming"), overdue ones first. */
export async function listOpenJobs({ companyId, limit }: { companyId: string; limit: number }) {
  return selectJobList()
    .where(and(eq(jobs.companyId, companyId), isOpen()))
    .orderBy(asc(jobs.scheduledAt), asc(jobs.id))
    .limit(limit)
}

/** The newest completions first. */
export async function listRecentCompletions({ companyId, limit }: { companyId: string; limit: number }) {
  return selectJobList()
    .where(and(eq(jobs.companyId, companyId), isNotNull(jobs.completedAt)))
    .orderBy(desc(jobs.completedAt), desc(jobs.id))
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
  return selectJobList()
    .where(and(eq(jobs.companyId, companyId), isOpen(), gte(jobs.scheduledAt, start), lt(jobs.scheduledAt, end)))
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
  return selectJobList().where(eq(jobs.companyId, companyId)).orderBy(desc(jobs.createdAt)).limit(limit)
}

/**
 * A technician's figures in one query: today's open visits, overdue ones from earlier days, and completed this week
 * (from Monday 00:00 in the company's timezone).
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
  const { today } = dayCounts(now, start, end)
  const [row] = await db()
    .select({
      today,
      overdue: overdueBefore(start),
      completedThisWeek: countWhere(sql`${jobs.completedAt} >= ${weekStart.toISOString()}`),
    })
    .from(jobs)
    .where(
      and(eq(jobs.companyId, companyId), eq(jobs.technicianId, technicianId), countableRows(start, end, weekStart)),
    )
  return row ?? { today: 0, overdue: 0, completedThisWeek: 0 }
}

/**
 * A technician's open jobs from the earliest (overdue first), capped at SPEC §9's 100, each with what they need at
 * the property (the technician is staff of the company: the gate code is theirs to see).
 */
export async function listTechOpenJobs({
  companyId,
  technicianId,
  limit = 100,
  from,
  before,
}: {
  companyId: string
  technicianId: string
  limit?: number
  /** Only jobs scheduled at or after this instant (not yet late). */
  from?: Date
  /** Only jobs scheduled before this instant (the start of today, for visits left from earlier days). */
  before?: Date
}) {
  return db()
    .select({ ...jobListColumns, ...accessColumns })
    .from(jobs)
    .leftJoin(profiles, eq(profiles.id, jobs.technicianId))
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(jobs.companyId, companyId),
        eq(jobs.technicianId, technicianId),
        isOpen(),
        from ? gte(jobs.scheduledAt, from) : undefined,
        before ? lt(jobs.scheduledAt, before) : undefined,
      ),
    )
    .orderBy(asc(jobs.scheduledAt), asc(jobs.id))
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
  // Readings are counted per listed job (an index lookup each), not aggregated over every
  // reading the company has and then joined: that read 500,000 rows for a large company.
  // Each visit's latest reading (one index probe per row) for the card's water status.
  const { takenAt: _, ...values } = readingColumns
  const latest = db()
    .select(values)
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, jobs.companyId), eq(chemLogs.jobId, jobs.id)))
    .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
    .limit(1)
    .as('latest_reading')
  const pool = firstBodyOfWaterOf({ companyId: jobs.companyId, id: jobs.locationId })
  return db()
    .select({
      id: jobs.id,
      customerName: jobs.customerName,
      address: jobs.address,
      scheduledAt: jobs.scheduledAt,
      completedAt: jobs.completedAt,
      // Qualified by hand: Drizzle leaves columns unqualified in a single-table select, and here
      // an unqualified "id" would mean chem_logs.id.
      readings: sql<number>`(select count(*) from ${chemLogs} where ${chemLogs}.company_id = ${jobs}.company_id and ${chemLogs}.job_id = ${jobs}.id)::int`,
      latest: {
        ph: latest.ph,
        chlorinePpm: latest.chlorinePpm,
        alkalinity: latest.alkalinity,
        cyanuricAcid: latest.cyanuricAcid,
        calciumHardness: latest.calciumHardness,
        salt: latest.salt,
        waterTempF: latest.waterTempF,
      },
      pool: {
        volumeGallons: pool.poolVolumeGallons,
        surface: pool.poolSurface,
        sanitiser: pool.poolSanitiser,
        indoor: pool.poolIndoor,
      },
    })
    .from(jobs)
    .leftJoinLateral(latest, sql`true`)
    .leftJoinLateral(pool, sql`true`)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.technicianId, technicianId), isNotNull(jobs.completedAt)))
    .orderBy(desc(jobs.completedAt))
    .limit(limit)
}

/**
 * Creates a job at one of the company's active customers' locations (and optionally for one of its technicians).
 * Without `locationId` the job goes to the customer's first location (today's form chooses only the customer).
 * The name and address are the job's snapshot: the customer's name and the location's address unless the form
 * gave its own. Null when the customer, location or technician is not the company's, or the customer is archived.
 */
export async function createJob(
  input: {
    companyId: string
    customerId: string
    locationId?: string | null
    customerName?: string
    address?: string
    scheduledAt: Date
    technicianId: string | null
    /** A fixed appointment at `scheduledAt` (the route keeps it: docs/routing.md). */
    appointment?: boolean
  },
  executor: Database = db(),
) {
  const { companyId, customerId, scheduledAt, technicianId } = input
  if (!isUuid(customerId)) return null
  if (technicianId && !(await isCompanyTechnician(companyId, technicianId, executor))) return null
  // The composite foreign keys also refuse another company's customer or location; checking first gives a null.
  const [customer] = await executor
    .select({ name: customers.customerName })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId), eq(customers.status, 'active')))
    .limit(1)
  if (!customer) return null
  const location = await locationForNewVisit(executor, { companyId, customerId, locationId: input.locationId })
  if (!location) return null
  const [row] = await executor
    .insert(jobs)
    .values({
      companyId,
      customerId,
      locationId: location.id,
      customerName: input.customerName?.trim() || customer.name,
      address: input.address?.trim() || location.address,
      scheduledAt,
      appointmentAt: input.appointment ? scheduledAt : null,
      technicianId,
    })
    .returning({ id: jobs.id })
  if (row) await publishCompanyEvent({ companyId, type: 'job.created', jobId: row.id }, executor)
  return row ?? null
}
