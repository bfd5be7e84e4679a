// Quiet hours (issue #20): a text due inside them goes out at "Until" on the company's wall clock, on DST nights
// too; outside them it goes at once. Property-tested over the zones we serve and the days the clocks change.
import fc from 'fast-check'
import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { DEFAULT_QUIET_HOURS, isQuietAt, isQuietMinute, sendableAt } from './quiet-hours'

const ZONES = ['America/New_York', 'America/Phoenix', 'Australia/Sydney', 'Europe/London', 'Australia/Lord_Howe']

const local = (instant: Date, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(zone).toPlainDateTime().toString()

describe('sendableAt', () => {
  it('holds a 22:15 text until 08:00 the next morning, and sends a 12:00 one at once', () => {
    const evening = new Date('2026-11-23T03:15:00Z') // 22:15 on Nov 22 in New York
    expect(local(sendableAt(evening, DEFAULT_QUIET_HOURS, 'America/New_York'), 'America/New_York')).toBe(
      '2026-11-23T08:00:00',
    )
    const earlyMorning = new Date('2026-11-23T11:30:00Z') // 06:30
    expect(local(sendableAt(earlyMorning, DEFAULT_QUIET_HOURS, 'America/New_York'), 'America/New_York')).toBe(
      '2026-11-23T08:00:00',
    )
    const noon = new Date('2026-11-23T17:00:00Z')
    expect(sendableAt(noon, DEFAULT_QUIET_HOURS, 'America/New_York')).toEqual(noon)
  })

  it('on the night New York goes back an hour, 08:00 is still 08:00 on the wall clock', () => {
    const night = new Date('2026-11-01T04:30:00Z') // 00:30 EDT, Nov 1
    const at = sendableAt(night, DEFAULT_QUIET_HOURS, 'America/New_York')
    expect(at.toISOString()).toBe('2026-11-01T13:00:00.000Z')
  })

  it('an "Until" the clocks skip is sent just after the gap', () => {
    const night = new Date('2026-03-08T06:00:00Z') // 01:00 EST, the night the clocks go forward at 02:00
    const at = sendableAt(night, { from: '21:00', until: '02:30' }, 'America/New_York')
    expect(local(at, 'America/New_York')).toBe('2026-03-08T03:30:00')
  })

  it('when the clocks skip the whole sending window, the text waits for the next night’s', () => {
    // London goes from 00:59:59 GMT to 02:00 BST on 2026-03-29; a window of 01:00–01:01 does not exist that night.
    const now = new Date(1774745999999)
    const at = sendableAt(now, { from: '01:01', until: '01:00' }, 'Europe/London')
    expect(local(at, 'Europe/London')).toBe('2026-03-30T01:00:00')
  })

  it('no quiet hours when "From" equals "Until"', () => {
    const night = new Date('2026-11-23T03:15:00Z')
    expect(sendableAt(night, { from: '08:00', until: '08:00' }, 'America/New_York')).toEqual(night)
    expect(isQuietMinute(0, { from: '08:00', until: '08:00' })).toBe(false)
  })

  it('property: never earlier than now, never inside quiet hours when held, at once when not quiet, within a day', () => {
    const time = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`)
    // Instants across two years, with extra weight on the hours around the clock changes of the zones.
    const transitions = [
      '2026-03-08T07:00:00Z',
      '2026-11-01T06:00:00Z',
      '2026-04-04T16:00:00Z',
      '2026-10-03T16:00:00Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T01:00:00Z',
    ].map((iso) => Date.parse(iso))
    const instant = fc.oneof(
      fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') }),
      fc
        .tuple(fc.constantFrom(...transitions), fc.integer({ min: -14 * 3_600_000, max: 14 * 3_600_000 }))
        .map(([at, offset]) => at + offset),
    )
    fc.assert(
      fc.property(instant, time, time, fc.constantFrom(...ZONES), (ms, from, until, zone) => {
        const now = new Date(ms)
        const quiet = { from, until }
        const at = sendableAt(now, quiet, zone)
        expect(at.getTime()).toBeGreaterThanOrEqual(now.getTime())
        // A day at most — two when the clocks skip the whole sending window (see the test below).
        expect(at.getTime() - now.getTime()).toBeLessThanOrEqual(50 * 3_600_000)
        if (!isQuietAt(now, quiet, zone)) expect(at).toEqual(now)
        else expect(isQuietAt(at, quiet, zone)).toBe(false)
        // Asking again at the answer changes nothing.
        expect(sendableAt(at, quiet, zone)).toEqual(at)
      }),
      { numRuns: 3000 },
    )
  })
})
