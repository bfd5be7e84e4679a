// One reading of a list's page number from the address, for every loader behind a `Pager` (components/pager.tsx).

/** The highest page number taken at its word; beyond it (or anything not a whole number ≥ 1) is page 1. */
const MAX_PAGE = 10_000

/** `?<param>=N` as a page number: 1 when absent, not a whole number, below 1 or absurdly large. */
export function readPage(from: Request | URL | URLSearchParams, param = 'page'): number {
  const params =
    from instanceof URLSearchParams ? from : from instanceof URL ? from.searchParams : new URL(from.url).searchParams
  const page = Number(params.get(param))
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1
}
