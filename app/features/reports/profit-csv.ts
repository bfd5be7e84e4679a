// "Profit per pool" as CSV: the report's rows, in the order the page shows them, for a spreadsheet. Pure. Cells a
// spreadsheet would run as a formula are escaped (docs/architecture.md "Shared rules"); figures stay numbers, so a
// negative margin is written as one, not escaped. UTF-8 with a byte order mark, so Excel shows "é" as "é" (as the
// customer export).
import { stringify } from 'csv-stringify/sync'
import { amountText } from '~/billing/quickbooks'
import type { LocalDate } from '~/schedule/local-date'
import { laborBasisText } from './labor-basis'
import { placeOf } from './place'

/** A pool with visits but no invoice in the period (the page says the same). */
const NO_INVOICE = 'No invoice'

export type ProfitCsvRow = {
  label: string | null
  street: string
  city: string | null
  customerName: string
  invoiced: boolean
  revenueCents: number
  chemicalCostCents: number
  laborCostCents: number
  visits: number
  minutesOnSite: number
  /** Visits whose labor comes from approved timesheets (the rest: estimated from time on site). */
  approvedVisits: number
  marginCents: number | null
  marginPercent: number | null
}

export const PROFIT_CSV_COLUMNS = [
  'Location',
  'Customer',
  'Revenue',
  'Chemical cost',
  'Labor cost',
  'Labor basis',
  'Visits',
  'Minutes on site',
  'Margin',
  'Margin %',
] as const

const MONEY = new Set<string>(['Revenue', 'Chemical cost', 'Labor cost', 'Margin'])

/** `profit-per-pool-2026-11-01-to-2026-11-30.csv`. */
export function profitCsvFileName(from: LocalDate, to: LocalDate) {
  return `profit-per-pool-${from}-to-${to}.csv`
}

export function profitToCsv(rows: readonly ProfitCsvRow[]): string {
  return stringify(
    rows.map((row) => ({
      Location: placeOf(row),
      Customer: row.customerName,
      // A pool with visits and no invoice says so rather than showing $0.00 revenue and a 100 % loss.
      Revenue: row.invoiced ? row.revenueCents : NO_INVOICE,
      'Chemical cost': row.chemicalCostCents,
      'Labor cost': row.laborCostCents,
      'Labor basis': laborBasisText(row) ?? '',
      Visits: row.visits,
      'Minutes on site': row.minutesOnSite,
      Margin: row.marginCents,
      'Margin %': row.marginPercent,
    })),
    {
      bom: true,
      header: true,
      columns: [...PROFIT_CSV_COLUMNS],
      record_delimiter: 'windows',
      escape_formulas: true,
      cast: {
        number: (value, context) => (MONEY.has(String(context.column)) ? amountText(value) : String(value)),
      },
    },
  )
}
