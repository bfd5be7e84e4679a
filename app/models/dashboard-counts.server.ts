// The dashboards' figures (docs/product.md "Roles", "Visit states"): the business counts of owners and admins, the
// dispatcher's and a technician's, each one statement whose counts stay on the visits' indexes (docs/performance.md).
import { type SQL, sql } from 'drizzle-orm'
import { visits } from '~/db/schema'
import {
  type CompanyClock,
  startOfZonedDay,
  startOfZonedMonth,
  startOfZonedWeek,
  type TechnicianClock,
  zonedDayRange,
} from '~/utils/dates'
import { queryRows } from '~/utils/db.server'
import { openSql, overdueSql } from './visit-record.server'

/** A company and the moment its figures are for, read in the company's timezone. */
/**
 * The dispatcher's counts over the whole company, in one statement (issue 38 item 5): what a dispatcher acts on.
 * Today's open visits; unassigned this week (open, no technician, scheduled Monday to Sunday of this week); overdue
 * (`overdueSql`); skipped this week (by the visit's date) — all in the company's timezone — and every open unassigned
 * visit (the unassigned list's pages). Each count is its own index range, as in `getBusinessCounts`.
 */
export async function getDispatchCounts({ companyId, timezone, now = new Date() }: CompanyClock) {
  const { start, end } = zonedDayRange(now, timezone)
  const week = zonedWeekRange(now, timezone)
  const count = (condition: SQL) =>
    sql`(select count(*)::int from ${visits} where ${visits.companyId} = ${companyId} and ${condition})`
  const inWeek = sql`${visits.scheduledAt} >= ${week.start.toISOString()} and ${visits.scheduledAt} < ${week.end.toISOString()}`
  const [row] = await queryRows<{
    unassigned: number
    unassignedThisWeek: number
    today: number
    overdue: number
    skippedThisWeek: number
  }>(sql`select
      ${count(sql`${openSql} and ${visits.technicianId} is null`)} as "unassigned",
      ${count(sql`${openSql} and ${visits.technicianId} is null and ${inWeek}`)} as "unassignedThisWeek",
      ${count(sql`${openSql} and ${visits.scheduledAt} >= ${start.toISOString()} and ${visits.scheduledAt} < ${end.toISOString()}`)} as "today",
      ${count(overdueSql(start))} as "overdue",
      ${count(sql`${visits.skipReason} is not null and ${inWeek}`)} as "skippedThisWeek"`)
  return row ?? { unassigned: 0, unassignedThisWeek: 0, today: 0, overdue: 0, skippedThisWeek: 0 }
}

/** This week, Monday 00:00 to the next Monday 00:00 in the company's timezone (docs/product.md "Easy to get wrong"). */
export function zonedWeekRange(now: Date, timezone: string) {
  const start = startOfZonedWeek(now, timezone)
  return { start, end: startOfZonedDay(start, timezone, 7) }
}

/**
 * The business figures of the owner and admin dashboards, over the whole company in one query: open visits, today's open
 * visits, overdue (open visits from before today), visits skipped this week, and completions this week (from Monday
 * 00:00, docs/product.md "Easy to get wrong") and this month, all in the company's timezone.
 */
export async function getBusinessCounts({ companyId, timezone, now = new Date() }: CompanyClock) {
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
    sql`(select count(*)::int from ${visits} where ${visits.companyId} = ${companyId} and ${condition})`
  const iso = (date: Date) => date.toISOString()
  const open = sql`${visits.completedAt} is null and ${visits.canceledAt} is null`
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
      ${count(sql`${open} and ${visits.scheduledAt} >= ${iso(start)} and ${visits.scheduledAt} < ${iso(end)}`)} as "today",
      ${count(overdueSql(start))} as "overdue",
      ${count(sql`${open} and ${visits.scheduledAt} >= ${iso(now)}`)} as "upcoming",
      ${count(sql`${visits.skipReason} is not null and ${visits.scheduledAt} >= ${iso(weekStart)} and ${visits.scheduledAt} < ${iso(weekEnd)}`)} as "skippedThisWeek",
      ${count(sql`${visits.completedAt} is not null and ${visits.completedAt} >= ${iso(weekStart)} and ${visits.completedAt} < ${iso(weekEnd)}`)} as "completedThisWeek",
      ${count(sql`${visits.completedAt} is not null and ${visits.completedAt} >= ${iso(monthStart)} and ${visits.completedAt} < ${iso(monthEnd)}`)} as "completedThisMonth"`)
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

/**
 * A technician's figures in one query: today's open visits, overdue ones from earlier days, and completed this week
 * (from Monday 00:00 in the company's timezone). One count per index range, as in `getBusinessCounts`: under one scan
 * with the three conditions together, a plan made without the values (a prepared statement's, decision 073) read
 * every visit the technician ever had.
 */
export async function getTechCounts({ companyId, technicianId, timezone, now = new Date() }: TechnicianClock) {
  const { start, end } = zonedDayRange(now, timezone)
  const weekStart = startOfZonedWeek(now, timezone)
  const count = (condition: SQL) =>
    sql`(select count(*)::int from ${visits} where ${visits.companyId} = ${companyId} and ${visits.technicianId} = ${technicianId} and ${condition})`
  const [row] = await queryRows<{ today: number; overdue: number; completedThisWeek: number }>(sql`select
      ${count(sql`${openSql} and ${visits.scheduledAt} >= ${start.toISOString()} and ${visits.scheduledAt} < ${end.toISOString()}`)} as "today",
      ${count(overdueSql(start))} as "overdue",
      ${count(sql`${visits.completedAt} is not null and ${visits.completedAt} >= ${weekStart.toISOString()}`)} as "completedThisWeek"`)
  return row ?? { today: 0, overdue: 0, completedThisWeek: 0 }
}
