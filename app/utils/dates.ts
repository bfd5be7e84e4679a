// Calendar maths in a company's timezone (docs/product.md "Roles": "today", "this week" and "this month" are the
// company's, not the server's; "this week" starts on Monday 00:00, docs/product.md "Easy to get wrong").

export const DEFAULT_TIMEZONE = 'America/New_York'

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number }

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const formatters = new Map<string, Intl.DateTimeFormat>()

/** The fields a zone's wall clock is read with (`formatToParts`), 24-hour. */
export const WALL_CLOCK_FIELDS = {
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  weekday: 'short',
} as const satisfies Intl.DateTimeFormatOptions

function formatter(timeZone: string) {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, ...WALL_CLOCK_FIELDS })
    formatters.set(timeZone, f)
  }
  return f
}

/** The wall-clock fields of `date` as seen in `timeZone`. */
export function zonedParts(date: Date, timeZone: string): Parts {
  const ms = date.getTime()
  if (!(ms >= REMEMBERED_FROM && ms < REMEMBERED_UNTIL)) return partsFromIntl(date, timeZone)
  const wall = new Date(ms + offsetAt(ms, timeZone))
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
  }
}

function partsFromIntl(date: Date, timeZone: string): Parts {
  const out: Record<string, string> = {}
  for (const part of formatter(timeZone).formatToParts(date)) out[part.type] = part.value
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    hour: Number(out.hour),
    minute: Number(out.minute),
    second: Number(out.second),
    weekday: WEEKDAYS.indexOf(out.weekday ?? 'Sun'),
  }
}

/**
 * Reading a zone's clock through Intl (`formatToParts`) is slow, and a page reads it for every visit it shows (the week
 * board: a third of its server time in a profile, docs/performance.md). What it yields is the zone's offset from UTC,
 * and in the time zone database every change of offset since 1970 falls on a quarter hour of UTC (clocks change on a
 * local whole or half hour, offsets are whole quarter hours): an offset read once holds for its whole quarter hour.
 * So it is remembered per zone and quarter hour, for instants from 1970 to 2200 (outside, Intl is asked each time).
 * `dates.test.ts` holds the result equal to Intl's, instant by instant, across the zones.
 */
const QUARTER_HOUR_MS = 15 * 60_000
const REMEMBERED_FROM = Date.UTC(1970, 0, 1)
const REMEMBERED_UNTIL = Date.UTC(2200, 0, 1)
const OFFSETS_KEPT = 4_096
const offsets = new Map<string, Map<number, number>>()

/** What to add to instant `ms` to read `timeZone`'s wall clock with the UTC getters. */
function offsetAt(ms: number, timeZone: string): number {
  let zone = offsets.get(timeZone)
  if (!zone) {
    zone = new Map()
    offsets.set(timeZone, zone)
  }
  const quarter = Math.floor(ms / QUARTER_HOUR_MS)
  let offset = zone.get(quarter)
  if (offset === undefined) {
    const p = partsFromIntl(new Date(ms), timeZone)
    offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - (ms - (ms % 1000))
    if (zone.size >= OFFSETS_KEPT) zone.clear()
    zone.set(quarter, offset)
  }
  return offset
}

/** The instant at which the wall clock in `timeZone` reads the given date and time. */
export function zonedTimeToUtc(
  {
    year,
    month,
    day,
    hour = 0,
    minute = 0,
  }: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): Date {
  const guess = Date.UTC(year, month - 1, day, hour, minute)
  // Two passes settle the offset even next to a daylight-saving change.
  let instant = guess
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(new Date(instant), timeZone)
    const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute)
    instant += guess - seen
  }
  // A wall time skipped by a daylight-saving jump (e.g. midnight in America/Santiago on the
  // day DST starts) settles just before the gap, on the previous day: move past the gap.
  const p = zonedParts(new Date(instant), timeZone)
  const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute)
  if (seen < guess) instant += guess - seen
  return new Date(instant)
}

/** Midnight at the start of the day that contains `date` in `timeZone`, shifted by `days`. */
export function startOfZonedDay(date: Date, timeZone: string, days = 0): Date {
  const p = zonedParts(date, timeZone)
  return zonedTimeToUtc({ year: p.year, month: p.month, day: p.day + days }, timeZone)
}

/** Who asks and when, as a company's day is counted: its timezone, and the moment (tests move it). */
export type CompanyClock = { companyId: string; timezone: string; now?: Date }
/** The same for one technician's day. */
export type TechnicianClock = CompanyClock & { technicianId: string }

/** Today's bounds [start, end) in `timeZone`. */
export function zonedDayRange(now: Date, timeZone: string) {
  return { start: startOfZonedDay(now, timeZone), end: startOfZonedDay(now, timeZone, 1) }
}

/** This week's start: the most recent Monday 00:00 in `timeZone`. */
export function startOfZonedWeek(now: Date, timeZone: string): Date {
  return startOfZonedDay(now, timeZone, -((zonedParts(now, timeZone).weekday + 6) % 7))
}

/** The first day of this month, 00:00 in `timeZone`. */
export function startOfZonedMonth(now: Date, timeZone: string): Date {
  const p = zonedParts(now, timeZone)
  return zonedTimeToUtc({ year: p.year, month: p.month, day: 1 }, timeZone)
}

const DISPLAY_FORMATS = {
  dateTime: { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  time: { hour: 'numeric', minute: '2-digit' },
  date: { month: 'short', day: 'numeric', year: 'numeric' },
  fullDate: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>

// Building an Intl.DateTimeFormat costs far more than formatting with one, and a dashboard formats
// hundreds of dates: keep one per (format, zone).
const displayFormatters = new Map<string, Intl.DateTimeFormat>()

function display(format: keyof typeof DISPLAY_FORMATS, date: Date | string, timeZone: string) {
  const key = `${format} ${timeZone}`
  let f = displayFormatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, ...DISPLAY_FORMATS[format] })
    displayFormatters.set(key, f)
  }
  return f.format(new Date(date))
}

/** "Tue, Nov 24, 9:30 AM" in the company's timezone. */
export function formatDateTime(date: Date | string, timeZone: string) {
  return display('dateTime', date, timeZone)
}

/** "9:30 AM" in the company's timezone. */
export function formatTime(date: Date | string, timeZone: string) {
  return display('time', date, timeZone)
}

/** "Nov 24, 2026" in the company's timezone. */
export function formatDate(date: Date | string, timeZone: string) {
  return display('date', date, timeZone)
}

/** A local date ("2026-12-10", already in the company's calendar) as "Dec 10, 2026". */
export function formatLocalDate(date: string) {
  return display('date', `${date}T12:00:00Z`, 'UTC')
}

/** "Wednesday, November 25, 2026" in the company's timezone. */
export function formatFullDate(date: Date | string, timeZone: string) {
  return display('fullDate', date, timeZone)
}

/** The `<input type="datetime-local">` value ("2026-11-22T14:30") of `date` on the company's wall clock. */
export function toZonedInputValue(date: Date | string, timeZone: string) {
  const p = zonedParts(new Date(date), timeZone)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`
}

/** The instant a `datetime-local` value means on the company's wall clock, or null when it is not one. */
export function fromZonedInputValue(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value.trim())
  if (!match) return null
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null
  return zonedTimeToUtc({ year, month, day, hour, minute }, timeZone)
}

/** IANA zones this server knows; the stored zone stays selectable even if the runtime dropped it. */
export function timezoneList(current?: string) {
  const zones = Intl.supportedValuesOf('timeZone')
  return current && !zones.includes(current) ? [current, ...zones] : zones
}
