// Time on the clock and timesheets (docs/time.md, decision 056): the technician's "Start day", "Break", "Back" and
// "End day" from the phone's queue, recorded once per event id with the phone's time; the office's week per
// technician, its edits (new rows with a reason, never an overwrite), "Approve week" and "Reopen week"; and the
// approved days the payroll export reads. Minutes, overtime and pay are the pure core's (schedule/timesheet.ts).
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm'
import { jobs, profiles, type TimeEventKind, timeEvents, timesheetApprovals } from '~/db/schema'
import { addDays, instantAt, isWallTime, type LocalDate, localDateAt } from '~/schedule/local-date'
import {
  type ClockEvent,
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
import { type Failure, failure, type Result, success } from '~/utils/result'
import { mondayOf } from './week-board.server'

export const TIME_MESSAGES = {
  alreadyStarted: 'You already started this day.',
  notStarted: 'Start your day first.',
  alreadyEnded: 'This day has already ended.',
  onBreak: 'You are on a break: tap “Back” first.',
  notOnBreak: 'You are not on a break.',
  weekApproved: 'The office approved this week, so its times are locked. Ask them to reopen it.',
  keyReused: 'This change was already used for something else',
  noTechnician: 'This technician is not on your team.',
  reasonRequired: 'Say why the time changes.',
  nothingChanged: 'Change a time, or cancel.',
  badTime: 'Enter a time like 7:30 AM.',
  endBeforeStart: 'The end must be after the start.',
  openDay: (date: string) => `${date} has a start and no end. Edit that day first.`,
  alreadyApproved: 'This week is already approved.',
  notApproved: 'This week is not approved.',
  busy: 'Someone else just changed this week. Reload and try again.',
} as const

/** A time queued offline keeps the phone's moment, never one in the future nor older than two weeks (as visits). */
const OLDEST_EVENT_MS = 14 * 24 * 60 * 60 * 1000

export function phoneTimeOf(madeAt: string, now: Date) {
  const at = new Date(madeAt)
  if (Number.isNaN(at.getTime()) || at > now) return now
  return at.getTime() < now.getTime() - OLDEST_EVENT_MS ? new Date(now.getTime() - OLDEST_EVENT_MS) : at
}

type StoredEvent = {
  id: string
  kind: TimeEventKind
  at: Date
  workDate: string
  source: 'phone' | 'office'
  replacesId: string | null
  reason: string | null
  recordedBy: string | null
  recordedByName: string | null
  recordedAt: Date
}

async function eventsOf(
  tx: Database,
  { companyId, technicianId, from, to }: { companyId: string; technicianId: string; from: LocalDate; to: LocalDate },
): Promise<StoredEvent[]> {
  return tx
    .select({
      id: timeEvents.id,
      kind: timeEvents.kind,
      at: timeEvents.at,
      workDate: timeEvents.workDate,
      source: timeEvents.source,
      replacesId: timeEvents.replacesId,
      reason: timeEvents.reason,
      recordedBy: timeEvents.recordedBy,
      recordedByName: profiles.fullName,
      recordedAt: timeEvents.recordedAt,
    })
    .from(timeEvents)
    .leftJoin(profiles, eq(profiles.id, timeEvents.recordedBy))
    .where(
      and(
        eq(timeEvents.companyId, companyId),
        eq(timeEvents.technicianId, technicianId),
        gte(timeEvents.workDate, from),
        lt(timeEvents.workDate, to),
      ),
    )
    .orderBy(asc(timeEvents.at), asc(timeEvents.recordedAt))
}

/** The events in force: every event no later one replaces (the head of each chain of corrections). */
export function inForce<T extends { id: string; replacesId: string | null }>(events: T[]): T[] {
  const replaced = new Set(events.map((event) => event.replacesId).filter(Boolean))
  return events.filter((event) => !replaced.has(event.id))
}

export type ClockState = 'not-started' | 'working' | 'on-break' | 'ended'

/** Where a day stands from its events in force. */
export function clockStateOf(events: Pick<ClockEvent, 'kind' | 'at'>[]): ClockState {
  if (!events.some((event) => event.kind === 'start')) return 'not-started'
  if (events.some((event) => event.kind === 'end')) return 'ended'
  const breaks = events.filter((event) => event.kind === 'break-start').length
  const backs = events.filter((event) => event.kind === 'break-end').length
  return breaks > backs ? 'on-break' : 'working'
}

/** The latest approval row of each of a technician's weeks decides: approved (locked) or open. */
async function approvalOf(tx: Database, companyId: string, technicianId: string, weekStart: LocalDate) {
  const rows = await tx
    .select({
      seq: timesheetApprovals.seq,
      action: timesheetApprovals.action,
      reason: timesheetApprovals.reason,
      actedAt: timesheetApprovals.actedAt,
      actedByName: profiles.fullName,
    })
    .from(timesheetApprovals)
    .leftJoin(profiles, eq(profiles.id, timesheetApprovals.actedBy))
    .where(
      and(
        eq(timesheetApprovals.companyId, companyId),
        eq(timesheetApprovals.technicianId, technicianId),
        eq(timesheetApprovals.weekStart, weekStart),
      ),
    )
    .orderBy(desc(timesheetApprovals.seq))
  return { approved: rows[0]?.action === 'approve', lastSeq: rows[0]?.seq ?? 0, history: rows }
}

/** Serialises a technician's clock: one change at a time (two phones, two tabs, the office and the phone). */
async function lockTechnician(tx: Database, companyId: string, technicianId: string) {
  const [row] = await tx
    .select({ id: profiles.id, role: profiles.role, fullName: profiles.fullName })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, technicianId)))
    .for('update')
  return row ?? null
}

export type TimeEventInput = { id: string; kind: TimeEventKind; madeAt: string }

/**
 * Records one tap of the technician's clock, once per event id (the phone's queue key): sent again — after a lost
 * answer, or twice at once — it finds its row and answers "replayed", writing nothing. The day it belongs to is the
 * company's date of its "Start day" (a "Back" or "End day" after midnight stays on the day it started). A tap that does
 * not fit the day (a second "Start day", "Back" without "Break") or falls in an approved week is refused with the
 * reason, stored nowhere.
 */
export async function recordTimeEvent(
  member: { id: string; companyId: string; timezone: string },
  input: TimeEventInput,
  now = new Date(),
): Promise<Result<{ replayed?: true }>> {
  const { companyId, id: technicianId, timezone } = member
  return db().transaction(async (tx) => {
    if (!(await lockTechnician(tx, companyId, technicianId))) return failure('not-found', TIME_MESSAGES.noTechnician)
    const [existing] = await tx
      .select({ technicianId: timeEvents.technicianId, kind: timeEvents.kind, source: timeEvents.source })
      .from(timeEvents)
      .where(and(eq(timeEvents.companyId, companyId), eq(timeEvents.id, input.id)))
    if (existing) {
      if (existing.technicianId === technicianId && existing.kind === input.kind && existing.source === 'phone') {
        return success({ replayed: true as const })
      }
      return failure('key-reused', TIME_MESSAGES.keyReused)
    }
    const at = phoneTimeOf(input.madeAt, now)
    const today = localDateAt(at, timezone)
    let workDate = today
    if (input.kind === 'start') {
      const events = inForce(await eventsOf(tx, { companyId, technicianId, from: today, to: addDays(today, 1) }))
      if (clockStateOf(events) !== 'not-started') return failure('conflict', TIME_MESSAGES.alreadyStarted)
    } else {
      // The day this tap belongs to: the latest started day, today's or (a shift past midnight) yesterday's.
      const recent = inForce(
        await eventsOf(tx, { companyId, technicianId, from: addDays(today, -1), to: addDays(today, 1) }),
      ).filter((event) => event.at <= at || event.workDate === today)
      const started = recent.filter((event) => event.kind === 'start').sort((a, b) => b.at.getTime() - a.at.getTime())
      const day = started[0]?.workDate
      if (!day) return failure('conflict', TIME_MESSAGES.notStarted)
      workDate = day
      const state = clockStateOf(recent.filter((event) => event.workDate === day))
      if (state === 'ended') return failure('conflict', TIME_MESSAGES.alreadyEnded)
      if (input.kind === 'break-start' && state === 'on-break') return failure('conflict', TIME_MESSAGES.onBreak)
      if (input.kind === 'break-end' && state !== 'on-break') return failure('conflict', TIME_MESSAGES.notOnBreak)
    }
    if ((await approvalOf(tx, companyId, technicianId, mondayOf(workDate))).approved) {
      return failure('conflict', TIME_MESSAGES.weekApproved)
    }
    const inserted = await tx
      .insert(timeEvents)
      .values({
        id: input.id,
        companyId,
        technicianId,
        workDate,
        kind: input.kind,
        at,
        source: 'phone',
        recordedBy: technicianId,
      })
      .onConflictDoNothing()
      .returning({ id: timeEvents.id })
    // Only a row written at the same instant under another id for the same day's start or end gets here.
    if (inserted.length === 0) return failure('conflict', TIME_MESSAGES.alreadyStarted)
    return success({})
  })
}

export type ClockDay = {
  date: LocalDate | null
  state: ClockState
  startAt: string | null
  /** When the break in progress started. */
  breakSince: string | null
  endAt: string | null
}

/** The technician's day as Today shows it: today's, or yesterday's when it is still running past midnight. */
export async function clockDayOf({
  companyId,
  technicianId,
  timezone,
  now = new Date(),
}: {
  companyId: string
  technicianId: string
  timezone: string
  now?: Date
}): Promise<ClockDay> {
  const today = localDateAt(now, timezone)
  const events = inForce(
    await eventsOf(db(), { companyId, technicianId, from: addDays(today, -1), to: addDays(today, 1) }),
  )
  const ofDay = (date: LocalDate) => events.filter((event) => event.workDate === date)
  const yesterday = ofDay(addDays(today, -1))
  const date =
    ofDay(today).length === 0 && clockStateOf(yesterday) !== 'not-started' && clockStateOf(yesterday) !== 'ended'
      ? addDays(today, -1)
      : today
  const day = ofDay(date)
  const state = clockStateOf(day)
  const lastBreak = day.filter((event) => event.kind === 'break-start').at(-1)
  return {
    date,
    state,
    startAt: day.find((event) => event.kind === 'start')?.at.toISOString() ?? null,
    breakSince: state === 'on-break' && lastBreak ? lastBreak.at.toISOString() : null,
    endAt: day.find((event) => event.kind === 'end')?.at.toISOString() ?? null,
  }
}

// ---- The office's week ----------------------------------------------------------------------------------------

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
      select min(vc.checked_at) as t from visit_checks vc where vc.company_id = "jobs"."company_id" and vc.job_id = "jobs"."id"
      union all select min(cl.taken_at) from chem_logs cl where cl.company_id = "jobs"."company_id" and cl.job_id = "jobs"."id"
      union all select min(ca.added_at) from job_chemical_additions ca where ca.company_id = "jobs"."company_id" and ca.job_id = "jobs"."id"
    ) w)`.mapWith((value) => (value == null ? null : new Date(Number(value))))
  return tx
    .select({
      id: jobs.id,
      customerName: jobs.customerName,
      address: jobs.address,
      scheduledAt: jobs.scheduledAt,
      onMyWayAt: jobs.onMyWayAt,
      completedAt: jobs.completedAt,
      completedOnPhoneAt: jobs.completedOnPhoneAt,
      cancelledAt: jobs.cancelledAt,
      skipReason: jobs.skipReason,
      arrivedAt: firstWork,
    })
    .from(jobs)
    .where(
      and(
        eq(jobs.companyId, companyId),
        eq(jobs.technicianId, technicianId),
        gte(jobs.scheduledAt, from),
        lt(jobs.scheduledAt, to),
      ),
    )
    .orderBy(asc(jobs.scheduledAt), asc(jobs.id))
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

export type DayEdit = {
  technicianId: string
  date: LocalDate
  /** 'HH:MM' on the company's clock; an end before the start is the next morning. Null: no change. */
  start: string | null
  end: string | null
  reason: string
}

/**
 * "Edit" a day's start and end: each changed time is a new office row replacing the one in force (or added where the
 * phone recorded none), with the reason; the phone's original stays. Refused in an approved week.
 */
export async function editDay(
  actor: { id: string; companyId: string; timezone: string },
  edit: DayEdit,
): Promise<Result | Failure> {
  const { companyId, timezone } = actor
  const reason = edit.reason.trim()
  if (!reason) return failure('invalid', TIME_MESSAGES.reasonRequired, 'reason')
  for (const [field, value] of [
    ['start', edit.start],
    ['end', edit.end],
  ] as const) {
    if (value !== null && !isWallTime(value)) return failure('invalid', TIME_MESSAGES.badTime, field)
  }
  return db().transaction(async (tx) => {
    const technician = await lockTechnician(tx, companyId, edit.technicianId)
    if (technician?.role !== 'tech') return failure('not-found', TIME_MESSAGES.noTechnician)
    if ((await approvalOf(tx, companyId, edit.technicianId, mondayOf(edit.date))).approved) {
      return failure('conflict', TIME_MESSAGES.weekApproved)
    }
    const events = inForce(
      await eventsOf(tx, {
        companyId,
        technicianId: edit.technicianId,
        from: edit.date,
        to: addDays(edit.date, 1),
      }),
    )
    const startEvent = events.find((event) => event.kind === 'start')
    const endEvent = events.filter((event) => event.kind === 'end').at(-1)
    const startAt = edit.start ? instantAt(edit.date, edit.start, timezone) : (startEvent?.at ?? null)
    let endAt = edit.end ? instantAt(edit.date, edit.end, timezone) : (endEvent?.at ?? null)
    if (edit.end && endAt && startAt && endAt <= startAt) endAt = instantAt(addDays(edit.date, 1), edit.end, timezone)
    if (startAt && endAt && endAt <= startAt) return failure('invalid', TIME_MESSAGES.endBeforeStart, 'end')
    if (!startAt && endAt) return failure('invalid', TIME_MESSAGES.notStarted, 'start')
    const changes: Array<{ kind: TimeEventKind; at: Date; replaces: string | null }> = []
    if (startAt && startAt.getTime() !== startEvent?.at.getTime()) {
      changes.push({ kind: 'start', at: startAt, replaces: startEvent?.id ?? null })
    }
    if (endAt && endAt.getTime() !== endEvent?.at.getTime()) {
      changes.push({ kind: 'end', at: endAt, replaces: endEvent?.id ?? null })
    }
    if (changes.length === 0) return failure('invalid', TIME_MESSAGES.nothingChanged)
    const inserted = await tx
      .insert(timeEvents)
      .values(
        changes.map((change) => ({
          companyId,
          technicianId: edit.technicianId,
          workDate: edit.date,
          kind: change.kind,
          at: change.at,
          source: 'office' as const,
          replacesId: change.replaces,
          reason,
          recordedBy: actor.id,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: timeEvents.id })
    if (inserted.length !== changes.length) throw new Error('A time being corrected was corrected meanwhile.')
    return success({})
  })
}

/** Writes the week's next approval step; a step written meanwhile by someone else refuses this one. */
async function writeApproval(
  actor: { id: string; companyId: string; timezone: string },
  {
    technicianId,
    weekStart,
    action,
    reason,
  }: { technicianId: string; weekStart: LocalDate; action: 'approve' | 'reopen'; reason: string | null },
): Promise<Result | Failure> {
  const { companyId } = actor
  return db().transaction(async (tx) => {
    const technician = await lockTechnician(tx, companyId, technicianId)
    if (technician?.role !== 'tech') return failure('not-found', TIME_MESSAGES.noTechnician)
    const approval = await approvalOf(tx, companyId, technicianId, weekStart)
    if (action === 'approve') {
      if (approval.approved) return failure('conflict', TIME_MESSAGES.alreadyApproved)
      const week = await weekTimesheet({ companyId, technicianId, weekStart, timezone: actor.timezone }, tx)
      const open = week?.days.find((day) => day.open)
      if (open) return failure('conflict', TIME_MESSAGES.openDay(open.date))
    } else if (!approval.approved) {
      return failure('conflict', TIME_MESSAGES.notApproved)
    }
    const written = await tx
      .insert(timesheetApprovals)
      .values({ companyId, technicianId, weekStart, seq: approval.lastSeq + 1, action, reason, actedBy: actor.id })
      .onConflictDoNothing()
      .returning({ id: timesheetApprovals.id })
    if (written.length === 0) return failure('conflict', TIME_MESSAGES.busy)
    return success({})
  })
}

/** "Approve week": locks the week's times for payroll. Refused while a day has a start and no end. */
export function approveWeek(
  actor: { id: string; companyId: string; timezone: string },
  week: { technicianId: string; weekStart: LocalDate },
) {
  return writeApproval(actor, { ...week, action: 'approve', reason: null })
}

/** "Reopen week": unlocks an approved week for edits, with a reason kept in the week's history. */
export function reopenWeek(
  actor: { id: string; companyId: string; timezone: string },
  week: { technicianId: string; weekStart: LocalDate; reason: string },
) {
  const reason = week.reason.trim()
  if (!reason) return Promise.resolve(failure('invalid', TIME_MESSAGES.reasonRequired, 'reason'))
  return writeApproval(actor, { ...week, action: 'reopen', reason })
}

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
