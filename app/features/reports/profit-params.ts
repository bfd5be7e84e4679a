// "Profit per pool"'s address (`/app/reports/profit?from=…&to=…&sort=…&dir=…&page=…`), read in one place for the
// page and its CSV export, so both list the same rows in the same order. Pure.
import {
  DEFAULT_DIRECTION,
  DEFAULT_SORT,
  PROFIT_SORTS,
  type ProfitSort,
  type SortDirection,
} from '~/models/profit-order'
import type { LocalDate } from '~/schedule/local-date'
import { readPage } from '~/utils/paging'
import { lastMonth, type RangeChoice, readRange } from './report-period'

/** The way a column sorts when first clicked: names A to Z, figures largest first. */
export function firstDirection(sort: ProfitSort): SortDirection {
  return sort === 'location' || sort === 'customer' ? 'asc' : 'desc'
}

export type ProfitParams = {
  range: RangeChoice
  sort: ProfitSort
  dir: SortDirection
  page: number
}

/**
 * The report's parameters; a sort or direction it does not know falls back to the default, as a bad page does. No
 * period is the last full month (in the company's zone, from its `today`): the latest month with invoices.
 */
export function readProfitParams(url: URL, today: LocalDate): ProfitParams {
  const params = url.searchParams
  const sortText = params.get('sort')
  const sort = PROFIT_SORTS.find((candidate) => candidate === sortText) ?? DEFAULT_SORT
  const dirText = params.get('dir')
  const dir: SortDirection =
    dirText === 'asc' || dirText === 'desc' ? dirText : sortText === sort ? firstDirection(sort) : DEFAULT_DIRECTION
  return {
    range: readRange(params.get('from'), params.get('to'), today, lastMonth(today)),
    sort,
    dir,
    page: readPage(params),
  }
}
