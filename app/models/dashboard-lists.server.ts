// The dashboards' lists of visits (docs/product.md "Roles", "Limits"): today's, the unassigned, the open and the
// recently completed or created ones, and a technician's open work and history. Each is one query, bounded.
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm'
import { chemLogs, companies, profiles, serviceLocations, visits } from '~/db/schema'
import { zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { readingColumns } from './chem-log.server'
import { accessColumns } from './customer-columns.server'
import { visitLocation } from './service-location.server'
import { isOpen, visitSummaryColumns } from './visit-record.server'

/** docs/product.md "Limits": the "all companies" visit query is capped at 50 rows. */
export const ALL_COMPANIES_VISIT_LIMIT = 50
/** docs/product.md "Limits": one company's visit query is capped at 200 rows. */
export const COMPANY_VISIT_LIMIT = 200

const visitCardColumns = {
  id: visits.id,
  ...visitSummaryColumns,
  technicianId: visits.technicianId,
  technicianName: profiles.fullName,
  companyName: companies.name,
  timezone: companies.timezone,
}

/**
 * Today's visits for the "Today's Visits" list, in the company's timezone (canceled ones are no one's work).
 * `technicianId` narrows it to one technician's own visits.
 */
export async function listTodaysVisits({
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
    eq(visits.companyId, companyId),
    gte(visits.scheduledAt, start),
    lt(visits.scheduledAt, end),
    isNull(visits.canceledAt),
  ]
  if (technicianId) filters.push(eq(visits.technicianId, technicianId))
  return db()
    .select(visitCardColumns)
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(and(...filters))
    .orderBy(asc(visits.scheduledAt))
    .limit(COMPANY_VISIT_LIMIT)
}

/** Today's visits across every company (each in its own timezone): the platform admin's read-only view. */
export async function listTodaysVisitsAllCompanies(now = new Date()) {
  const day = sql`(${now.toISOString()}::timestamptz at time zone ${companies.timezone})::date`
  return db()
    .select(visitCardColumns)
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(
      and(sql`(${visits.scheduledAt} at time zone ${companies.timezone})::date = ${day}`, isNull(visits.canceledAt)),
    )
    .orderBy(asc(visits.scheduledAt))
    .limit(ALL_COMPANIES_VISIT_LIMIT)
}

/** docs/product.md "Limits" list sizes. */
export const RECENT_ACTIVITY_LIMIT = 10
export const TECH_HISTORY_LIMIT = 10
/** Rows shown per dashboard list before "show more" (the unassigned list and routes). */
export const DASHBOARD_LIST_LIMIT = 50

const visitListColumns = {
  id: visits.id,
  customerId: visits.customerId,
  customerName: visits.customerName,
  address: visits.address,
  scheduledAt: visits.scheduledAt,
  completedAt: visits.completedAt,
  canceledAt: visits.canceledAt,
  createdAt: visits.createdAt,
  technicianId: visits.technicianId,
  technicianName: profiles.fullName,
  technicianPhone: profiles.phone,
}

/** Visit rows with their technician's name and phone: one join, never a query per row. */
function selectVisitList() {
  return db().select(visitListColumns).from(visits).leftJoin(profiles, eq(profiles.id, visits.technicianId))
}

/** Open visits with no technician, earliest first (the id keeps pages from overlapping). */
export async function listUnassignedVisits({
  companyId,
  limit = DASHBOARD_LIST_LIMIT,
  offset = 0,
}: {
  companyId: string
  limit?: number
  offset?: number
}) {
  return selectVisitList()
    .where(and(eq(visits.companyId, companyId), isOpen(), isNull(visits.technicianId)))
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(limit)
    .offset(offset)
}

/** Open visits from the earliest (docs/product.md "Roles" "upcoming"), overdue ones first. */
export async function listOpenVisits({ companyId, limit }: { companyId: string; limit: number }) {
  return selectVisitList()
    .where(and(eq(visits.companyId, companyId), isOpen()))
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(limit)
}

/** The newest completions first. */
export async function listRecentCompletions({ companyId, limit }: { companyId: string; limit: number }) {
  return selectVisitList()
    .where(and(eq(visits.companyId, companyId), isNotNull(visits.completedAt)))
    .orderBy(desc(visits.completedAt), desc(visits.id))
    .limit(limit)
}

/** Recent activity: the most recently created visits. */
export async function listRecentlyCreatedVisits({
  companyId,
  limit = RECENT_ACTIVITY_LIMIT,
}: {
  companyId: string
  limit?: number
}) {
  return selectVisitList().where(eq(visits.companyId, companyId)).orderBy(desc(visits.createdAt)).limit(limit)
}

/**
 * A technician's open visits from the earliest (overdue first), capped at docs/product.md "Limits"'s 100, each with what
 * they need at the property (the technician is staff of the company: the gate code is theirs to see).
 */
export async function listTechOpenVisits({
  companyId,
  technicianId,
  limit = 100,
  from,
  before,
}: {
  companyId: string
  technicianId: string
  limit?: number
  /** Only visits scheduled at or after this instant (not yet late). */
  from?: Date
  /** Only visits scheduled before this instant (the start of today, for visits left from earlier days). */
  before?: Date
}) {
  return db()
    .select({ ...visitListColumns, ...accessColumns })
    .from(visits)
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(visits.companyId, companyId),
        eq(visits.technicianId, technicianId),
        isOpen(),
        from ? gte(visits.scheduledAt, from) : undefined,
        before ? lt(visits.scheduledAt, before) : undefined,
      ),
    )
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
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
  // Readings are counted per listed visit (an index lookup each), not aggregated over every
  // reading the company has and then joined: that read 500,000 rows for a large company.
  // Each visit's latest reading (one index probe per row) for the card's water status.
  const { takenAt: _, ...values } = readingColumns
  const latest = db()
    .select(values)
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, visits.companyId), eq(chemLogs.visitId, visits.id)))
    .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
    .limit(1)
    .as('latest_reading')
  const pool = firstBodyOfWaterOf({ companyId: visits.companyId, id: visits.locationId })
  return db()
    .select({
      id: visits.id,
      customerName: visits.customerName,
      address: visits.address,
      scheduledAt: visits.scheduledAt,
      completedAt: visits.completedAt,
      // Qualified by hand: Drizzle leaves columns unqualified in a single-table select, and here
      // an unqualified "id" would mean chem_logs.id.
      readings: sql<number>`(select count(*) from ${chemLogs} where ${chemLogs}.company_id = ${visits}.company_id and ${chemLogs}.visit_id = ${visits}.id)::int`,
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
        sanitizer: pool.poolSanitizer,
        indoor: pool.poolIndoor,
      },
    })
    .from(visits)
    .leftJoinLateral(latest, sql`true`)
    .leftJoinLateral(pool, sql`true`)
    .where(and(eq(visits.companyId, companyId), eq(visits.technicianId, technicianId), isNotNull(visits.completedAt)))
    .orderBy(desc(visits.completedAt))
    .limit(limit)
}
