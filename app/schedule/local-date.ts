// Local dates ('YYYY-MM-DD') and wall times in a company's IANA timezone (decision 013). Visits are dated on the
// company's calendar, not the server's, so every conversion between an instant and a local date names the zone.
// Temporal (through `temporal-polyfill`, which defers to a native Temporal when the runtime has one) does the
// calendar arithmetic and the zone rules; this module keeps plain strings at its edges so callers and the database
// never hold Temporal objects.
import { Temporal } from 'temporal-polyfill'
import { zonedParts } from '~/utils/dates'

/** A calendar date without a zone, 'YYYY-MM-DD' (years 1000–9999, so string order is date order). */
export type LocalDate = string
/** A wall-clock time, 'HH:MM' (24-hour). */
export type WallTime = string
/** ISO weekday: 1 = Monday … 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7

const LOCAL_DATE = /^[1-9]\d{3}-\d{2}-\d{2}$/
const WALL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/

// Temporal.PlainDate.from also takes '20260309', '2026-03-09T10:00' and '+002026-03-09'; the app stores exactly
// 'YYYY-MM-DD', so the shape is checked first and `overflow: 'reject'` refuses 2026-02-30 instead of clamping it.
function plain(date: LocalDate): Temporal.PlainDate {
  if (!LOCAL_DATE.test(date)) throw new RangeError(`Not a local date: ${JSON.stringify(date)}`)
  return Temporal.PlainDate.from(date, { overflow: 'reject' })
}

/** Whether `value` is a real calendar date written 'YYYY-MM-DD'. */
export function isLocalDate(value: unknown): value is LocalDate {
  if (typeof value !== 'string' || !LOCAL_DATE.test(value)) return false
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' })
    return true
  } catch {
    return false
  }
}

/**
 * The years a date or month in an address (a route's path, a link's `?week=` or `?month=`, a report's period) may
 * name. A real calendar date far outside them (9999-12-31) is still no day anyone works, and the arithmetic a page
 * does around it (the next day, the week's Sunday) would leave the 'YYYY-MM-DD' form: the address is not found.
 */
export const ADDRESS_YEARS = { first: 2000, last: 2100 } as const

function inAddressYears(date: LocalDate) {
  const year = Number(date.slice(0, 4))
  return year >= ADDRESS_YEARS.first && year <= ADDRESS_YEARS.last
}

/**
 * The local date an address names, or null: not 'YYYY-MM-DD', not a real date (2026-02-30), or outside
 * `ADDRESS_YEARS`. Routes answer null with a 404 (`notFound()`).
 */
export function parseAddressDate(value: unknown): LocalDate | null {
  return isLocalDate(value) && inAddressYears(value) ? value : null
}

/** The first day of the month 'YYYY-MM' names, or null: not that form, a month 13, or outside `ADDRESS_YEARS`. */
export function parseAddressMonth(value: unknown): LocalDate | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}$/.test(value)) return null
  return parseAddressDate(`${value}-01`)
}

/** Whether `value` is a wall time written 'HH:MM'. */
export function isWallTime(value: unknown): value is WallTime {
  return typeof value === 'string' && WALL_TIME.test(value)
}

/** The company's date at `instant`: the calendar day its wall clock shows then. */
export function localDateAt(instant: Date, timeZone: string): LocalDate {
  const { year, month, day } = zonedParts(instant, timeZone)
  // The remembered offsets of utils/dates.ts (a page asks this for every visit it shows); Temporal for the years
  // 'YYYY-MM-DD' cannot write with four digits.
  if (year < 1000 || year > 9999)
    return Temporal.Instant.fromEpochMilliseconds(instant.getTime())
      .toZonedDateTimeISO(timeZone)
      .toPlainDate()
      .toString()
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/**
 * The instant at which the wall clock in `timeZone` reads `date` `time`.
 *
 * Daylight-saving changes make some wall times ambiguous; this follows RFC 5545 §3.3.5 and Temporal's
 * `'compatible'` rule, which is also what phone calendars do:
 * - a time the clocks skip (02:30 on the night they go forward) is read with the offset from before the jump, so it
 *   lands as far after the gap as it was into it (02:30 → 03:30 in America/New_York);
 * - a time the clocks repeat (01:30 on the night they go back) is the first of the two, still on summer time.
 * Service windows start in the morning, far from any change in the zones we serve; the rule matters for zones that
 * change at midnight (America/Santiago, Asia/Beirut), where 00:00 on the day the clocks go forward becomes 01:00.
 */
export function instantAt(date: LocalDate, time: WallTime, timeZone: string): Date {
  if (!isWallTime(time)) throw new RangeError(`Not a wall time: ${JSON.stringify(time)}`)
  const zoned = plain(date)
    .toPlainDateTime(Temporal.PlainTime.from(time))
    .toZonedDateTime(timeZone, { disambiguation: 'compatible' })
  return new Date(zoned.epochMilliseconds)
}

const DAY_MS = 86_400_000

/**
 * A local date's day number (days since 1970-01-01), through `Date`'s UTC calendar: the proleptic Gregorian calendar,
 * as Temporal's ISO calendar, and many times cheaper than a Temporal object for the day counting that schedules do
 * for every visit (docs/performance.md). A date that is not real (2026-02-30, which `Date.UTC` would roll over to
 * March 2) is refused as `plain` refuses it.
 */
function dayNumber(date: LocalDate): number {
  if (!LOCAL_DATE.test(date)) throw new RangeError(`Not a local date: ${JSON.stringify(date)}`)
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7))
  const day = Number(date.slice(8, 10))
  const at = new Date(Date.UTC(year, month - 1, day))
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) {
    throw new RangeError(`Not a local date: ${JSON.stringify(date)}`)
  }
  return at.getTime() / DAY_MS
}

/** The local date of a day number; Temporal writes the years 'YYYY-MM-DD' cannot (past 9999). */
function dateOfDayNumber(days: number): LocalDate {
  const iso = new Date(days * DAY_MS).toISOString()
  // 'YYYY-MM-DDTHH:MM:SS.sssZ' for years 0000–9999, '+YYYYYY-…' beyond.
  if (iso.length === 24) return iso.slice(0, 10)
  return Temporal.PlainDate.from('1970-01-01').add({ days }).toString()
}

/** The ISO weekday of a local date (1 = Monday … 7 = Sunday). */
export function isoWeekday(date: LocalDate): IsoWeekday {
  // 1970-01-01 was a Thursday (4).
  return (((((dayNumber(date) + 3) % 7) + 7) % 7) + 1) as IsoWeekday
}

/** `date` moved by `days` calendar days (negative to go back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  if (!Number.isInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`)
  return dateOfDayNumber(dayNumber(date) + days)
}

/** `date` moved by `weeks` weeks (negative to go back). */
export function addWeeks(date: LocalDate, weeks: number): LocalDate {
  return addDays(date, weeks * 7)
}

/** Calendar days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return dayNumber(to) - dayNumber(from)
}

/** The earlier of two local dates. */
export function minDate(a: LocalDate, b: LocalDate): LocalDate {
  return a <= b ? a : b
}

/** The later of two local dates. */
export function maxDate(a: LocalDate, b: LocalDate): LocalDate {
  return a >= b ? a : b
}

export type IsoWeek = {
  /** The ISO week-numbering year, which differs from the calendar year around New Year (2027-01-01 is in 2026-W53). */
  year: number
  week: number
  /** Monday. */
  start: LocalDate
  /** Sunday. */
  end: LocalDate
}

/**
 * The ISO week (Monday to Sunday, docs/product.md "Easy to get wrong" "This week starts on Monday") that contains
 * `date`.
 */
export function isoWeekOf(date: LocalDate): IsoWeek {
  const day = plain(date)
  const start = day.subtract({ days: day.dayOfWeek - 1 })
  return {
    year: day.yearOfWeek as number,
    week: day.weekOfYear as number,
    start: start.toString(),
    end: start.add({ days: 6 }).toString(),
  }
}
