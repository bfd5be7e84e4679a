import { Link, useLocation } from 'react-router'
import { buttonClass } from './ui/button'

/**
 * "Previous" / "Next" for any paged list. The links keep every search parameter of the current page (search text,
 * filters) and change only `param`, so paging never loses what the list is showing. Give `pageCount` when the list
 * knows its total, else `hasNext`.
 */
export function Pager({
  page,
  pageCount,
  hasNext,
  label,
  param = 'page',
}: {
  page: number
  pageCount?: number
  hasNext?: boolean
  /** What is paged, for screen readers ("Customer pages"). */
  label: string
  /** The search parameter holding the page number, when a page has two paged lists. */
  param?: string
}) {
  const location = useLocation()
  const next = pageCount === undefined ? Boolean(hasNext) : page < pageCount
  if (page <= 1 && !next) return null
  const to = (target: number) => {
    const params = new URLSearchParams(location.search)
    if (target > 1) params.set(param, String(target))
    else params.delete(param)
    const search = params.toString()
    return `${location.pathname}${search ? `?${search}` : ''}`
  }
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2">
      {page > 1 ? (
        <Link to={to(page - 1)} className={buttonClass('secondary')} preventScrollReset>
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">
        {pageCount === undefined ? `Page ${page}` : `Page ${page} of ${pageCount}`}
      </span>
      {next ? (
        <Link to={to(page + 1)} className={buttonClass('secondary')} preventScrollReset>
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
