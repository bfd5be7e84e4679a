// The orders "Profit per pool" lists its rows in, as the address names them: the model sorts by them, the page and
// its CSV read them from the address. Pure, so the browser's table uses the same list.

/** The columns the report sorts by. */
export const PROFIT_SORTS = [
  'location',
  'customer',
  'revenue',
  'chemicals',
  'labor',
  'visits',
  'minutes',
  'margin',
  'margin-percent',
] as const
export type ProfitSort = (typeof PROFIT_SORTS)[number]
export type SortDirection = 'asc' | 'desc'

/** Most profitable first: what an owner looks for first; the lowest margins are one click away. */
export const DEFAULT_SORT: ProfitSort = 'margin'
export const DEFAULT_DIRECTION: SortDirection = 'desc'
