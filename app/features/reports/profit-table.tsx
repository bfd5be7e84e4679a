// "Profit per pool"'s table. Wide screens: a table whose column headings sort it (the current one says which way,
// for screen readers too); phones: each pool stacks its figures under their names, and a "Sort by" form stands in
// for the headings. Sorting is a link or a GET form — the order is part of the address, as the period is.
import { Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { inputClass } from '~/components/ui/field'
import { textLinkTarget } from '~/components/ui/touch'
import { PROFIT_SORTS, type ProfitSort, type SortDirection } from '~/models/profit-order'
import type { ProfitRow, ProfitTotals } from '~/models/profit-report.server'
import { formatCents } from '~/utils/money'
import { laborBasisText } from './labor-basis'
import { placeOf } from './place'
import { firstDirection } from './profit-params'

export type ProfitView = {
  from: string
  to: string
  sort: ProfitSort
  dir: SortDirection
  page: number
  pageCount: number
  total: number
  rows: ProfitRow[]
  totals: ProfitTotals
}

/** `?from=…&to=…&sort=…&dir=…`: the report's address without the page (a new order or period starts at page 1). */
export function profitSearch(params: { from: string; to: string; sort: ProfitSort; dir: SortDirection }) {
  return `?${new URLSearchParams(params)}`
}

const LABELS: Record<ProfitSort, string> = {
  location: 'Location',
  customer: 'Customer',
  revenue: 'Revenue',
  chemicals: 'Chemical cost',
  labor: 'Labor cost',
  visits: 'Visits',
  minutes: 'Minutes on site',
  margin: 'Margin',
  'margin-percent': 'Margin %',
}

const FIGURES: ProfitSort[] = ['revenue', 'chemicals', 'labor', 'visits', 'minutes', 'margin', 'margin-percent']

/** What a pool with visits but no invoice in the period shows for its revenue and margin: not a 100 % loss. */
export const NO_INVOICE = 'No invoice'

/** 185 → "3 h 05 min"; under an hour, "45 min". */
export function minutesText(minutes: number) {
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

function percentText(percent: number | null) {
  return percent === null ? '—' : `${percent.toFixed(1)}%`
}

type Figures = Pick<
  ProfitRow,
  'revenueCents' | 'chemicalCostCents' | 'laborCostCents' | 'visits' | 'minutesOnSite' | 'approvedVisits'
> & {
  marginCents: number | null
  marginPercent: number | null
  /** False: a pool with no invoice in the period (the totals are always "invoiced"). */
  invoiced?: boolean
}

function figureText(sort: ProfitSort, row: Figures) {
  const invoiced = row.invoiced ?? true
  switch (sort) {
    case 'revenue':
      return invoiced ? formatCents(row.revenueCents) : NO_INVOICE
    case 'chemicals':
      return formatCents(row.chemicalCostCents)
    case 'labor':
      return formatCents(row.laborCostCents)
    case 'visits':
      return String(row.visits)
    case 'minutes':
      return minutesText(row.minutesOnSite)
    case 'margin':
      return row.marginCents === null ? NO_INVOICE : formatCents(row.marginCents)
    default:
      return invoiced ? percentText(row.marginPercent) : '—'
  }
}

/** Under the labor cost: where it comes from ("from approved timesheets" / "estimated from time on site"). */
function LaborBasis({ row }: { row: Figures }) {
  const text = laborBasisText(row)
  if (!text) return null
  return <span className="block text-xs font-normal text-slate-500">{text}</span>
}

/** The cells of a row on a phone: display blocks, each with its label; on wide screens, table cells. */
const CELL = 'flex justify-between gap-3 py-0.5 md:table-cell md:px-3 md:py-2 md:text-right'

export function ProfitTable({ view }: { view: ProfitView }) {
  return (
    <div className="space-y-3">
      <SortForm view={view} />
      <table className="block w-full text-sm md:table">
        <caption className="sr-only">
          Profit per pool, sorted by {LABELS[view.sort]} ({view.dir === 'asc' ? 'ascending' : 'descending'})
        </caption>
        <thead className="hidden border-b border-slate-200 md:table-header-group">
          <tr>
            {(['location', 'customer', ...FIGURES] as ProfitSort[]).map((sort) => (
              <SortHeading key={sort} sort={sort} view={view} />
            ))}
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-100 md:table-row-group">
          {view.rows.map((row) => (
            <tr key={row.locationId} className="block py-3 md:table-row md:py-0">
              <th scope="row" className="block text-left font-semibold text-slate-900 md:table-cell md:px-3 md:py-2">
                {placeOf(row)}
              </th>
              <td className="block md:table-cell md:px-3 md:py-2">
                <Link
                  to={`/app/customers/${row.customerId}`}
                  className={cn('text-brand-700 hover:underline', textLinkTarget)}
                >
                  {row.customerName}
                </Link>
              </td>
              {FIGURES.map((sort) => (
                <td
                  key={sort}
                  className={cn(
                    CELL,
                    sort === 'margin' && (row.marginCents ?? 0) < 0 && 'font-semibold text-danger',
                    !row.invoiced && (sort === 'revenue' || sort === 'margin') && 'italic text-slate-600',
                  )}
                >
                  <span className="text-slate-500 md:sr-only">{LABELS[sort]}</span>
                  <span className="text-right">
                    {figureText(sort, row)}
                    {sort === 'labor' ? <LaborBasis row={row} /> : null}
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="block border-t-2 border-slate-200 font-semibold md:table-footer-group">
          <tr className="block py-3 md:table-row md:py-0">
            <th scope="row" className="block pb-1 text-left md:table-cell md:px-3 md:py-2">
              Total ({view.total === 1 ? '1 pool' : `${view.total} pools`})
            </th>
            <td className="hidden md:table-cell" />
            {FIGURES.map((sort) => (
              <td key={sort} className={CELL}>
                <span className="text-slate-500 md:sr-only">{LABELS[sort]}</span>
                <span className="text-right">
                  {figureText(sort, view.totals)}
                  {sort === 'labor' ? <LaborBasis row={view.totals} /> : null}
                </span>
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

/** A column heading that sorts by its column: again to turn the order round. */
function SortHeading({ sort, view }: { sort: ProfitSort; view: ProfitView }) {
  const current = view.sort === sort
  const dir: SortDirection = current ? (view.dir === 'asc' ? 'desc' : 'asc') : firstDirection(sort)
  const arrow = current ? (view.dir === 'asc' ? '↑' : '↓') : ''
  return (
    <th
      scope="col"
      aria-sort={current ? (view.dir === 'asc' ? 'ascending' : 'descending') : undefined}
      className={cn(
        'px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500',
        sort === 'location' || sort === 'customer' ? 'text-left' : 'text-right',
      )}
    >
      <Link
        to={profitSearch({ from: view.from, to: view.to, sort, dir })}
        preventScrollReset
        // The name says what a tap does; the heading's aria-sort says how the table is sorted now.
        aria-label={`${LABELS[sort]}, sort ${dir === 'asc' ? 'ascending' : 'descending'}`}
        className={cn(textLinkTarget, 'gap-1 hover:text-slate-900', current && 'text-slate-900')}
      >
        {LABELS[sort]}
        <span aria-hidden="true">{arrow}</span>
      </Link>
    </th>
  )
}

/** Phones have no column headings to tap: the same choice as a small form. */
function SortForm({ view }: { view: ProfitView }) {
  return (
    <Form method="get" className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2 md:hidden">
      <input type="hidden" name="from" value={view.from} />
      <input type="hidden" name="to" value={view.to} />
      <div className="col-span-2 space-y-1">
        <label htmlFor="profit-sort" className="block text-sm font-medium text-slate-800">
          Sort by
        </label>
        <select id="profit-sort" name="sort" defaultValue={view.sort} className={inputClass}>
          {PROFIT_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0 space-y-1">
        <label htmlFor="profit-dir" className="block text-sm font-medium text-slate-800">
          Order
        </label>
        <select id="profit-dir" name="dir" defaultValue={view.dir} className={inputClass}>
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </select>
      </div>
      <Button type="submit" variant="secondary">
        Sort
      </Button>
    </Form>
  )
}
