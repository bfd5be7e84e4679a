// The dashboards' lists of visits (docs/product.md "Roles", "Limits"): today's, the unassigned, the open and the
// recently completed or created ones, and a technician's open work and history. Each is one query, bounded.
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { chemLogs, companies, jobs, profiles, serviceLocations } from '~/db/schema'
import { zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { readingColumns } from './chem-log.server'
import { isOpen } from './job.server'
import { accessColumns, visitLocation } from './service-location.server'

/** docs/product.md "Limits": the "all companies" job query is capped at 50 rows. */
export const ALL_COMPANIES_JOB_LIMIT = 50
/** docs/product.md "Limits": one company's job query is capped at 200 rows. */
export const COMPANY_JOB_LIMIT = 200

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

/** docs/product.md "Limits" list sizes. */
export const RECENT_ACTIVITY_LIMIT = 10
export const TECH_HISTORY_LIMIT = 10
/** Rows shown per dashboard list before "show more" (the unassigned list and routes). */
export const DASHBOARD_LIST_LIMIT = 50

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

/** Open jobs from the earliest (docs/product.md "Roles" "upcoming"), overdue ones first. */
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
 * A technician's open jobs from the earliest (overdue first), capped at docs/product.md "Limits"'s 100, each with what
 * they need at the property (the technician is staff of the company: the gate code is theirs to see).
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
