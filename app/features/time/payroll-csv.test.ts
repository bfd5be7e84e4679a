// The payroll CSV's bytes (decision 057): the header, US dates, decimal hours, dollars, a byte order mark, Windows
// line ends, and a name that would run as a spreadsheet formula written as text.
import { describe, expect, it } from 'vitest'
import { PAYROLL_CSV_COLUMNS, payrollCsvFileName, payrollToCsv } from './payroll-csv'

describe('payrollToCsv', () => {
  it('writes one row per employee and day in the generic hours layout', () => {
    const text = payrollToCsv([
      {
        employee: 'Tess Clock',
        email: 'tess@example.com',
        date: '2026-11-06',
        regularMinutes: 130,
        overtimeMinutes: 470,
        stops: 3,
        grossCents: 27833,
      },
      {
        employee: '=HYPERLINK("x")',
        email: 'evil@example.com',
        date: '2026-11-07',
        regularMinutes: 0,
        overtimeMinutes: 0,
        stops: 9,
        grossCents: 16200,
      },
    ])
    expect(text.startsWith('\uFEFF')).toBe(true)
    const lines = text.slice(1).split('\r\n')
    expect(lines[0]).toBe(PAYROLL_CSV_COLUMNS.join(','))
    expect(lines[1]).toBe('Tess Clock,tess@example.com,11/06/2026,2.17,7.83,3,278.33')
    expect(lines[2]).toBe(`"'=HYPERLINK(""x"")",evil@example.com,11/07/2026,0.00,0.00,9,162.00`)
    expect(payrollCsvFileName('2026-11-02', '2026-11-08')).toBe('payroll-2026-11-02-to-2026-11-08.csv')
  })
})
