// A technician's working day and week on the clock (docs/time.md, decision 056), as pure functions: the model reads
// the events and the visits' times, these turn them into minutes, overtime and pay. Every instant is counted to the
// whole minute it falls in, so a day's drive + on-site + breaks + idle is exactly its end − start, and each minute of
// the day is counted once: a break wins over a visit, on site over driving, driving over idle.
import type { TimeEventKind } from '~/db/schema/time'
import { divideHalfUp } from '~/utils/money'

/** One moment in force of a day (the latest correction of each event). */
export type ClockEvent = { kind: TimeEventKind; at: Date }

/** A stop's own times: "On my way", arrival (its first recorded work), completion on the phone. */
export type StopTimes = { onMyWayAt: Date | null; arrivedAt: Date | null; completedAt: Date | null }

export type Interval = { from: Date; to: Date | null }

export type DayTotals = {
  startAt: Date | null
  endAt: Date | null
  breaks: Interval[]
  /** Minutes of each kind between start and end (all 0 while the day has no start or no end). */
  breakMinutes: number
  driveMinutes: number
  onSiteMinutes: number
  idleMinutes: number
  /** end − start − breaks: the hours paid. */
  workedMinutes: number
  /** Started and not ended: no totals yet. */
  open: boolean
}

/** Overtime is every minute over 40 hours in a week (decision 056). */
export const WEEKLY_OVERTIME_AFTER_MINUTES = 40 * 60

const minuteOf = (at: Date) => Math.floor(at.getTime() / 60_000)

/** The day's breaks, paired in time order: a "Break" without "Back" lasts until the day's end (or is still on). */
export function breaksOf(events: ClockEvent[]): Interval[] {
  const sorted = [...events].sort((a, b) => a.at.getTime() - b.at.getTime())
  const breaks: Interval[] = []
  let open: Date | null = null
  for (const event of sorted) {
    if (event.kind === 'break-start' && !open) open = event.at
    else if (event.kind === 'break-end' && open) {
      breaks.push({ from: open, to: event.at })
      open = null
    }
  }
  if (open) breaks.push({ from: open, to: null })
  return breaks
}

/** Where a stop's drive and on-site spans are: on my way → arrival → completion (an unknown arrival: all on site). */
export function stopSpans(stop: StopTimes): { drive: Interval | null; onSite: Interval | null } {
  const { onMyWayAt, completedAt } = stop
  let arrivedAt = stop.arrivedAt ?? onMyWayAt
  if (arrivedAt && onMyWayAt && arrivedAt < onMyWayAt) arrivedAt = onMyWayAt
  if (arrivedAt && completedAt && arrivedAt > completedAt) arrivedAt = completedAt
  return {
    drive: onMyWayAt && arrivedAt && arrivedAt > onMyWayAt ? { from: onMyWayAt, to: arrivedAt } : null,
    onSite: arrivedAt && completedAt && completedAt > arrivedAt ? { from: arrivedAt, to: completedAt } : null,
  }
}

type Category = 'break' | 'onSite' | 'drive'
const PRIORITY: Category[] = ['break', 'onSite', 'drive']

/** A day's totals from its events in force and its stops' times. */
export function dayTotals(events: ClockEvent[], stops: StopTimes[]): DayTotals {
  const startAt = firstOf(events, 'start')
  const endAt = lastOf(events, 'end')
  const breaks = breaksOf(events)
  const empty = { breakMinutes: 0, driveMinutes: 0, onSiteMinutes: 0, idleMinutes: 0, workedMinutes: 0 }
  if (!startAt || !endAt || endAt < startAt) {
    return { startAt, endAt, breaks, ...empty, open: Boolean(startAt && !endAt) }
  }
  const start = minuteOf(startAt)
  const end = minuteOf(endAt)
  const spans: Array<{ category: Category; from: number; to: number }> = []
  const add = (category: Category, interval: Interval | null) => {
    if (!interval) return
    const from = Math.max(start, minuteOf(interval.from))
    const to = Math.min(end, interval.to ? minuteOf(interval.to) : end)
    if (to > from) spans.push({ category, from, to })
  }
  for (const pause of breaks) add('break', pause)
  for (const stop of stops) {
    const { drive, onSite } = stopSpans(stop)
    add('drive', drive)
    add('onSite', onSite)
  }
  // Each elementary piece between two boundaries goes to the first category (by priority) that covers it.
  const bounds = [...new Set([start, end, ...spans.flatMap((span) => [span.from, span.to])])].sort((a, b) => a - b)
  const totals: Record<Category, number> = { break: 0, onSite: 0, drive: 0 }
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] as number
    const to = bounds[i + 1] as number
    const category = PRIORITY.find((kind) =>
      spans.some((span) => span.category === kind && span.from <= from && span.to >= to),
    )
    if (category) totals[category] += to - from
  }
  const total = end - start
  return {
    startAt,
    endAt,
    breaks,
    breakMinutes: totals.break,
    driveMinutes: totals.drive,
    onSiteMinutes: totals.onSite,
    idleMinutes: total - totals.break - totals.drive - totals.onSite,
    workedMinutes: total - totals.break,
    open: false,
  }
}

function firstOf(events: ClockEvent[], kind: TimeEventKind) {
  const times = events.filter((event) => event.kind === kind).map((event) => event.at.getTime())
  return times.length ? new Date(Math.min(...times)) : null
}

function lastOf(events: ClockEvent[], kind: TimeEventKind) {
  const times = events.filter((event) => event.kind === kind).map((event) => event.at.getTime())
  return times.length ? new Date(Math.max(...times)) : null
}

export type WeekDayHours = { date: string; regularMinutes: number; overtimeMinutes: number }

/**
 * A week's worked minutes split into regular and overtime, day by day in date order: the first 40 hours are regular,
 * every minute after them overtime (so the day that crosses 40 hours carries both).
 */
export function splitOvertime(
  days: Array<{ date: string; workedMinutes: number }>,
  limit = WEEKLY_OVERTIME_AFTER_MINUTES,
): WeekDayHours[] {
  let used = 0
  return [...days]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map(({ date, workedMinutes }) => {
      const regularMinutes = Math.max(0, Math.min(workedMinutes, limit - used))
      used += workedMinutes
      return { date, regularMinutes, overtimeMinutes: workedMinutes - regularMinutes }
    })
}

export type PayTerms = {
  payType: 'hourly' | 'per-stop' | null
  hourlyRateCents: number | null
  perStopRateCents: number | null
  skippedVisitExtraCents: number | null
}

/**
 * A day's gross pay in cents, rounded half up once per day (the export's line): hourly pays regular minutes at the
 * rate and overtime minutes at one and a half times it; per stop pays each completed visit and, when set, each skipped
 * one. No pay type: 0 (the export says so).
 */
export function dayGrossCents(
  terms: PayTerms,
  day: { regularMinutes: number; overtimeMinutes: number; completed: number; skipped: number },
) {
  if (terms.payType === 'hourly') {
    const rate = terms.hourlyRateCents ?? 0
    return divideHalfUp(day.regularMinutes * rate * 2 + day.overtimeMinutes * rate * 3, 120)
  }
  if (terms.payType === 'per-stop') {
    return day.completed * (terms.perStopRateCents ?? 0) + day.skipped * (terms.skippedVisitExtraCents ?? 0)
  }
  return 0
}

/** Minutes as hours with two decimals, "7.50" (half up at the hundredth). */
export function hoursText(minutes: number) {
  const hundredths = divideHalfUp(minutes * 100, 60)
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`
}

/** Minutes as "7 h 30 min" for the screens. */
export function durationText(minutes: number) {
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}
