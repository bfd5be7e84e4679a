// Ending, pausing and changing a service plan from a date (docs/product.md "Schedule"). Past visits and visits someone
// moved, skipped or completed are history or decisions: a change replaces only the plan's untouched visits from its
// date on. Each function returns the plan rows as they should be and what happens to each visit passed in; the caller
// writes that in one transaction and then runs generation (`datesToGenerate`) for the plans it returns.
//
// Plans are generic: fields other than the schedule (technician, window, rate, …) are carried over unchanged unless
// `changes` names them.
import { failure, type Result, success } from '~/utils/result'
import {
  addDays,
  daysBetween,
  isLocalDate,
  isoWeekday,
  isoWeekOf,
  type LocalDate,
  maxDate,
  minDate,
} from './local-date'
import { checkPlanSchedule, isOccurrence, occurrences, type PlanSchedule } from './recurrence'

export type VisitRef = { occurrenceDate: LocalDate }

export type PlanChangeContext<V extends VisitRef> = {
  /** The company's today (`localDateAt(now, timeZone)`). */
  today: LocalDate
  /** The plan's visits from the change date on; others passed in are left out of the answer. */
  visits: readonly V[]
  /**
   * Whether a visit is as generation made it: not moved, skipped or completed (nor anything else the caller protects).
   */
  isUntouched: (visit: V) => boolean
}

export type PlanChange<P extends PlanSchedule, V extends VisitRef> = {
  /** The existing plan's row after the change. */
  current: P
  /** A plan to insert, running from the change date; null when the existing row now says it all. */
  next: P | null
  /** Untouched visits the change replaces: delete them (generation then adds what the plans now say). */
  remove: V[]
  /** Moved, skipped or completed visits (and overdue ones) that stay as they are, on the existing plan. */
  keep: V[]
  /**
   * Moved, skipped or completed visits that stand for the changed plan's visit in their ISO week: give them this
   * plan and occurrence date, so generation does not add a second visit that week (a technician change from today
   * must not put a second visit next to today's completed one; a skipped week stays skipped).
   */
  rehome: { visit: V; plan: 'current' | 'next'; occurrenceDate: LocalDate }[]
}

type Changes<P extends PlanSchedule> = Partial<Omit<P, 'startsOn'>>

const PAST = 'Choose today or a later date.'

function invalidDate(date: string, label: string) {
  return isLocalDate(date) ? null : failure('invalid', `${label} must be a date.`)
}

function endsBefore(endsOn: LocalDate, date: LocalDate) {
  return failure('invalid', `The plan ends on ${endsOn}, before ${date}.`)
}

/**
 * The plan as it is before `cut`, then `replacement` from `cut` on. When the plan has not started by `cut`, the
 * replacement takes its row (there is nothing before `cut` to keep).
 */
function replaceFrom<P extends PlanSchedule, V extends VisitRef>(
  plan: P,
  cut: LocalDate,
  replacement: P,
  context: PlanChangeContext<V>,
  removable: (visit: V) => boolean,
): Result<{ change: PlanChange<P, V> }> {
  const checked = checkPlanSchedule(replacement)
  if (!checked.ok) return checked
  const inPlace = cut <= plan.startsOn
  const target = inPlace ? 'current' : 'next'
  const change: PlanChange<P, V> = {
    current: inPlace ? replacement : { ...plan, endsOn: addDays(cut, -1) },
    next: inPlace ? null : replacement,
    remove: [],
    keep: [],
    rehome: [],
  }
  const later = context.visits.filter((visit) => visit.occurrenceDate >= cut)
  const touched = later.filter((visit) => !context.isUntouched(visit))
  // Occurrence dates already taken on the target plan: in place, every touched visit keeps its own until it moves,
  // so no two visits of one plan ever share an occurrence date (the table's unique key).
  const claimed = new Set(inPlace ? touched.map((visit) => visit.occurrenceDate) : [])
  for (const visit of later) {
    if (context.isUntouched(visit) && removable(visit)) {
      change.remove.push(visit)
      continue
    }
    const week = isoWeekOf(visit.occurrenceDate)
    const counterpart = context.isUntouched(visit) ? undefined : occurrences(replacement, week.start, week.end)[0]
    if (counterpart === undefined || (inPlace && counterpart === visit.occurrenceDate) || claimed.has(counterpart)) {
      change.keep.push(visit)
    } else {
      claimed.add(counterpart)
      change.rehome.push({ visit, plan: target, occurrenceDate: counterpart })
    }
  }
  return success({ change })
}

/**
 * "This and following visits" with the same dates, or any edit of the plan's schedule, technician or other fields
 * that applies from `from` on: the plan ends the day before and a new plan with `changes` starts on `from` (or on
 * the plan's own start, if that is later).
 */
export function changePlanFrom<P extends PlanSchedule, V extends VisitRef>(
  plan: P,
  from: LocalDate,
  changes: Changes<P>,
  context: PlanChangeContext<V>,
): Result<{ change: PlanChange<P, V> }> {
  const bad = invalidDate(from, 'The date')
  if (bad) return bad
  if (from < context.today) return failure('invalid', PAST)
  if (plan.endsOn !== null && from > plan.endsOn) return endsBefore(plan.endsOn, from)
  const replacement = { ...plan, ...changes, startsOn: maxDate(from, plan.startsOn) }
  return replaceFrom(plan, from, replacement, context, () => true)
}

/**
 * "Move visit" with "This and following visits": the visit of `occurrenceDate` goes to `to` and the plan follows
 * on `to`'s weekday (and with `changes`, e.g. another technician) from then on.
 *
 * The old plan ends the day before the earlier of the two dates. The new one starts on that day too when the move is
 * by less than a week, so the plan runs without a gap and its first visit is `to`; a move by a week or more starts it
 * on `to`, and the weeks between have no plan (as a pause would). An overdue visit can be moved this way: it goes,
 * and other overdue visits stay for the office to deal with.
 */
export function moveFollowingVisits<P extends PlanSchedule, V extends VisitRef>(
  plan: P,
  move: { occurrenceDate: LocalDate; to: LocalDate; changes?: Omit<Changes<P>, 'weekday'> },
  context: PlanChangeContext<V>,
): Result<{ change: PlanChange<P, V> }> {
  const bad = invalidDate(move.to, 'The new date') ?? invalidDate(move.occurrenceDate, 'The visit date')
  if (bad) return bad
  if (!isOccurrence(plan, move.occurrenceDate)) return failure('invalid', 'That visit is not one of this plan’s.')
  if (move.to < context.today) return failure('invalid', PAST)
  const cut = minDate(move.occurrenceDate, move.to)
  const startsOn = daysBetween(move.occurrenceDate, move.to) >= 7 ? move.to : cut
  // Moving the plan's last visit past its end keeps the visit: the end moves with it.
  const endsOn = plan.endsOn === null ? null : maxDate(plan.endsOn, move.to)
  const replacement = { ...plan, endsOn, ...move.changes, weekday: isoWeekday(move.to), startsOn }
  return replaceFrom(
    plan,
    cut,
    replacement,
    context,
    (visit) => visit.occurrenceDate >= context.today || visit.occurrenceDate === move.occurrenceDate,
  )
}

/** "Ends on": the plan's last day becomes `endsOn` (yesterday at the earliest, which stops it from today). */
export function endPlan<P extends PlanSchedule, V extends VisitRef>(
  plan: P,
  endsOn: LocalDate,
  context: PlanChangeContext<V>,
): Result<{ change: PlanChange<P, V> }> {
  const bad = invalidDate(endsOn, '"Ends on"')
  if (bad) return bad
  if (endsOn < plan.startsOn) return failure('invalid', '"Ends on" cannot be before "Starts on".')
  if (endsOn < addDays(context.today, -1)) return failure('invalid', '"Ends on" cannot be before yesterday.')
  const change: PlanChange<P, V> = { current: { ...plan, endsOn }, next: null, remove: [], keep: [], rehome: [] }
  for (const visit of context.visits) {
    if (visit.occurrenceDate <= endsOn) continue
    ;(context.isUntouched(visit) ? change.remove : change.keep).push(visit)
  }
  return success({ change })
}

/**
 * Pauses the plan from `from`: no visits from then on until `resumeOn`, or for good when `resumeOn` is null (the
 * plan ends the day before `from`). On resuming, the plan's first visit is the first of its weekday on or after
 * `resumeOn`, and an every-2–4-weeks rhythm counts from there.
 */
export function pausePlan<P extends PlanSchedule, V extends VisitRef>(
  plan: P,
  pause: { from: LocalDate; resumeOn: LocalDate | null },
  context: PlanChangeContext<V>,
): Result<{ change: PlanChange<P, V> }> {
  const bad =
    invalidDate(pause.from, 'The pause') ??
    (pause.resumeOn === null ? null : invalidDate(pause.resumeOn, '"Resume on"'))
  if (bad) return bad
  if (pause.from < context.today) return failure('invalid', PAST)
  if (plan.endsOn !== null && pause.from > plan.endsOn) return endsBefore(plan.endsOn, pause.from)
  if (pause.resumeOn !== null && pause.resumeOn <= pause.from) {
    return failure('invalid', '"Resume on" must be after the pause starts.')
  }
  const resumesWithinPlan = pause.resumeOn !== null && (plan.endsOn === null || pause.resumeOn <= plan.endsOn)
  if (pause.resumeOn !== null && resumesWithinPlan) {
    const replacement = { ...plan, startsOn: maxDate(pause.resumeOn, plan.startsOn) }
    return replaceFrom(plan, pause.from, replacement, context, () => true)
  }
  if (pause.from <= plan.startsOn) {
    return failure('invalid', `The plan starts on ${plan.startsOn}: end it, or change "Starts on", instead.`)
  }
  return endPlan(plan, addDays(pause.from, -1), context)
}
