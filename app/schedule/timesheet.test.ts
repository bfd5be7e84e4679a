import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type ClockEvent,
  dayGrossCents,
  dayTotals,
  hoursText,
  type StopTimes,
  splitOvertime,
  WEEKLY_OVERTIME_AFTER_MINUTES,
} from './timesheet'

const BASE = Date.UTC(2026, 10, 30, 12, 0)
const at = (minutes: number, seconds = 0) => new Date(BASE + minutes * 60_000 + seconds * 1000)

// Moments anywhere from two hours before to fourteen hours after the base, to the second.
const moment = fc.integer({ min: -120 * 60, max: 14 * 60 * 60 }).map((s) => new Date(BASE + s * 1000))
const maybe = fc.option(moment, { nil: null })
const stop: fc.Arbitrary<StopTimes> = fc.record({ onMyWayAt: maybe, arrivedAt: maybe, completedAt: maybe })
const breakEvents = fc.array(
  fc.record({ kind: fc.constantFrom('break-start' as const, 'break-end' as const), at: moment }),
  { maxLength: 8 },
)

describe('a day on the clock', () => {
  it('drive + on-site + breaks + idle is exactly end − start, none negative, for any events and stops', () => {
    fc.assert(
      fc.property(moment, moment, breakEvents, fc.array(stop, { maxLength: 12 }), (a, b, breaks, stops) => {
        const [start, end] = a <= b ? [a, b] : [b, a]
        const events: ClockEvent[] = [{ kind: 'start', at: start }, { kind: 'end', at: end }, ...breaks]
        const day = dayTotals(events, stops)
        const span = Math.floor(end.getTime() / 60_000) - Math.floor(start.getTime() / 60_000)
        expect(day.driveMinutes + day.onSiteMinutes + day.breakMinutes + day.idleMinutes).toBe(span)
        for (const part of [day.driveMinutes, day.onSiteMinutes, day.breakMinutes, day.idleMinutes]) {
          expect(part).toBeGreaterThanOrEqual(0)
        }
        expect(day.workedMinutes).toBe(span - day.breakMinutes)
      }),
    )
  })

  it('counts a stop from "On my way" to its first work as drive, then on site until completion', () => {
    const day = dayTotals(
      [
        { kind: 'start', at: at(0) },
        { kind: 'break-start', at: at(120) },
        { kind: 'break-end', at: at(150) },
        { kind: 'end', at: at(300) },
      ],
      [{ onMyWayAt: at(10), arrivedAt: at(30, 40), completedAt: at(75) }],
    )
    expect(day).toMatchObject({ driveMinutes: 20, onSiteMinutes: 45, breakMinutes: 30, idleMinutes: 205 })
    expect(day.workedMinutes).toBe(270)
  })

  it('a break wins over a visit it overlaps, and a day without "End day" has no totals yet', () => {
    const day = dayTotals(
      [
        { kind: 'start', at: at(0) },
        { kind: 'break-start', at: at(20) },
        { kind: 'break-end', at: at(40) },
        { kind: 'end', at: at(60) },
      ],
      [{ onMyWayAt: null, arrivedAt: at(10), completedAt: at(50) }],
    )
    expect(day).toMatchObject({ onSiteMinutes: 20, breakMinutes: 20, idleMinutes: 20 })
    expect(dayTotals([{ kind: 'start', at: at(0) }], [])).toMatchObject({ open: true, workedMinutes: 0 })
  })
})

describe('overtime and pay', () => {
  it('puts every minute after 40 hours of the week in overtime, the crossing day carrying both', () => {
    const days = ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({
      date,
      workedMinutes: 9 * 60,
    }))
    const split = splitOvertime(days)
    expect(split.map((day) => [day.regularMinutes, day.overtimeMinutes])).toEqual([
      [540, 0],
      [540, 0],
      [540, 0],
      [540, 0],
      [240, 300],
    ])
  })

  it('keeps the week whole: regular + overtime = worked, regular at most 40 hours', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 16 * 60 }), { maxLength: 7 }), (minutes) => {
        const split = splitOvertime(minutes.map((workedMinutes, i) => ({ date: `2026-12-0${i + 1}`, workedMinutes })))
        const regular = split.reduce((sum, day) => sum + day.regularMinutes, 0)
        const overtime = split.reduce((sum, day) => sum + day.overtimeMinutes, 0)
        const worked = minutes.reduce((sum, value) => sum + value, 0)
        expect(regular + overtime).toBe(worked)
        expect(regular).toBe(Math.min(worked, WEEKLY_OVERTIME_AFTER_MINUTES))
      }),
    )
  })

  it('pays hourly at the rate and overtime at one and a half, rounded half up once per day', () => {
    const hourly = {
      payType: 'hourly' as const,
      hourlyRateCents: 2001,
      perStopRateCents: null,
      skippedVisitExtraCents: null,
    }
    // 7 h 30 min at $20.01 = $150.075 → $150.08; 1 h overtime at $30.015 → total $180.09 (180.09 exactly: 18009).
    expect(dayGrossCents(hourly, { regularMinutes: 450, overtimeMinutes: 0, completed: 0, skipped: 0 })).toBe(15008)
    expect(dayGrossCents(hourly, { regularMinutes: 450, overtimeMinutes: 60, completed: 0, skipped: 0 })).toBe(18009)
    const perStop = {
      payType: 'per-stop' as const,
      hourlyRateCents: null,
      perStopRateCents: 1800,
      skippedVisitExtraCents: 500,
    }
    expect(dayGrossCents(perStop, { regularMinutes: 600, overtimeMinutes: 0, completed: 9, skipped: 2 })).toBe(17200)
    expect(hoursText(450)).toBe('7.50')
    expect(hoursText(20)).toBe('0.33')
  })
})
