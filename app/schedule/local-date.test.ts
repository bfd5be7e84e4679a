import fc from 'fast-check'
import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import {
  addDays,
  addWeeks,
  daysBetween,
  instantAt,
  isLocalDate,
  isoWeekday,
  isoWeekOf,
  isWallTime,
  localDateAt,
  parseAddressDate,
  parseAddressMonth,
} from './local-date'
import { epochDay, fromEpochDay, localDate, oracleWeekday, wallClock, wallTime, ZONES } from './test-arbitraries'

describe('local dates', () => {
  it('accept only real dates written YYYY-MM-DD, and HH:MM times', () => {
    for (const good of ['2026-03-09', '2028-02-29', '1999-12-31']) expect(isLocalDate(good)).toBe(true)
    for (const bad of [
      '2026-02-30',
      '2027-02-29',
      '2026-13-01',
      '2026-3-9',
      '20260309',
      '2026-03-09T10:00',
      '',
      20260309,
    ]) {
      expect(isLocalDate(bad)).toBe(false)
    }
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError)
    expect(isWallTime('08:00')).toBe(true)
    expect(isWallTime('23:59')).toBe(true)
    for (const bad of ['8:00', '24:00', '12:60', '12:00:00']) expect(isWallTime(bad)).toBe(false)
  })

  it('count days, weeks and ISO weekdays as the calendar does, across month, leap-year and DST boundaries', () => {
    expect(isoWeekday('2026-03-09')).toBe(1)
    expect(isoWeekday('2026-03-08')).toBe(7)
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
    expect(addDays('2026-03-07', 2)).toBe('2026-03-09')
    expect(addWeeks('2026-10-26', 1)).toBe('2026-11-02')
    expect(daysBetween('2026-12-25', '2027-01-08')).toBe(14)
    fc.assert(
      fc.property(localDate, fc.integer({ min: -800, max: 800 }), (date, days) => {
        expect(addDays(date, days)).toBe(fromEpochDay(epochDay(date) + days))
        expect(addWeeks(date, days)).toBe(fromEpochDay(epochDay(date) + 7 * days))
        expect(daysBetween(date, addDays(date, days))).toBe(days)
        expect(isoWeekday(date)).toBe(oracleWeekday(date))
      }),
    )
  })

  it("give Temporal's answers for any date of years 1000–9999 and any count of days, and refuse what it refuses", () => {
    // Day counting goes through Date's UTC calendar (docs/performance.md); Temporal's ISO calendar is the reference.
    const anyDate = fc
      .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
      .map((at) => at.toISOString().slice(0, 10))
    fc.assert(
      fc.property(anyDate, anyDate, fc.integer({ min: -400_000, max: 400_000 }), (date, other, days) => {
        const plain = Temporal.PlainDate.from(date)
        expect(addDays(date, days)).toBe(plain.add({ days }).toString())
        expect(addWeeks(date, Math.trunc(days / 7))).toBe(plain.add({ weeks: Math.trunc(days / 7) }).toString())
        expect(daysBetween(date, other)).toBe(plain.until(Temporal.PlainDate.from(other), { largestUnit: 'days' }).days)
        expect(isoWeekday(date)).toBe(plain.dayOfWeek)
      }),
      { numRuns: 2_000 },
    )
    expect(addDays('9999-12-31', 1)).toBe('+010000-01-01')
    expect(addDays('1000-01-01', -1)).toBe('0999-12-31')
    for (const notReal of ['2026-02-29', '2026-04-31', '2026-00-10', '2026-13-01', '0999-12-31', '2026-1-01']) {
      expect(() => addDays(notReal, 1)).toThrow(RangeError)
      expect(() => isoWeekday(notReal)).toThrow(RangeError)
      expect(() => daysBetween('2026-01-01', notReal)).toThrow(RangeError)
    }
    expect(() => addDays('2026-03-09', 1.5)).toThrow(RangeError)
  })

  it('find the ISO week, Monday to Sunday, including the weeks that straddle New Year', () => {
    expect(isoWeekOf('2026-03-11')).toEqual({ year: 2026, week: 11, start: '2026-03-09', end: '2026-03-15' })
    expect(isoWeekOf('2026-03-15')).toEqual({ year: 2026, week: 11, start: '2026-03-09', end: '2026-03-15' })
    expect(isoWeekOf('2027-01-01')).toEqual({ year: 2026, week: 53, start: '2026-12-28', end: '2027-01-03' })
    expect(isoWeekOf('2024-12-30')).toEqual({ year: 2025, week: 1, start: '2024-12-30', end: '2025-01-05' })
    fc.assert(
      fc.property(localDate, (date) => {
        const week = isoWeekOf(date)
        expect(isoWeekday(week.start)).toBe(1)
        expect(daysBetween(week.start, date)).toBe(isoWeekday(date) - 1)
        expect(daysBetween(week.start, week.end)).toBe(6)
        // ISO 8601: week 1 is the week with the year's first Thursday.
        const thursday = addDays(week.start, 3)
        expect(Number(thursday.slice(0, 4))).toBe(week.year)
        expect(week.week).toBe(Math.floor((epochDay(thursday) - epochDay(`${week.year}-01-01`)) / 7) + 1)
      }),
    )
  })
})

describe('dates and instants in a company’s timezone', () => {
  it('give the company’s date, not the server’s, on either side of its midnight', () => {
    // 13:30 UTC on 8 March 2026 is already 9 March in Sydney, still 8 March in New York.
    const instant = new Date('2026-03-08T13:30:00Z')
    expect(localDateAt(instant, 'Australia/Sydney')).toBe('2026-03-09')
    expect(localDateAt(instant, 'America/New_York')).toBe('2026-03-08')
    expect(localDateAt(new Date('2026-06-30T23:59:59.999Z'), 'Europe/London')).toBe('2026-07-01')
    expect(localDateAt(new Date('2026-06-30T23:59:59.999Z'), 'America/Phoenix')).toBe('2026-06-30')
  })

  it('convert a date and wall time to the instant, with the offset of that day (DST or not)', () => {
    expect(instantAt('2026-03-07', '08:00', 'America/New_York').toISOString()).toBe('2026-03-07T13:00:00.000Z')
    expect(instantAt('2026-03-08', '08:00', 'America/New_York').toISOString()).toBe('2026-03-08T12:00:00.000Z')
    expect(instantAt('2026-03-08', '08:00', 'America/Phoenix').toISOString()).toBe('2026-03-08T15:00:00.000Z')
    expect(instantAt('2026-04-05', '08:00', 'Australia/Sydney').toISOString()).toBe('2026-04-04T22:00:00.000Z')
    expect(instantAt('2026-04-04', '08:00', 'Australia/Sydney').toISOString()).toBe('2026-04-03T21:00:00.000Z')
    expect(instantAt('2026-03-29', '08:00', 'Europe/London').toISOString()).toBe('2026-03-29T07:00:00.000Z')
    expect(instantAt('2026-03-28', '08:00', 'Europe/London').toISOString()).toBe('2026-03-28T08:00:00.000Z')
  })

  it('read a skipped wall time with the offset from before the jump, and a repeated one as the first', () => {
    // New York springs forward at 02:00 on 8 March 2026: 02:30 does not exist and becomes 03:30 EDT.
    expect(instantAt('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z')
    // London springs forward at 01:00 on 29 March 2026.
    expect(instantAt('2026-03-29', '01:15', 'Europe/London').toISOString()).toBe('2026-03-29T01:15:00.000Z')
    // Sydney springs forward at 02:00 on 4 October 2026.
    expect(instantAt('2026-10-04', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-10-03T16:30:00.000Z')
    // New York falls back at 02:00 on 1 November 2026: 01:30 happens twice, first at EDT (−4).
    expect(instantAt('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z')
    // Sydney falls back at 03:00 on 5 April 2026: 02:30 first at AEDT (+11).
    expect(instantAt('2026-04-05', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-04-04T15:30:00.000Z')
    // London falls back at 02:00 on 25 October 2026: 01:30 first at BST (+1).
    expect(instantAt('2026-10-25', '01:30', 'Europe/London').toISOString()).toBe('2026-10-25T00:30:00.000Z')
    // Chile springs forward at midnight (6 September 2026): the day starts at 01:00, still on that date.
    const santiago = instantAt('2026-09-06', '00:00', 'America/Santiago')
    expect(santiago.toISOString()).toBe('2026-09-06T04:00:00.000Z')
    expect(wallClock(santiago, 'America/Santiago')).toMatchObject({ date: '2026-09-06', time: '01:00' })
  })

  it('round-trip: a date and time read back on the zone’s wall clock as the same date, and the same time unless skipped', () => {
    fc.assert(
      fc.property(localDate, wallTime, fc.constantFrom(...ZONES), (date, time, zone) => {
        const instant = instantAt(date, time, zone)
        const seen = wallClock(instant, zone)
        expect(localDateAt(instant, zone)).toBe(date)
        expect(seen.date).toBe(date)
        // The four zones skip an hour at 01:00 or 02:00 only: any other time reads back unchanged.
        if (!['01', '02'].includes(time.slice(0, 2))) expect(seen.time).toBe(time)
        // A repeated time is the first of the two: an hour earlier, the wall clock read something else.
        expect(wallClock(new Date(instant.getTime() - 3_600_000), zone).time).not.toBe(time)
      }),
      { numRuns: 500 },
    )
  })
})

describe('dates and months in an address', () => {
  it('reads a real date or month within the years of service, and nothing else', () => {
    expect(parseAddressDate('2026-11-28')).toBe('2026-11-28')
    expect(parseAddressDate('2000-01-01')).toBe('2000-01-01')
    expect(parseAddressDate('2100-12-31')).toBe('2100-12-31')
    for (const value of [
      '2026-02-30',
      '2026-13-01',
      '9999-12-31',
      '1999-12-31',
      '2101-01-01',
      '20261128',
      'today',
      null,
    ]) {
      expect(parseAddressDate(value), String(value)).toBeNull()
    }
    expect(parseAddressMonth('2026-02')).toBe('2026-02-01')
    for (const value of ['2026-13', '2026-00', '2026-1', '9999-12', '1999-12', '2026-02-01', 'Feb', undefined]) {
      expect(parseAddressMonth(value), String(value)).toBeNull()
    }
  })
})
