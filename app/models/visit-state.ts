// A visit's state (docs/product.md "Visit states") as the server and the browser both name it: one rule for the
// week board, the route, the visit page and every dashboard's badge, so no screen can disagree with another.
import { startOfZonedDay } from '~/utils/dates'

export type VisitState = 'open' | 'completed' | 'skipped' | 'canceled'

/** The badge's word for a visit: its state, and an open one "Overdue" from before today or "Scheduled". */
export type VisitStatus = 'Completed' | 'Skipped' | 'Canceled' | 'Overdue' | 'Scheduled'

type StateFields = {
  completedAt: Date | string | null
  canceledAt?: Date | string | null
  skipReason?: string | null
}

const STATUS_OF_CLOSED = { completed: 'Completed', skipped: 'Skipped', canceled: 'Canceled' } as const

/**
 * Completed when completed_at is set; a canceled visit with a skip reason was skipped (docs/product.md "Schedule");
 * canceled without one (its customer was archived, say) it is "Canceled" in history and part of no open work; else
 * open. Given the moment and the company's timezone, the badge's word: an open visit from before today (in that
 * timezone) is overdue — the one rule every dashboard counts and labels by (decision 049; `overdueSql` is its SQL).
 */
export function visitState(visit: StateFields): VisitState
export function visitState(
  visit: StateFields & { scheduledAt: Date | string },
  clock: { now: Date; timezone: string },
): VisitStatus
export function visitState(
  visit: StateFields & { scheduledAt?: Date | string },
  clock?: { now: Date; timezone: string },
): VisitState | VisitStatus {
  const state: VisitState = visit.completedAt
    ? 'completed'
    : visit.skipReason
      ? 'skipped'
      : visit.canceledAt
        ? 'canceled'
        : 'open'
  if (!clock) return state
  if (state !== 'open') return STATUS_OF_CLOSED[state]
  return new Date(visit.scheduledAt ?? clock.now) < startOfZonedDay(clock.now, clock.timezone) ? 'Overdue' : 'Scheduled'
}
