import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { arrivalEstimate, TOWN_SPEED_METERS_PER_SECOND, UNKNOWN_DRIVE_SECONDS } from './eta'

const NOW = new Date('2026-11-26T15:02:00Z')

describe('arrivalEstimate', () => {
  it('adds the drive, by road time when known, rounded up to five minutes', () => {
    expect(arrivalEstimate(NOW, { meters: 8000, seconds: 600, minutesLeftThere: 0 })).toEqual(
      new Date('2026-11-26T15:15:00Z'),
    )
    // 8 km at town speed ≈ 10 min → 15:12 → 15:15.
    expect(arrivalEstimate(NOW, { meters: 8000, minutesLeftThere: 0 })).toEqual(new Date('2026-11-26T15:15:00Z'))
  })

  it('counts the minutes still to spend at the stop before', () => {
    expect(arrivalEstimate(NOW, { meters: 0, seconds: 300, minutesLeftThere: 20 })).toEqual(
      new Date('2026-11-26T15:30:00Z'),
    )
  })

  it('falls back to a typical hop without coordinates', () => {
    expect(arrivalEstimate(NOW, { meters: null, minutesLeftThere: 0 }).getTime()).toBe(
      Math.ceil((NOW.getTime() + UNKNOWN_DRIVE_SECONDS * 1000) / 300_000) * 300_000,
    )
  })

  it('property: never before now plus the drive, never more than five minutes after it, on a five-minute mark', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.double({ min: 0, max: 200_000, noNaN: true }),
        fc.integer({ min: 0, max: 240 }),
        (ms, meters, minutes) => {
          const now = new Date(ms)
          const exact = ms + minutes * 60_000 + (meters / TOWN_SPEED_METERS_PER_SECOND) * 1000
          const at = arrivalEstimate(now, { meters, minutesLeftThere: minutes }).getTime()
          expect(at).toBeGreaterThanOrEqual(exact - 1)
          expect(at - exact).toBeLessThan(5 * 60_000 + 1)
          expect(at % (5 * 60_000)).toBe(0)
        },
      ),
    )
  })

  it("never tells a time before the stop's appointment opens: the route waits for it", () => {
    const now = new Date('2026-11-25T12:10:00Z')
    const opensAt = new Date('2026-11-25T13:00:00Z')
    // An 8-minute drive would be 12:20; the 8:00 AM (13:00Z) appointment is when the technician starts there.
    expect(arrivalEstimate(now, { meters: 6700, minutesLeftThere: 0, opensAt }).toISOString()).toBe(
      '2026-11-25T13:00:00.000Z',
    )
    // Running late: the drive's time stands.
    const late = new Date('2026-11-25T12:55:00Z')
    expect(arrivalEstimate(late, { meters: 6700, minutesLeftThere: 0, opensAt }).toISOString()).toBe(
      '2026-11-25T13:05:00.000Z',
    )
  })
})
