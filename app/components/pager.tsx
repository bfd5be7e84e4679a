import { Link, useLocation } from 'react-router'
import { buttonClass } from './ui/button'

/**
 * "Previous" / "Next" for every paged list. The links keep every search parameter of the current page (search text,
 * filters) and change only `param`, so paging never loses what the list is showing. Give `pageCount` when the list
 * knows its total, else `hasNext`. A list below other content gives its `hash`, so a page change lands on it.
 */
export function Pager({
  page,
  pageCount,
  hasNext,
  label,
  param = 'page',
  previousLabel = 'Previous',
  nextLabel = 'Next',
  hash,
  summary,
}: {
  page: number
  pageCount?: number
  hasNext?: boolean
  /** What is paged, for screen readers ("Customer pages"). */
  label: string
  /** The search parameter holding the page number, when a page has two paged lists. */
  param?: string
  /** Words for the two links where "Previous" and "Next" say less ("← Newer visits"). */
  previousLabel?: string
  nextLabel?: string
  /** The id of the list's heading or section, to land on after a page change. */
  hash?: string
  /** What the middle says instead of "Page 2 of 3" ("Showing 11–20 of 22 unassigned visits."). */
  summary?: string
}) {
  const location = useLocation()
  const next = pageCount === undefined ? Boolean(hasNext) : page < pageCount
  if (page <= 1 && !next) return null
  const to = (target: number) => {
    const params = new URLSearchParams(location.search)
    if (target > 1) params.set(param, String(target))
    else params.delete(param)
    const search = params.toString()
    return `${location.pathname}${search ? `?${search}` : ''}${hash ? `#${hash}` : ''}`
  }
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2">
      {page > 1 ? (
        <Link to={to(page - 1)} className={buttonClass('secondary')} preventScrollReset={!hash} rel="prev">
          {previousLabel}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">
        {summary ?? (pageCount === undefined ? `Page ${page}` : `Page ${page} of ${pageCount}`)}
      </span>
      {next ? (
        <Link to={to(page + 1)} className={buttonClass('secondary')} preventScrollReset={!hash} rel="next">
          {nextLabel}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
