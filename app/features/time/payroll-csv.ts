// The payroll export (docs/time.md, decision 057): approved days as CSV, one row per technician and day, in the
// generic hours-import layout payroll services read (an employee column, a date, regular and overtime hours as decimal
// hours, then our stops and gross pay). Pure. Formula-looking cells are escaped; UTF-8 with a byte order mark and
// Windows line ends, as the other exports.
import { stringify } from 'csv-stringify/sync'
import { amountText } from '~/billing/quickbooks'
import type { PayrollRow } from '~/models/payroll.server'
import type { LocalDate } from '~/schedule/local-date'
import { hoursText } from '~/schedule/timesheet'

export const PAYROLL_CSV_COLUMNS = [
  'Employee',
  'Email',
  'Date',
  'Regular hours',
  'Overtime hours',
  'Stops',
  'Gross pay',
] as const

/** `payroll-2026-11-30-to-2026-12-06.csv`: the first week's Monday to the last week's Sunday. */
export function payrollCsvFileName(from: LocalDate, to: LocalDate) {
  return `payroll-${from}-to-${to}.csv`
}

/** "11/30/2026": the US date form payroll imports read. */
function usDate(date: LocalDate) {
  const [year, month, day] = date.split('-')
  return `${month}/${day}/${year}`
}

export function payrollToCsv(rows: readonly PayrollRow[]): string {
  return stringify(
    rows.map((row) => ({
      Employee: row.employee,
      Email: row.email,
      Date: usDate(row.date),
      'Regular hours': hoursText(row.regularMinutes),
      'Overtime hours': hoursText(row.overtimeMinutes),
      Stops: String(row.stops),
      'Gross pay': amountText(row.grossCents),
    })),
    {
      bom: true,
      header: true,
      columns: [...PAYROLL_CSV_COLUMNS],
      record_delimiter: 'windows',
      escape_formulas: true,
    },
  )
}
