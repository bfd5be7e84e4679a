import { describe, expect, it } from 'vitest'
import { billingMonth, lastMonth, MonthActionSchema, monthParam, neighbors, parseMonth } from './billing-month'

describe('the billing page’s month', () => {
  it('is last month in the company’s calendar by default, across a year and a timezone’s midnight', () => {
    expect(lastMonth('2026-11-26')).toEqual({ start: '2026-10-01', end: '2026-10-31' })
    expect(lastMonth('2026-01-01')).toEqual({ start: '2025-12-01', end: '2025-12-31' })
    expect(lastMonth('2024-03-31')).toEqual({ start: '2024-02-01', end: '2024-02-29' })
    // 02:00 UTC on 1 December is still 30 November in New York: last month is October there, November in London.
    const now = new Date('2026-12-01T02:00:00Z')
    expect(billingMonth(null, now, 'America/New_York')?.start).toBe('2026-10-01')
    expect(billingMonth(null, now, 'Europe/London')?.start).toBe('2026-11-01')
  })

  it('reads ?month=YYYY-MM and nothing else', () => {
    const now = new Date('2026-11-26T12:00:00Z')
    expect(billingMonth('2026-02', now, 'UTC')).toEqual({ start: '2026-02-01', end: '2026-02-28' })
    expect(billingMonth(' 2026-12 ', now, 'UTC')?.start).toBe('2026-12-01')
    for (const value of ['2026-13', '2026-00', '2026-1', '26-11', '1999-12', '2101-01', '9999-12', 'November', '']) {
      expect(parseMonth(value), value).toBeNull()
    }
    expect(parseMonth(undefined)).toBeNull()
    expect(parseMonth('2100-12')).toEqual({ start: '2100-12-01', end: '2100-12-31' })
    // None asked for is last month; a month that cannot be is none at all (the page answers 404).
    for (const value of [null, '', ' '])
      expect(billingMonth(value, now, 'UTC')?.start, String(value)).toBe('2026-10-01')
    for (const value of ['2026-13', '9999-12', 'November']) expect(billingMonth(value, now, 'UTC'), value).toBeNull()
  })

  it('names the months either side, and writes a month back as YYYY-MM', () => {
    expect(neighbors({ start: '2026-01-01', end: '2026-01-31' })).toEqual({
      previous: { start: '2025-12-01', end: '2025-12-31' },
      next: { start: '2026-02-01', end: '2026-02-28' },
    })
    expect(monthParam({ start: '2026-11-01', end: '2026-11-30' })).toBe('2026-11')
    expect(monthParam('2026-11-26')).toBe('2026-11')
  })

  it('reads "Create N invoices" and "Send invoices" as their intent and the month they name', () => {
    expect(MonthActionSchema.parse({ intent: 'send', month: '2026-08' })).toEqual({
      intent: 'send',
      month: { start: '2026-08-01', end: '2026-08-31' },
    })
    const refusal = (fields: Record<string, string>) =>
      MonthActionSchema.safeParse(fields).error?.issues.map((issue) => issue.message)
    expect(refusal({ intent: 'create' })).toEqual(['Choose a month.'])
    expect(refusal({ intent: 'create', month: 'August' })).toEqual(['Choose a month.'])
    expect(refusal({ intent: 'explode', month: '2026-08' })).toEqual(['Unknown action.'])
  })
})
