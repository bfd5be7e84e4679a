// The dispatcher's home (issue 38 item 5, decision 049): today's routes by technician, recent activity with repeats
// folded, and the lists its counts link to ("Unassigned this week", "Overdue", "Skipped this week"). Each is one query
// by company_id, whatever the company holds.
import { and, asc, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm'
import { profiles, visits } from '~/db/schema'
import { type CompanyClock, zonedDayRange } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { zonedWeekRange } from './dashboard-counts.server'
import { overdueSql, visitSummaryColumns } from './visit-record.server'

/** One technician's day (or the day's unassigned visits, `technicianId` null): stops done of stops in all. */
export type RouteSummary = { technicianId: string | null; technicianName: string | null; done: number; total: number }

/**
 * Today's routes, one row per technician with a visit today (and one for visits nobody has yet): stops done (completed
 * or skipped) out of all stops (a visit canceled without a skip reason is no stop). Names first, unassigned last.
 */
export async function listTodaysRoutes({
  companyId,
  timezone,
  now = new Date(),
}: CompanyClock): Promise<RouteSummary[]> {
  const { start, end } = zonedDayRange(now, timezone)
  const rows = await db()
    .select({
      technicianId: visits.technicianId,
      technicianName: sql<string | null>`max(${profiles.fullName})`,
      done: sql<number>`count(*) filter (where ${visits.completedAt} is not null or ${visits.skipReason} is not null)::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(visits)
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(
      and(
        eq(visits.companyId, companyId),
        sql`${visits.scheduledAt} >= ${start.toISOString()} and ${visits.scheduledAt} < ${end.toISOString()}`,
        sql`(${visits.canceledAt} is null or ${visits.skipReason} is not null)`,
      ),
    )
    .groupBy(visits.technicianId)
  return rows.sort((a, b) => {
    if (a.technicianId === null || b.technicianId === null) return a.technicianId === null ? 1 : -1
    return (a.technicianName ?? '').localeCompare(b.technicianName ?? '')
  })
}

/** How many newly created visits "Recent activity" reads to fold them. */
export const RECENT_ACTIVITY_READ = 200
/** Lines "Recent activity" shows. */
export const RECENT_ACTIVITY_LINES = 10

export type ActivityLine = {
  customerId: string
  customerName: string
  /** The newest visit of the run (the one a single visit links to). */
  visitId: string
  count: number
  createdAt: Date
  firstScheduledAt: Date
  lastScheduledAt: Date
  technicianName: string | null
}

/**
 * Recent activity: visits created lately, newest first, with a run of visits created one after another for the same
 * customer (a new plan's visits, an import) folded into one line ("Harold Jenkins · 8 visits scheduled").
 */
export async function listRecentActivity({
  companyId,
  read = RECENT_ACTIVITY_READ,
  lines = RECENT_ACTIVITY_LINES,
}: {
  companyId: string
  read?: number
  lines?: number
}): Promise<ActivityLine[]> {
  const rows = await db()
    .select({
      id: visits.id,
      customerId: visits.customerId,
      customerName: visits.customerName,
      createdAt: visits.createdAt,
      scheduledAt: visits.scheduledAt,
      technicianName: profiles.fullName,
    })
    .from(visits)
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(eq(visits.companyId, companyId))
    .orderBy(desc(visits.createdAt), desc(visits.id))
    .limit(read)
  return foldActivity(rows).slice(0, lines)
}

/** Folds consecutive visits of the same customer (newest first) into one line each. Pure, for its tests. */
export function foldActivity(
  rows: readonly {
    id: string
    customerId: string
    customerName: string
    createdAt: Date
    scheduledAt: Date
    technicianName: string | null
  }[],
): ActivityLine[] {
  const folded: ActivityLine[] = []
  for (const row of rows) {
    const last = folded.at(-1)
    if (last && last.customerId === row.customerId) {
      last.count += 1
      if (row.scheduledAt < last.firstScheduledAt) last.firstScheduledAt = row.scheduledAt
      if (row.scheduledAt > last.lastScheduledAt) last.lastScheduledAt = row.scheduledAt
      if (last.technicianName !== row.technicianName) last.technicianName = null
      continue
    }
    folded.push({
      customerId: row.customerId,
      customerName: row.customerName,
      visitId: row.id,
      count: 1,
      createdAt: row.createdAt,
      firstScheduledAt: row.scheduledAt,
      lastScheduledAt: row.scheduledAt,
      technicianName: row.technicianName,
    })
  }
  return folded
}

/** The lists the dispatcher's counts link to (`/app/visits?show=`). */
export const VISIT_LISTS = ['unassigned-week', 'overdue', 'skipped-week'] as const
export type VisitList = (typeof VISIT_LISTS)[number]

/** Rows a list shows; its count says how many there are in all. */
export const VISIT_LIST_LIMIT = 100

/** The condition of each list: the same as its count's in `getDispatchCounts`. */
function listCondition(list: VisitList, timezone: string, now: Date): SQL {
  const week = zonedWeekRange(now, timezone)
  const inWeek = sql`${visits.scheduledAt} >= ${week.start.toISOString()} and ${visits.scheduledAt} < ${week.end.toISOString()}`
  switch (list) {
    case 'unassigned-week':
      return and(isNull(visits.completedAt), isNull(visits.canceledAt), isNull(visits.technicianId), inWeek) as SQL
    case 'overdue':
      return overdueSql(zonedDayRange(now, timezone).start)
    case 'skipped-week':
      return and(isNotNull(visits.skipReason), inWeek) as SQL
  }
}

/** One of the dispatcher's lists, oldest first (at most VISIT_LIST_LIMIT rows). */
export async function listDispatchVisits({
  companyId,
  timezone,
  list,
  now = new Date(),
  limit = VISIT_LIST_LIMIT,
}: {
  companyId: string
  timezone: string
  list: VisitList
  now?: Date
  limit?: number
}) {
  return db()
    .select({
      id: visits.id,
      ...visitSummaryColumns,
      technicianName: profiles.fullName,
    })
    .from(visits)
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(and(eq(visits.companyId, companyId), listCondition(list, timezone, now)))
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(limit)
}
