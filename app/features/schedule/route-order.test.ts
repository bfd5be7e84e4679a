import { describe, expect, it } from 'vitest'
import { applyMove, formatFullDate, formatMiles, optimizedMessage, ReorderRouteSchema } from './route-order'

const MILE = 1609.344
const [a, b, c] = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
]

describe('applyMove', () => {
  it('swaps a stop with its neighbor', () => {
    expect(applyMove([a, b, c], `${b}:up`)).toEqual([b, a, c])
    expect(applyMove([a, b, c], `${b}:down`)).toEqual([a, c, b])
  })

  it('leaves the order alone past either end, for an unknown stop, or without a move', () => {
    expect(applyMove([a, b, c], `${a}:up`)).toEqual([a, b, c])
    expect(applyMove([a, b, c], `${c}:down`)).toEqual([a, b, c])
    expect(applyMove([a, b], `${c}:up`)).toEqual([a, b])
    expect(applyMove([a, b], undefined)).toEqual([a, b])
  })
})

describe('the words the page shows', () => {
  it('miles with one decimal', () => {
    expect(formatMiles(0)).toBe('0.0 mi')
    expect(formatMiles(3.24 * MILE)).toBe('3.2 mi')
  })

  it('the saving adds up as read', () => {
    expect(optimizedMessage(14.2 * MILE, 11.0 * MILE)).toBe('Route optimized: 14.2 mi → 11.0 mi (saved 3.2 mi).')
    expect(optimizedMessage(10.04 * MILE, 9.96 * MILE)).toBe('Route optimized: 10.0 mi → 10.0 mi (saved 0.0 mi).')
  })

  it('the full date, whatever the zone', () => {
    expect(formatFullDate('2026-11-24')).toBe('Tuesday, November 24, 2026')
  })
})

describe('ReorderRouteSchema', () => {
  it('takes stop ids and an optional move or undo', () => {
    expect(ReorderRouteSchema.safeParse({ intent: 'reorder', visitIds: [a, b], move: `${a}:down` }).success).toBe(true)
    expect(ReorderRouteSchema.safeParse({ intent: 'reorder', visitIds: [a], undo: 'on' }).success).toBe(true)
  })

  it('refuses no stops, ids that are not ids, and moves that are not moves', () => {
    expect(ReorderRouteSchema.safeParse({ intent: 'reorder', visitIds: [] }).success).toBe(false)
    expect(ReorderRouteSchema.safeParse({ intent: 'reorder', visitIds: ['1'] }).success).toBe(false)
    expect(ReorderRouteSchema.safeParse({ intent: 'reorder', visitIds: [a], move: `${a}:left` }).success).toBe(false)
  })
})
