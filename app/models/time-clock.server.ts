// The technician's clock (docs/time.md "On the phone", decision 056): "Start day", "Break", "Back" and "End day" from
// the phone's queue, recorded once per event id with the phone's time, and the day as Today shows it.
import { and, eq } from 'drizzle-orm'
import { type TimeEventKind, timeEvents } from '~/db/schema'
import { addDays, type LocalDate, localDateAt } from '~/schedule/local-date'
import type { TechnicianClock } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { failure, type Result, success } from '~/utils/result'
import {
  approvalOf,
  type ClockState,
  clockStateOf,
  eventsOf,
  inForce,
  lockTechnician,
  TIME_MESSAGES,
} from './time-events.server'
import { mondayOf } from './week-board.server'

/** A time queued offline keeps the phone's moment, never one in the future nor older than two weeks (as visits). */
const OLDEST_EVENT_MS = 14 * 24 * 60 * 60 * 1000

export function phoneTimeOf(madeAt: string, now: Date) {
  const at = new Date(madeAt)
  if (Number.isNaN(at.getTime()) || at > now) return now
  return at.getTime() < now.getTime() - OLDEST_EVENT_MS ? new Date(now.getTime() - OLDEST_EVENT_MS) : at
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
}: TechnicianClock): Promise<ClockDay> {
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
