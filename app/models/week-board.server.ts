// The week board's read model (docs/product.md "Schedule"): a week of visits by technician, a page of technicians at a
// time, and every unassigned visit.
import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { profiles, serviceLocations, visits } from '~/db/schema'
import { addDays, instantAt, type LocalDate, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { visitLocation } from './service-location.server'
import { wallTimeOf } from './visit.server'
import { type VisitState, visitState } from './visit-state'

/** A week board shows at most this many visits (ten technicians at 16 stops a day, and the unassigned, fit). */
export const BOARD_LIMIT = 3000
/**
 * Technicians on one page of the week board. A company of 50 has seven pages; the Unassigned row is on every page. A
 * week of every technician at once was 2,400 visits and 0.2 s to render (issue 22); eight rows and their visits fit
 * the page's weight budget (docs/performance.md "Week board").
 */
export const BOARD_TECHNICIANS_PER_PAGE = 8

/** The Monday of the week `date` is in ("This week" starts on Monday, docs/product.md "Easy to get wrong"). */
export function mondayOf(date: LocalDate): LocalDate {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
  return addDays(date, -weekday)
}

/**
 * A visit as the board draws and moves it; each one is sent to the browser twice (the page and its data), so it holds
 * only what the board uses, and leaves out what is usually absent.
 */
export type BoardVisit = {
  id: string
  customerName: string
  date: LocalDate
  technicianId: string | null
  minutes: number
  state: VisitState
  /** "HH:MM" in the company's zone: the card shows it, and "Move visit" starts from it. */
  clock: string
  /** Only for a visit of a service plan: "Move visit" can then move the following ones too. */
  recurring?: true
  /** The location's label (or street), only when the customer has several locations. */
  place?: string
}

/**
 * The week board (docs/product.md "Schedule"): from Monday `weekStart` for 7 days, page `technicianPage` of the
 * company's active technicians (rows, by name) with their visits and every unassigned one — two queries, however many
 * visits. Canceled one-offs are left out; skipped visits show. Every technician is returned too: "Move visit" offers
 * all.
 */
export async function getWeekBoard({
  companyId,
  timezone,
  weekStart,
  technicianPage = 1,
}: {
  companyId: string
  timezone: string
  weekStart: LocalDate
  technicianPage?: number
}) {
  const start = instantAt(weekStart, '00:00', timezone)
  const end = instantAt(addDays(weekStart, 7), '00:00', timezone)
  const technicians = await listTechnicians(companyId)
  const pageCount = Math.max(1, Math.ceil(technicians.length / BOARD_TECHNICIANS_PER_PAGE))
  const page = Math.min(Math.max(1, Math.floor(technicianPage) || 1), pageCount)
  const rowTechnicians = technicians.slice((page - 1) * BOARD_TECHNICIANS_PER_PAGE, page * BOARD_TECHNICIANS_PER_PAGE)
  const rowIds = rowTechnicians.map((tech) => tech.id)
  const rows = await db()
    .select({
      id: visits.id,
      customerName: visits.customerName,
      scheduledAt: visits.scheduledAt,
      technicianId: visits.technicianId,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
      planId: visits.planId,
      minutes: serviceLocations.minutesOnSite,
      // Named only for a customer with several locations in use (one indexed count per visit, in this query).
      place: sql<string | null>`case when (select count(*) from service_locations sl
        where sl.company_id = ${visits.companyId} and sl.customer_id = ${visits.customerId} and sl.archived_at is null) > 1
        then coalesce(nullif(${serviceLocations.label}, ''), ${serviceLocations.street}) end`,
    })
    .from(visits)
    .innerJoin(serviceLocations, visitLocation)
    .where(
      and(
        eq(visits.companyId, companyId),
        gte(visits.scheduledAt, start),
        lt(visits.scheduledAt, end),
        sql`(${visits.canceledAt} is null or ${visits.skipReason} is not null)`,
        rowIds.length > 0
          ? or(isNull(visits.technicianId), inArray(visits.technicianId, rowIds))
          : isNull(visits.technicianId),
      ),
    )
    .orderBy(asc(visits.scheduledAt), asc(visits.routePosition), asc(visits.id))
    .limit(BOARD_LIMIT + 1)
  const visitList: BoardVisit[] = rows.slice(0, BOARD_LIMIT).map((row) => ({
    id: row.id,
    customerName: row.customerName,
    date: localDateAt(row.scheduledAt, timezone),
    technicianId: row.technicianId,
    minutes: row.minutes,
    state: visitState(row),
    clock: wallTimeOf(row.scheduledAt, timezone),
    ...(row.planId !== null ? { recurring: true as const } : {}),
    ...(row.place !== null ? { place: row.place } : {}),
  }))
  const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i))
  return {
    weekStart,
    days,
    technicians,
    rowTechnicians,
    technicianPage: {
      page,
      pageCount,
      from: (page - 1) * BOARD_TECHNICIANS_PER_PAGE + 1,
      to: (page - 1) * BOARD_TECHNICIANS_PER_PAGE + rowTechnicians.length,
      total: technicians.length,
    },
    visits: visitList,
    truncated: rows.length > BOARD_LIMIT,
  }
}

/** The company's active technicians, by name. */
export async function listTechnicians(companyId: string) {
  return db()
    .select({ id: profiles.id, name: profiles.fullName, email: profiles.email })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt)))
    .orderBy(asc(profiles.fullName), asc(profiles.id))
}
