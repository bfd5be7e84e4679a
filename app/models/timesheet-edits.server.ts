// The office's changes to a technician's timesheet (docs/time.md "Timesheets (office)", decision 056): a day's start
// and end edited as new rows with a reason (never an overwrite), "Approve week" and "Reopen week".

import { type TimeEventKind, timeEvents, timesheetApprovals } from '~/db/schema'
import { addDays, instantAt, isWallTime, type LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { approvalOf, eventsOf, inForce, lockTechnician, TIME_MESSAGES } from './time-events.server'
import { weekTimesheet } from './timesheet.server'
import { mondayOf } from './week-board.server'

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
