// A technician's time as stored (docs/time.md, decision 056): the clock's events of a span of days and those in force
// after the office's corrections, where a day stands, the week's approval (approved weeks are locked), the lock every
// change of a technician's clock takes, and the messages the clock, the timesheet's edits and its approvals answer.
import { and, asc, desc, eq, gte, lt } from 'drizzle-orm'
import { profiles, type TimeEventKind, timeEvents, timesheetApprovals } from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import type { ClockEvent } from '~/schedule/timesheet'
import type { Database } from '~/utils/db.server'

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

/** A technician's events of the work dates from `from` to before `to`, in time order, with who recorded each. */
export async function eventsOf(
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
export async function approvalOf(tx: Database, companyId: string, technicianId: string, weekStart: LocalDate) {
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

/** Serializes a technician's clock: one change at a time (two phones, two tabs, the office and the phone). */
export async function lockTechnician(tx: Database, companyId: string, technicianId: string) {
  const [row] = await tx
    .select({ id: profiles.id, role: profiles.role, fullName: profiles.fullName })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.id, technicianId)))
    .for('update')
  return row ?? null
}
