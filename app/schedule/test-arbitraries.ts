// fast-check generators and independent oracles shared by the schedule's tests (imported by tests only).
import fc from 'fast-check'
import type { IsoWeekday, LocalDate } from './local-date'
import type { FrequencyWeeks, PlanSchedule } from './recurrence'

/** The zones: two with North American DST, one without DST, one southern-hemisphere, one European. */
export const ZONES = ['America/New_York', 'America/Phoenix', 'Australia/Sydney', 'Europe/London'] as const

// Whole days since 1970 through Date.UTC: shares nothing with the Temporal code under test.
const DAY_MS = 86_400_000
export function epochDay(date: LocalDate): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d) / DAY_MS
}
export function fromEpochDay(day: number): LocalDate {
  return new Date(day * DAY_MS).toISOString().slice(0, 10)
}
/** ISO weekday by the oracle: 1970-01-01 was a Thursday (ISO 4). */
export function oracleWeekday(date: LocalDate): number {
  return ((((epochDay(date) + 3) % 7) + 7) % 7) + 1
}

/** An instant's date, time and weekday on a zone's wall clock, as Intl reads it. */
export function wallClock(instant: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  )
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(String(parts.weekday)) + 1
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, weekday }
}

/** Any date from 2020 to 2030. */
export const localDate = fc
  .integer({ min: epochDay('2020-01-01'), max: epochDay('2030-12-31') })
  .map((day) => fromEpochDay(day))

export const wallTime = fc
  .record({ hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) })
  .map(({ hour, minute }) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`)

export const weekday = fc.integer({ min: 1, max: 7 }).map((day) => day as IsoWeekday)
export const frequency = fc.constantFrom<FrequencyWeeks>(1, 2, 3, 4)

/** A plan starting in 2020–2030, running for good or ending 0–3 years after it starts. */
export const plan: fc.Arbitrary<PlanSchedule> = fc
  .record({
    frequencyWeeks: frequency,
    weekday,
    startsOn: localDate,
    runsFor: fc.option(fc.integer({ min: 0, max: 3 * 365 }), { nil: null }),
  })
  .map(({ runsFor, ...rest }) => ({
    ...rest,
    endsOn: runsFor === null ? null : fromEpochDay(epochDay(rest.startsOn) + runsFor),
  }))
