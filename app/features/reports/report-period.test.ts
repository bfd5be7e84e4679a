import { describe, expect, it } from 'vitest'
import { readProfitParams } from './profit-params'
import { lastMonth, MONTH_MESSAGE, RANGE_MESSAGES, readMonth, readRange } from './report-period'

describe('?month=', () => {
  it('reads a month, and none as last month (across a year end too)', () => {
    expect(readMonth('2026-02', '2026-11-26')).toEqual({
      ok: true,
      month: '2026-02',
      period: { start: '2026-02-01', end: '2026-02-28' },
    })
    expect(readMonth(null, '2026-11-26')).toEqual({
      ok: true,
      month: '2026-10',
      period: { start: '2026-10-01', end: '2026-10-31' },
    })
    expect(readMonth('', '2027-01-01')).toMatchObject({ month: '2026-12' })
    expect(lastMonth('2028-03-31')).toEqual({ start: '2028-02-01', end: '2028-02-29' })
  })

  it('refuses any other form', () => {
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', 'nov', '0999-01']) {
      expect(readMonth(bad, '2026-11-26'), bad).toEqual({ ok: false, message: MONTH_MESSAGE })
    }
  })
})

describe('?from=&to=', () => {
  it('reads a range, and none as this month', () => {
    expect(readRange(null, null, '2026-11-26')).toEqual({ ok: true, from: '2026-11-01', to: '2026-11-30' })
    expect(readRange('2026-01-01', '2026-12-31', '2026-11-26')).toEqual({
      ok: true,
      from: '2026-01-01',
      to: '2026-12-31',
    })
    expect(readRange('2026-11-05', '2026-11-05', '2026-11-26')).toMatchObject({ ok: true })
  })

  it('refuses bad dates, a backwards range and more than a year, keeping what was typed', () => {
    expect(readRange('2026-02-30', null, '2026-11-26')).toEqual({
      ok: false,
      message: RANGE_MESSAGES.date,
      from: '2026-02-30',
      to: '2026-11-30',
    })
    expect(readRange('2026-11-02', '2026-11-01', '2026-11-26')).toMatchObject({
      ok: false,
      message: RANGE_MESSAGES.order,
    })
    // 366 days (a leap year) is a year; 367 is not.
    expect(readRange('2024-01-01', '2024-12-31', '2026-11-26')).toMatchObject({ ok: true })
    expect(readRange('2025-01-01', '2026-01-02', '2026-11-26')).toMatchObject({
      ok: false,
      message: RANGE_MESSAGES.length,
    })
  })
})

describe("the report's address", () => {
  const read = (search: string) => readProfitParams(new URL(`http://x/app/reports/profit${search}`), '2026-11-26')

  it('defaults to the last full month (January: last December), most profitable first, page 1', () => {
    expect(readProfitParams(new URL('http://x/app/reports/profit'), '2027-01-01').range).toEqual({
      ok: true,
      from: '2026-12-01',
      to: '2026-12-31',
    })
    expect(read('')).toEqual({
      range: { ok: true, from: '2026-10-01', to: '2026-10-31' },
      sort: 'margin',
      dir: 'desc',
      page: 1,
    })
  })

  it('reads a sort, its direction (names A to Z, figures largest first when not said) and a page', () => {
    expect(read('?sort=customer')).toMatchObject({ sort: 'customer', dir: 'asc' })
    expect(read('?sort=revenue')).toMatchObject({ sort: 'revenue', dir: 'desc' })
    expect(read('?sort=margin-percent&dir=asc&page=3')).toMatchObject({ sort: 'margin-percent', dir: 'asc', page: 3 })
    expect(read('?sort=drop%20table&dir=sideways&page=-2')).toMatchObject({ sort: 'margin', dir: 'desc', page: 1 })
  })
})
