import { describe, expect, it } from 'vitest'
import { clearRateLimit, hitRateLimit, isRateLimited, type RateLimitRule } from './rate-limit.server'

const RULE: RateLimitRule = { name: 'test-rule', max: 3, windowSeconds: 60 }

describe('rate limits', () => {
  it('allows max hits per window, refuses the next, and opens again when the window ends', async () => {
    const start = new Date('2026-11-23T12:00:00Z')
    const states = []
    for (let i = 0; i < 4; i++) states.push(await hitRateLimit(RULE, 'a@example.com', { now: start }))
    expect(states.map((s) => s.limited)).toEqual([false, false, false, true])
    expect((await isRateLimited(RULE, 'A@example.com', { now: start })).limited).toBe(true)
    expect((await isRateLimited(RULE, 'someone-else', { now: start })).limited).toBe(false)
    const later = new Date(start.getTime() + 61_000)
    expect((await isRateLimited(RULE, 'a@example.com', { now: later })).limited).toBe(false)
    expect(await hitRateLimit(RULE, 'a@example.com', { now: later })).toMatchObject({ limited: false, count: 1 })
  })

  it('counts every one of many concurrent hits exactly once', async () => {
    const now = new Date('2026-11-23T13:00:00Z')
    const rule = { ...RULE, max: 1000 }
    const states = await Promise.all(Array.from({ length: 25 }, () => hitRateLimit(rule, 'burst', { now })))
    expect(states.map((s) => s.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1))
  })

  it('forgets a key when cleared', async () => {
    const now = new Date()
    for (let i = 0; i < 3; i++) await hitRateLimit(RULE, 'clear-me', { now })
    expect((await isRateLimited(RULE, 'clear-me', { now })).limited).toBe(true)
    await clearRateLimit(RULE, 'clear-me')
    expect((await isRateLimited(RULE, 'clear-me', { now })).limited).toBe(false)
  })
})
