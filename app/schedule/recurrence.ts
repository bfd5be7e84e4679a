// Which local dates a service plan has a visit on (docs/product.md "Schedule"), and which of them rolling generation
// creates. All of it is calendar arithmetic on local dates: the company's timezone enters only through "today", so a
// Monday plan yields Mondays across every daylight-saving change by construction (decision 013).
import { failure, type Result, success } from '~/utils/result'
import {
  addDays,
  daysBetween,
  type IsoWeekday,
  isLocalDate,
  isoWeekday,
  type LocalDate,
  localDateAt,
} from './local-date'

export const FREQUENCY_WEEKS = [1, 2, 3, 4] as const
export type FrequencyWeeks = (typeof FREQUENCY_WEEKS)[number]

/** The part of a service plan that decides its dates. `endsOn` is the last day the plan runs, inclusive. */
export type PlanSchedule = {
  frequencyWeeks: FrequencyWeeks
  weekday: IsoWeekday
  startsOn: LocalDate
  endsOn: LocalDate | null
}

/** An inclusive range of local dates. */
export type DateWindow = { from: LocalDate; to: LocalDate }

/** Visits are kept this many weeks ahead of the company's today (docs/product.md "Schedule"). */
export const GENERATION_WEEKS = 8

/**
 * Checks a plan's dates as a person typed them; the messages name the form's fields. The other functions here
 * assume a schedule that passed this check.
 */
export function checkPlanSchedule(input: {
  frequencyWeeks: number
  weekday: number
  startsOn: string
  endsOn: string | null
}): Result<{ schedule: PlanSchedule }> {
  const { frequencyWeeks, weekday, startsOn, endsOn } = input
  if (!(FREQUENCY_WEEKS as readonly number[]).includes(frequencyWeeks)) {
    return failure('invalid', '"Frequency" must be every 1, 2, 3 or 4 weeks.')
  }
  if (!Number.isInteger(weekday) || weekday < 1 || weekday > 7) return failure('invalid', 'Choose a "Day".')
  if (!isLocalDate(startsOn)) return failure('invalid', '"Starts on" must be a date.')
  if (endsOn !== null && !isLocalDate(endsOn)) return failure('invalid', '"Ends on" must be a date.')
  if (endsOn !== null && endsOn < startsOn) return failure('invalid', '"Ends on" cannot be before "Starts on".')
  return success({
    schedule: { frequencyWeeks: frequencyWeeks as FrequencyWeeks, weekday: weekday as IsoWeekday, startsOn, endsOn },
  })
}

/**
 * The plan's first visit: the first date on or after `startsOn` that falls on its weekday. Later ones follow every
 * `frequencyWeeks` weeks from it.
 */
export function firstOccurrence(plan: Pick<PlanSchedule, 'weekday' | 'startsOn'>): LocalDate {
  return addDays(plan.startsOn, (plan.weekday - isoWeekday(plan.startsOn) + 7) % 7)
}

/**
 * The plan's visit dates within `fromDate`…`toDate` (both included), in order. Counts from the anchor rather than
 * stepping through the past, so a plan that started years ago costs no more than a new one.
 */
export function occurrences(plan: PlanSchedule, fromDate: LocalDate, toDate: LocalDate): LocalDate[] {
  const first = firstOccurrence(plan)
  const last = plan.endsOn !== null && plan.endsOn < toDate ? plan.endsOn : toDate
  const start = first > fromDate ? first : fromDate
  if (start > last) return []
  const step = 7 * plan.frequencyWeeks
  const skip = Math.ceil(daysBetween(first, start) / step)
  const dates: LocalDate[] = []
  for (let date = addDays(first, skip * step); date <= last; date = addDays(date, step)) dates.push(date)
  return dates
}

/** Whether the plan has a visit on `date`. */
export function isOccurrence(plan: PlanSchedule, date: LocalDate): boolean {
  return occurrences(plan, date, date).length === 1
}

/**
 * The dates generation keeps visits for: the company's today and the 8 weeks from it (56 days, today included, so a
 * weekly plan always has 8 visits ahead and the board's current week and the 7 after it are complete).
 */
export function generationWindow(now: Date, timeZone: string): DateWindow {
  const from = localDateAt(now, timeZone)
  return { from, to: addDays(from, 7 * GENERATION_WEEKS - 1) }
}

/**
 * The visits rolling generation adds for a plan: its dates in the window that have no visit yet. `existing` holds
 * the occurrence dates of the plan's visits, whatever became of them (a moved, skipped or completed visit keeps its
 * occurrence date, so it is never generated again). The database's unique (plan, occurrence date) key makes the
 * insert itself idempotent when two servers generate at once; this only saves the round trip.
 */
export function datesToGenerate(plan: PlanSchedule, window: DateWindow, existing: Iterable<LocalDate>): LocalDate[] {
  const have = new Set(existing)
  return occurrences(plan, window.from, window.to).filter((date) => !have.has(date))
}
