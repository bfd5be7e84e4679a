// A visit's state, one rule (docs/product.md "Visit states"): the state the board and the route read, and the badge's
// word every dashboard shows, never disagree.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { visitState } from './visit-state'

describe('visitState', () => {
  it('follows docs/product.md "Visit states": overdue is open and from before today in the company timezone (decision 049)', () => {
    const now = new Date('2026-11-22T12:00:00Z') // 07:00 in New York
    expect(visitState({ completedAt: now, scheduledAt: now }, { now, timezone: 'UTC' })).toBe('Completed')
    // Earlier today is not overdue yet; yesterday evening is.
    expect(
      visitState({ completedAt: null, scheduledAt: new Date('2026-11-22T11:59:00Z') }, { now, timezone: 'UTC' }),
    ).toBe('Scheduled')
    expect(
      visitState({ completedAt: null, scheduledAt: new Date('2026-11-21T23:59:00Z') }, { now, timezone: 'UTC' }),
    ).toBe('Overdue')
    // 04:59 UTC is 23:59 the day before in New York; 05:01 UTC is today there.
    const ny = 'America/New_York'
    expect(
      visitState({ completedAt: null, scheduledAt: new Date('2026-11-22T04:59:00Z') }, { now, timezone: ny }),
    ).toBe('Overdue')
    expect(
      visitState({ completedAt: null, scheduledAt: new Date('2026-11-22T05:01:00Z') }, { now, timezone: ny }),
    ).toBe('Scheduled')
  })

  it('names a completed, skipped or canceled visit alike without a clock and with one', () => {
    const at = new Date('2026-11-20T15:00:00Z')
    const cases = [
      [{ completedAt: at, canceledAt: null, skipReason: null }, 'completed', 'Completed'],
      [{ completedAt: null, canceledAt: at, skipReason: 'Locked gate' }, 'skipped', 'Skipped'],
      [{ completedAt: null, canceledAt: at, skipReason: null }, 'canceled', 'Canceled'],
      [{ completedAt: null, canceledAt: null, skipReason: null }, 'open', 'Overdue'],
    ] as const
    for (const [visit, state, status] of cases) {
      expect(visitState(visit)).toBe(state)
      expect(
        visitState({ ...visit, scheduledAt: at }, { now: new Date('2026-11-22T12:00:00Z'), timezone: 'UTC' }),
      ).toBe(status)
    }
  })

  it('the badge is the state, and an open visit is overdue exactly when scheduled before today in the zone', () => {
    const instant = fc.date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    fc.assert(
      fc.property(
        fc.record({
          completedAt: fc.option(instant),
          canceledAt: fc.option(instant),
          skipReason: fc.option(fc.constantFrom('Locked gate', 'Dog in yard')),
          scheduledAt: instant,
        }),
        instant,
        fc.constantFrom('UTC', 'America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu'),
        (visit, now, timezone) => {
          const state = visitState(visit)
          const status = visitState(visit, { now, timezone })
          if (state === 'open') {
            const today = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(now)
            const day = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(visit.scheduledAt)
            expect(status).toBe(day < today ? 'Overdue' : 'Scheduled')
          } else {
            expect(status).toBe({ completed: 'Completed', skipped: 'Skipped', canceled: 'Canceled' }[state])
          }
        },
      ),
    )
  })
})
