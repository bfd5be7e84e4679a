// The payroll export's rows (docs/time.md "Pay and the payroll export", decision 056): approved weeks only, one row
// per technician and day with time or stops.
import { and, asc, eq, gte, lt } from 'drizzle-orm'
import { timesheetApprovals } from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { type WeekTimesheet, weekTimesheet } from './timesheet.server'

export type PayrollRow = {
  employee: string
  email: string
  date: LocalDate
  regularMinutes: number
  overtimeMinutes: number
  stops: number
  grossCents: number
}

/**
 * The payroll export's rows: every approved week starting from Monday `from` to before `to`, one row per technician
 * and day with time or stops, in technician then date order. Weeks not approved are left out (the page says so).
 */
export async function payrollRows({
  companyId,
  timezone,
  from,
  to,
}: {
  companyId: string
  timezone: string
  from: LocalDate
  to: LocalDate
}): Promise<PayrollRow[]> {
  const steps = await db()
    .select({
      technicianId: timesheetApprovals.technicianId,
      weekStart: timesheetApprovals.weekStart,
      action: timesheetApprovals.action,
    })
    .from(timesheetApprovals)
    .where(
      and(
        eq(timesheetApprovals.companyId, companyId),
        gte(timesheetApprovals.weekStart, from),
        lt(timesheetApprovals.weekStart, to),
      ),
    )
    .orderBy(asc(timesheetApprovals.seq))
  // The latest step of each technician's week decides.
  const last = new Map<string, { technicianId: string; weekStart: LocalDate; action: string }>()
  for (const step of steps) last.set(`${step.technicianId} ${step.weekStart}`, step)
  const latest = [...last.values()].filter((step) => step.action === 'approve')
  const weeks = await Promise.all(
    latest.map((row) =>
      weekTimesheet({ companyId, timezone, technicianId: row.technicianId, weekStart: row.weekStart }),
    ),
  )
  return weeks
    .filter((week): week is WeekTimesheet => week !== null)
    .sort(
      (a, b) =>
        a.technician.fullName.localeCompare(b.technician.fullName) ||
        a.technician.email.localeCompare(b.technician.email) ||
        (a.weekStart < b.weekStart ? -1 : 1),
    )
    .flatMap((week) =>
      week.days
        .filter((day) => day.workedMinutes > 0 || day.completed > 0 || day.skipped > 0)
        .map((day) => ({
          employee: week.technician.fullName,
          email: week.technician.email,
          date: day.date,
          regularMinutes: day.regularMinutes,
          overtimeMinutes: day.overtimeMinutes,
          stops: day.completed,
          grossCents: day.grossCents,
        })),
    )
}
