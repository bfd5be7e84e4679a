// Today's clock as the phone shows it: the server's day, then each tap still waiting on the phone, in order — so a
// day started and paused offline reads "On a break" with the phone's times before anything reached the server.
import { describe, expect, it } from 'vitest'
import { clockAsShown } from './day-clock'

const server = { state: 'not-started' as const, startAt: null, breakSince: null, endAt: null }

describe('clockAsShown', () => {
  it('plays the waiting taps over the server’s day', () => {
    const waiting = [
      { clock: 'start' as const, madeAt: '2026-11-30T12:00:00.000Z' },
      { clock: 'break-start' as const, madeAt: '2026-11-30T15:00:00.000Z' },
    ]
    expect(clockAsShown(server, waiting)).toEqual({
      state: 'on-break',
      startAt: '2026-11-30T12:00:00.000Z',
      breakSince: '2026-11-30T15:00:00.000Z',
      endAt: null,
    })
    const back = [...waiting, { clock: 'break-end' as const, madeAt: '2026-11-30T15:30:00.000Z' }]
    expect(clockAsShown(server, back)).toMatchObject({ state: 'working', breakSince: null })
    const ended = [...back, { clock: 'end' as const, madeAt: '2026-11-30T21:00:00.000Z' }]
    expect(clockAsShown(server, ended)).toMatchObject({ state: 'ended', endAt: '2026-11-30T21:00:00.000Z' })
  })

  it('shows the server’s day as it is when nothing waits', () => {
    const working = { state: 'working' as const, startAt: '2026-11-30T12:00:00.000Z', breakSince: null, endAt: null }
    expect(clockAsShown(working, [])).toEqual(working)
  })
})
