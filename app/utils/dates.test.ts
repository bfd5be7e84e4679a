import fc from 'fast-check'
import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { localDateAt } from '~/schedule/local-date'
import {
  DEFAULT_TIMEZONE,
  startOfZonedDay,
  startOfZonedMonth,
  startOfZonedWeek,
  WALL_CLOCK_FIELDS,
  zonedDayRange,
  zonedParts,
  zonedTimeToUtc,
} from './dates'

const NY = 'America/New_York'
const PHOENIX = 'America/Phoenix'
const HOUR = 3_600_000

const at = (iso: string) => new Date(iso)

describe('the default company timezone', () => {
  it('is America/New_York', () => {
    expect(DEFAULT_TIMEZONE).toBe(NY)
  })
})

describe('when UTC and New York disagree about the day', () => {
  // 03:00 UTC on Sunday Nov 22 is 22:00 on Saturday Nov 21 in New York.
  const now = at('2026-11-22T03:00:00Z')

  it('"today" is Saturday Nov 21 in New York, not Sunday Nov 22', () => {
    expect(zonedParts(now, NY)).toMatchObject({ year: 2026, month: 11, day: 21, hour: 22, weekday: 6 })
    expect(startOfZonedDay(now, NY)).toEqual(at('2026-11-21T05:00:00Z'))
    expect(zonedDayRange(now, NY)).toEqual({ start: at('2026-11-21T05:00:00Z'), end: at('2026-11-22T05:00:00Z') })
  })

  it('a visit at 23:30 New York time on Nov 21 is today; one at 00:30 on Nov 22 is not', () => {
    const { start, end } = zonedDayRange(now, NY)
    const lateTonight = zonedTimeToUtc({ year: 2026, month: 11, day: 21, hour: 23, minute: 30 }, NY)
    const afterMidnight = zonedTimeToUtc({ year: 2026, month: 11, day: 22, hour: 0, minute: 30 }, NY)
    expect(lateTonight >= start && lateTonight < end).toBe(true)
    expect(afterMidnight >= start && afterMidnight < end).toBe(false)
    expect(now >= start && now < end).toBe(true)
  })

  it('"this week" began Monday Nov 16, not Monday Nov 23 as UTC would say on Sunday evening', () => {
    // 03:00 UTC on Monday Nov 23 is 22:00 on Sunday Nov 22 in New York.
    expect(startOfZonedWeek(at('2026-11-23T03:00:00Z'), NY)).toEqual(at('2026-11-16T05:00:00Z'))
    expect(startOfZonedWeek(now, NY)).toEqual(at('2026-11-16T05:00:00Z'))
  })

  it('"this month" is still November on the evening of Nov 30', () => {
    // 03:00 UTC Dec 1 is 22:00 Nov 30 in New York; Nov 1 00:00 was still daylight time (EDT).
    expect(startOfZonedMonth(at('2026-12-01T03:00:00Z'), NY)).toEqual(at('2026-11-01T04:00:00Z'))
    expect(startOfZonedMonth(at('2026-12-01T05:00:00Z'), NY)).toEqual(at('2026-12-01T05:00:00Z'))
  })

  it('the new year starts at New York midnight', () => {
    expect(startOfZonedMonth(at('2027-01-01T04:59:59Z'), NY)).toEqual(at('2026-12-01T05:00:00Z'))
    expect(startOfZonedMonth(at('2027-01-01T05:00:00Z'), NY)).toEqual(at('2027-01-01T05:00:00Z'))
  })
})

describe('weeks start on Monday 00:00 (docs/product.md "Easy to get wrong")', () => {
  it('a Monday is the start of its own week', () => {
    expect(startOfZonedWeek(at('2026-11-16T05:00:00Z'), NY)).toEqual(at('2026-11-16T05:00:00Z'))
    expect(startOfZonedWeek(at('2026-11-16T20:00:00Z'), NY)).toEqual(at('2026-11-16T05:00:00Z'))
  })

  it('a Sunday is the last day of its week', () => {
    expect(startOfZonedWeek(at('2026-11-22T20:00:00Z'), NY)).toEqual(at('2026-11-16T05:00:00Z'))
  })

  it('one minute before Monday midnight still belongs to the previous week', () => {
    expect(startOfZonedWeek(at('2026-11-16T04:59:00Z'), NY)).toEqual(at('2026-11-09T05:00:00Z'))
  })
})

describe('across daylight-saving changes in New York', () => {
  it('the week of Sunday Nov 1 2026 (clocks go back at 02:00) starts Monday Oct 26 00:00 EDT and lasts 7 days + 1 hour', () => {
    const start = at('2026-10-26T04:00:00Z')
    // Wednesday, and late Sunday evening (already standard time).
    expect(startOfZonedWeek(at('2026-10-28T12:00:00Z'), NY)).toEqual(start)
    expect(startOfZonedWeek(at('2026-11-02T04:30:00Z'), NY)).toEqual(start)
    const next = startOfZonedWeek(at('2026-11-02T05:00:00Z'), NY)
    expect(next).toEqual(at('2026-11-02T05:00:00Z'))
    expect(next.getTime() - start.getTime()).toBe(7 * 24 * HOUR + HOUR)
  })

  it('the week before ends at Monday Oct 26 00:00 EDT', () => {
    expect(startOfZonedWeek(at('2026-10-26T03:59:00Z'), NY)).toEqual(at('2026-10-19T04:00:00Z'))
  })

  it('Nov 1 2026 is a 25-hour day', () => {
    const { start, end } = zonedDayRange(at('2026-11-01T15:00:00Z'), NY)
    expect(start).toEqual(at('2026-11-01T04:00:00Z'))
    expect(end).toEqual(at('2026-11-02T05:00:00Z'))
    expect(end.getTime() - start.getTime()).toBe(25 * HOUR)
  })

  it('the week of Sunday Mar 8 2026 (clocks go forward at 02:00) starts Monday Mar 2 00:00 EST', () => {
    expect(startOfZonedWeek(at('2026-03-04T12:00:00Z'), NY)).toEqual(at('2026-03-02T05:00:00Z'))
    // Sunday 23:30 EDT is still that week.
    expect(startOfZonedWeek(at('2026-03-09T03:30:00Z'), NY)).toEqual(at('2026-03-02T05:00:00Z'))
    expect(startOfZonedWeek(at('2026-03-09T04:00:00Z'), NY)).toEqual(at('2026-03-09T04:00:00Z'))
  })

  it('the week of Sunday Mar 14 2027 (mid-March change) lasts 7 days - 1 hour', () => {
    const start = startOfZonedWeek(at('2027-03-10T16:00:00Z'), NY)
    expect(start).toEqual(at('2027-03-08T05:00:00Z'))
    const next = startOfZonedWeek(at('2027-03-17T12:00:00Z'), NY)
    expect(next).toEqual(at('2027-03-15T04:00:00Z'))
    expect(next.getTime() - start.getTime()).toBe(7 * 24 * HOUR - HOUR)
  })

  it('Mar 8 2026 is a 23-hour day', () => {
    const { start, end } = zonedDayRange(at('2026-03-08T15:00:00Z'), NY)
    expect(start).toEqual(at('2026-03-08T05:00:00Z'))
    expect(end).toEqual(at('2026-03-09T04:00:00Z'))
    expect(end.getTime() - start.getTime()).toBe(23 * HOUR)
  })

  it('startOfZonedDay steps whole calendar days across the change, not 24-hour blocks', () => {
    const saturday = at('2026-10-31T16:00:00Z')
    expect(startOfZonedDay(saturday, NY, 1)).toEqual(at('2026-11-01T04:00:00Z'))
    expect(startOfZonedDay(saturday, NY, 2)).toEqual(at('2026-11-02T05:00:00Z'))
    expect(startOfZonedDay(at('2026-11-02T16:00:00Z'), NY, -2)).toEqual(at('2026-10-31T04:00:00Z'))
  })

  it('startOfZonedDay rolls over month and year ends', () => {
    expect(startOfZonedDay(at('2026-12-31T16:00:00Z'), NY, 1)).toEqual(at('2027-01-01T05:00:00Z'))
    expect(startOfZonedDay(at('2026-03-01T16:00:00Z'), NY, -1)).toEqual(at('2026-02-28T05:00:00Z'))
    expect(startOfZonedDay(at('2026-11-21T16:00:00Z'), NY, -60)).toEqual(at('2026-09-22T04:00:00Z'))
  })
})

describe('America/Phoenix (no daylight saving)', () => {
  it('is UTC-7 in summer and winter', () => {
    expect(startOfZonedDay(at('2026-07-01T05:00:00Z'), PHOENIX)).toEqual(at('2026-06-30T07:00:00Z'))
    expect(startOfZonedDay(at('2026-01-15T05:00:00Z'), PHOENIX)).toEqual(at('2026-01-14T07:00:00Z'))
    expect(zonedTimeToUtc({ year: 2026, month: 7, day: 4, hour: 9, minute: 30 }, PHOENIX)).toEqual(
      at('2026-07-04T16:30:00Z'),
    )
    expect(zonedTimeToUtc({ year: 2026, month: 1, day: 4, hour: 9, minute: 30 }, PHOENIX)).toEqual(
      at('2026-01-04T16:30:00Z'),
    )
  })

  it('has 24-hour days and 7 × 24-hour weeks on the dates New York changes its clocks', () => {
    for (const day of ['2026-03-08T15:00:00Z', '2026-11-01T15:00:00Z']) {
      const { start, end } = zonedDayRange(at(day), PHOENIX)
      expect(end.getTime() - start.getTime()).toBe(24 * HOUR)
    }
    const week = startOfZonedWeek(at('2026-10-28T12:00:00Z'), PHOENIX)
    expect(week).toEqual(at('2026-10-26T07:00:00Z'))
    expect(startOfZonedWeek(at('2026-11-02T07:00:00Z'), PHOENIX).getTime() - week.getTime()).toBe(7 * 24 * HOUR)
    expect(startOfZonedWeek(at('2026-03-04T12:00:00Z'), PHOENIX)).toEqual(at('2026-03-02T07:00:00Z'))
  })

  it('the same instant can be "today" in Phoenix and "tomorrow" in New York', () => {
    const now = at('2026-11-22T05:30:00Z') // 00:30 Nov 22 in New York, 22:30 Nov 21 in Phoenix
    expect(startOfZonedDay(now, NY)).toEqual(at('2026-11-22T05:00:00Z'))
    expect(startOfZonedDay(now, PHOENIX)).toEqual(at('2026-11-21T07:00:00Z'))
    expect(startOfZonedMonth(at('2026-12-01T06:00:00Z'), PHOENIX)).toEqual(at('2026-11-01T07:00:00Z'))
    expect(startOfZonedMonth(at('2026-12-01T06:00:00Z'), NY)).toEqual(at('2026-12-01T05:00:00Z'))
  })
})

describe('zonedTimeToUtc', () => {
  it('reads a wall-clock time in the company timezone', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 7, day: 4, hour: 9, minute: 30 }, NY)).toEqual(
      at('2026-07-04T13:30:00Z'),
    )
    expect(zonedTimeToUtc({ year: 2026, month: 1, day: 15, hour: 9, minute: 30 }, NY)).toEqual(
      at('2026-01-15T14:30:00Z'),
    )
    expect(zonedTimeToUtc({ year: 2026, month: 1, day: 15 }, NY)).toEqual(at('2026-01-15T05:00:00Z'))
    expect(zonedTimeToUtc({ year: 2026, month: 1, day: 1 }, 'Asia/Tokyo')).toEqual(at('2025-12-31T15:00:00Z'))
    expect(zonedTimeToUtc({ year: 2026, month: 6, day: 1, hour: 12 }, 'Asia/Kolkata')).toEqual(
      at('2026-06-01T06:30:00Z'),
    )
  })

  it('is the inverse of zonedParts next to both New York changes', () => {
    for (const wall of [
      { year: 2026, month: 3, day: 8, hour: 1, minute: 59 },
      { year: 2026, month: 3, day: 8, hour: 3, minute: 0 },
      { year: 2026, month: 11, day: 1, hour: 0, minute: 59 },
      { year: 2026, month: 11, day: 1, hour: 2, minute: 0 },
      { year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, // happens twice: either is that wall time
    ]) {
      expect(zonedParts(zonedTimeToUtc(wall, NY), NY)).toMatchObject(wall)
    }
  })

  it('moves a time skipped by spring-forward past the gap (02:30 → 03:30 EDT)', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, NY)).toEqual(
      at('2026-03-08T07:30:00Z'),
    )
  })

  it('accepts day numbers past the end of the month (day 32 of December is Jan 1)', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 12, day: 32 }, NY)).toEqual(at('2027-01-01T05:00:00Z'))
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 0 }, NY)).toEqual(at('2026-02-28T05:00:00Z'))
  })
})

describe('a day whose midnight does not exist', () => {
  // Chile moves its clocks from 00:00 to 01:00 on Sunday Sep 6 2026.
  it('starts at the first instant of that day, never in the day before', () => {
    const start = startOfZonedDay(at('2026-09-06T15:00:00Z'), 'America/Santiago')
    expect(start).toEqual(at('2026-09-06T04:00:00Z'))
    expect(zonedParts(start, 'America/Santiago')).toMatchObject({ day: 6, hour: 1, minute: 0 })
    expect(zonedParts(new Date(start.getTime() - 1), 'America/Santiago')).toMatchObject({ day: 5, hour: 23 })
  })
})

describe('for every hour of 2026 in several timezones', () => {
  it('today, this week and this month contain now and start at the first instant of their day', () => {
    const zones = [NY, PHOENIX, 'America/Los_Angeles', 'Europe/London', 'Australia/Sydney', 'America/Santiago']
    const isFirstInstantOfDay = (instant: Date, zone: string) =>
      zonedParts(new Date(instant.getTime() - 1000), zone).day !== zonedParts(instant, zone).day
    const failures: string[] = []
    for (const zone of zones) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 11 * HOUR) {
        const now = new Date(t)
        const p = zonedParts(now, zone)
        const { start, end } = zonedDayRange(now, zone)
        const week = startOfZonedWeek(now, zone)
        const month = startOfZonedMonth(now, zone)
        const weekParts = zonedParts(week, zone)
        const monthParts = zonedParts(month, zone)
        const ok =
          start <= now &&
          now < end &&
          isFirstInstantOfDay(start, zone) &&
          isFirstInstantOfDay(end, zone) &&
          zonedParts(start, zone).day === p.day &&
          week <= now &&
          isFirstInstantOfDay(week, zone) &&
          weekParts.weekday === 1 &&
          now.getTime() - week.getTime() < 7 * 24 * HOUR + HOUR &&
          month <= now &&
          isFirstInstantOfDay(month, zone) &&
          monthParts.year === p.year &&
          monthParts.month === p.month &&
          monthParts.day === 1
        if (!ok) failures.push(`${zone} ${now.toISOString()}`)
      }
    }
    expect(failures).toEqual([])
  })
})

describe('the wall clock of a zone, remembered per quarter hour, is what Intl reads (property)', () => {
  /** Intl asked afresh, with no help from what zonedParts remembers. */
  const formats = new Map<string, Intl.DateTimeFormat>()
  function intlParts(date: Date, timeZone: string) {
    const out: Record<string, string> = {}
    const format = formats.get(timeZone) ?? new Intl.DateTimeFormat('en-US', { timeZone, ...WALL_CLOCK_FIELDS })
    formats.set(timeZone, format)
    for (const part of format.formatToParts(date)) out[part.type] = part.value
    const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(out.weekday ?? '')
    return [out.year, out.month, out.day, out.hour, out.minute, out.second].map(Number).concat(weekday)
  }
  const asList = (p: ReturnType<typeof zonedParts>) => [p.year, p.month, p.day, p.hour, p.minute, p.second, p.weekday]
  // Every zone the runtime knows, and those with half- and quarter-hour offsets and odd changes named again so they
  // come up often: Lord Howe (30-minute daylight saving), Chatham (+12:45/+13:45), Kathmandu (+5:45), Caracas (−4:30
  // from 2007 to 2016), Pyongyang (+8:30 from 2015 to 2018), Apia (skipped 30 December 2011), Santiago (midnight jumps).
  const ZONES = [
    ...Intl.supportedValuesOf('timeZone'),
    ...Array(40).fill([
      'America/New_York',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'Asia/Kathmandu',
      'America/Caracas',
      'Asia/Pyongyang',
      'Pacific/Apia',
      'America/Santiago',
      'America/St_Johns',
      'Europe/London',
    ]),
  ].flat()
  const zone = fc.constantFrom(...ZONES)
  const instant = fc.integer({ min: Date.UTC(1965, 0, 1), max: Date.UTC(2210, 0, 1) })

  it('for any instant in any zone, and for its neighbors read after it (the remembered quarter hours)', () => {
    fc.assert(
      fc.property(
        zone,
        instant,
        fc.array(fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }), { maxLength: 12 }),
        (tz, at, steps) => {
          for (const ms of [at, ...steps.map((step) => at + step)]) {
            expect(asList(zonedParts(new Date(ms), tz)), `${new Date(ms).toISOString()} in ${tz}`).toEqual(
              intlParts(new Date(ms), tz),
            )
          }
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it('minute by minute through the days the clocks change in 2026 and 2027, in zones with odd changes', () => {
    const DAY = 24 * HOUR
    for (const tz of ['America/New_York', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns']) {
      const offset = (ms: number) => {
        const [y, mo, d, h, mi, sec] = intlParts(new Date(ms), tz) as [number, number, number, number, number, number]
        return Date.UTC(y, mo - 1, d, h, mi, sec) - ms
      }
      let changes = 0
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2028, 0, 1); day += DAY) {
        if (offset(day) === offset(day + DAY)) continue
        changes++
        for (let ms = day - 6 * HOUR; ms < day + DAY + 6 * HOUR; ms += 2 * 60_000 + 1_000) {
          const date = new Date(ms)
          expect(asList(zonedParts(date, tz)), `${date.toISOString()} in ${tz}`).toEqual(intlParts(date, tz))
        }
      }
      expect(changes, tz).toBe(4)
    }
  })

  it('past the quarter hours it keeps (a bounded map), still what Intl reads', () => {
    for (let i = 0; i < 10_000; i++) {
      const date = new Date(Date.UTC(2026, 0, 1) + i * (15 * 60_000) + 7_000)
      expect(asList(zonedParts(date, 'America/Chicago'))).toEqual(intlParts(date, 'America/Chicago'))
    }
  })

  it('the local date of an instant is Temporal’s', () => {
    fc.assert(
      fc.property(zone, instant, (tz, at) => {
        const temporal = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(tz).toPlainDate().toString()
        expect(localDateAt(new Date(at), tz)).toBe(temporal)
      }),
      { numRuns: 2_000 },
    )
  })
})
