// The office's week of a technician's time (docs/time.md "Timesheets (office)", decision 056): each day's times in
// force, its stops' drive and on-site minutes, the office's edits with their reasons, the week's approvals, and
// regular, overtime and gross pay. Minutes, overtime and pay are the pure core's (schedule/timesheet.ts).
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm'
import { profiles, type TimeEventKind, visits } from '~/db/schema'
import { addDays, instantAt, type LocalDate, localDateAt } from '~/schedule/local-date'
import {
  type DayTotals,
  dayGrossCents,
  dayTotals,
  type PayTerms,
  type StopTimes,
  splitOvertime,
  stopSpans,
  WEEKLY_OVERTIME_AFTER_MINUTES,
} from '~/schedule/timesheet'
import { type Database, db } from '~/utils/db.server'
import { approvalOf, eventsOf, inForce } from './time-events.server'

export type TimesheetStop = {
  id: string
  customerName: string
  address: string
  state: 'completed' | 'skipped' | 'open'
  onMyWayAt: Date | null
  arrivedAt: Date | null
  completedAt: Date | null
  driveMinutes: number
  onSiteMinutes: number
}

export type TimesheetEdit = {
  id: string
  kind: TimeEventKind
  from: Date | null
  to: Date
  reason: string
  byName: string | null
  at: Date
}

export type TimesheetDay = DayTotals & {
  date: LocalDate
  stops: TimesheetStop[]
  completed: number
  skipped: number
  edits: TimesheetEdit[]
  regularMinutes: number
  overtimeMinutes: number
  grossCents: number
}

export type TechnicianPay = PayTerms & { fullName: string; email: string }

export type WeekTimesheet = {
  technician: TechnicianPay & { id: string }
  weekStart: LocalDate
  days: TimesheetDay[]
  totals: {
    workedMinutes: number
    regularMinutes: number
    overtimeMinutes: number
    breakMinutes: number
    driveMinutes: number
    onSiteMinutes: number
    completed: number
    skipped: number
    grossCents: number
  }
  /** More than 40 hours worked in the week. */
  overtime: boolean
  approved: boolean
  approvals: Array<{ action: 'approve' | 'reopen'; reason: string | null; actedAt: Date; actedByName: string | null }>
}

const minutes = (from: Date | null, to: Date | null) =>
  from && to && to > from ? Math.floor(to.getTime() / 60_000) - Math.floor(from.getTime() / 60_000) : 0

/** The visits of a technician between two instants (by schedule), with their own times and first recorded work. */
async function stopsBetween(
  tx: Database,
  { companyId, technicianId, from, to }: { companyId: string; technicianId: string; from: Date; to: Date },
) {
  // Arrival: the first work recorded on the visit (a tick, a reading, a chemical), each kept with the phone's time.
  const firstWork = sql<Date | null>`(select (extract(epoch from min(w.t)) * 1000)::float8 from (
      select min(vc.checked_at) as t from visit_checks vc where vc.company_id = "visits"."company_id" and vc.visit_id = "visits"."id"
      union all select min(cl.taken_at) from chem_logs cl where cl.company_id = "visits"."company_id" and cl.visit_id = "visits"."id"
      union all select min(ca.added_at) from visit_chemical_additions ca where ca.company_id = "visits"."company_id" and ca.visit_id = "visits"."id"
    ) w)`.mapWith((value) => (value == null ? null : new Date(Number(value))))
  return tx
    .select({
      id: visits.id,
      customerName: visits.customerName,
      address: visits.address,
      scheduledAt: visits.scheduledAt,
      onMyWayAt: visits.onMyWayAt,
      completedAt: visits.completedAt,
      completedOnPhoneAt: visits.completedOnPhoneAt,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
      arrivedAt: firstWork,
    })
    .from(visits)
    .where(
      and(
        eq(visits.companyId, companyId),
        eq(visits.technicianId, technicianId),
        gte(visits.scheduledAt, from),
        lt(visits.scheduledAt, to),
      ),
    )
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
}

async function technicianPay(tx: Database, companyId: string, technicianId: string) {
  const [row] = await tx
    .select({
      id: profiles.id,
      fullName: profiles.fullName,
      email: profiles.email,
      payType: profiles.payType,
      hourlyRateCents: profiles.hourlyRateCents,
      perStopRateCents: profiles.perStopRateCents,
      skippedVisitExtraCents: profiles.skippedVisitExtraCents,
    })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, technicianId), eq(profiles.role, 'tech')))
  return row ? { ...row, fullName: row.fullName ?? row.email } : null
}

/**
 * One technician's week from Monday `weekStart`: each day's times in force, breaks, drive and on-site minutes from its
 * stops, every office edit with its reason, regular and overtime minutes, and gross pay at the profile's terms. Null
 * when the technician is not one of the company's.
 */
export async function weekTimesheet(
  {
    companyId,
    technicianId,
    weekStart,
    timezone,
  }: { companyId: string; technicianId: string; weekStart: LocalDate; timezone: string },
  tx: Database = db(),
): Promise<WeekTimesheet | null> {
  const technician = await technicianPay(tx, companyId, technicianId)
  if (!technician) return null
  const weekEnd = addDays(weekStart, 7)
  const [events, stops, approval] = await Promise.all([
    eventsOf(tx, { companyId, technicianId, from: weekStart, to: weekEnd }),
    stopsBetween(tx, {
      companyId,
      technicianId,
      from: instantAt(weekStart, '00:00', timezone),
      to: instantAt(weekEnd, '00:00', timezone),
    }),
    approvalOf(tx, companyId, technicianId, weekStart),
  ])
  const byId = new Map(events.map((event) => [event.id, event]))
  const current = inForce(events)
  const dates = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i))
  const built = dates.map((date) => {
    const dayStops = stops.filter((stop) => localDateAt(stop.scheduledAt, timezone) === date)
    const shown: TimesheetStop[] = dayStops.map((stop) => {
      const times: StopTimes = {
        onMyWayAt: stop.onMyWayAt,
        arrivedAt: stop.arrivedAt,
        completedAt: stop.completedOnPhoneAt ?? stop.completedAt,
      }
      const spans = stopSpans(times)
      return {
        id: stop.id,
        customerName: stop.customerName,
        address: stop.address,
        state: stop.completedAt ? 'completed' : stop.skipReason ? 'skipped' : 'open',
        ...times,
        driveMinutes: minutes(spans.drive?.from ?? null, spans.drive?.to ?? null),
        onSiteMinutes: minutes(spans.onSite?.from ?? null, spans.onSite?.to ?? null),
      }
    })
    const dayEvents = current.filter((event) => event.workDate === date)
    const totals = dayTotals(
      dayEvents,
      shown.map(({ onMyWayAt, arrivedAt, completedAt }) => ({ onMyWayAt, arrivedAt, completedAt })),
    )
    const edits: TimesheetEdit[] = events
      .filter((event) => event.workDate === date && event.source === 'office')
      .map((event) => ({
        id: event.id,
        kind: event.kind,
        from: event.replacesId ? (byId.get(event.replacesId)?.at ?? null) : null,
        to: event.at,
        reason: event.reason ?? '',
        byName: event.recordedByName,
        at: event.recordedAt,
      }))
      .sort((a, b) => a.at.getTime() - b.at.getTime())
    return {
      ...totals,
      date,
      stops: shown,
      completed: shown.filter((stop) => stop.state === 'completed').length,
      skipped: shown.filter((stop) => stop.state === 'skipped').length,
      edits,
    }
  })
  const split = new Map(splitOvertime(built).map((day) => [day.date, day]))
  const days: TimesheetDay[] = built.map((day) => {
    const hours = split.get(day.date) ?? { regularMinutes: 0, overtimeMinutes: 0 }
    return {
      ...day,
      regularMinutes: hours.regularMinutes,
      overtimeMinutes: hours.overtimeMinutes,
      grossCents: dayGrossCents(technician, { ...hours, completed: day.completed, skipped: day.skipped }),
    }
  })
  const sum = (pick: (day: TimesheetDay) => number) => days.reduce((total, day) => total + pick(day), 0)
  const workedMinutes = sum((day) => day.workedMinutes)
  return {
    technician,
    weekStart,
    days,
    totals: {
      workedMinutes,
      regularMinutes: sum((day) => day.regularMinutes),
      overtimeMinutes: sum((day) => day.overtimeMinutes),
      breakMinutes: sum((day) => day.breakMinutes),
      driveMinutes: sum((day) => day.driveMinutes),
      onSiteMinutes: sum((day) => day.onSiteMinutes),
      completed: sum((day) => day.completed),
      skipped: sum((day) => day.skipped),
      grossCents: sum((day) => day.grossCents),
    },
    overtime: workedMinutes > WEEKLY_OVERTIME_AFTER_MINUTES,
    approved: approval.approved,
    approvals: approval.history.map(({ action, reason, actedAt, actedByName }) => ({
      action,
      reason,
      actedAt,
      actedByName,
    })),
  }
}

/** The company's technicians for the picker (active first, then by name). */
export async function listTimesheetTechnicians(companyId: string) {
  return db()
    .select({ id: profiles.id, fullName: profiles.fullName, email: profiles.email })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'tech')))
    .orderBy(sql`${profiles.deactivatedAt} is not null`, asc(profiles.fullName), asc(profiles.email))
}
