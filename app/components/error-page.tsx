import { Link, useLocation } from 'react-router'
import { DATABASE_UNAVAILABLE_MESSAGE } from '~/utils/database-unavailable'
import { buttonClass } from './ui/button'

/** What a page or form says while the database cannot be reached (HTTP 503; `database-unavailable.server.ts`). */

/** The friendly page for unknown URLs and unexpected errors, always with a way back. */
export function ErrorPage({ status }: { status: number }) {
  const location = useLocation()
  const notFound = status === 404
  if (status === 503) {
    return (
      <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
        <title>Briefly unavailable · Pool Bud</title>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Error 503</p>
        <h1 className="text-3xl font-bold text-slate-900">Pool Bud is briefly unavailable</h1>
        <p className="text-slate-600">{DATABASE_UNAVAILABLE_MESSAGE}</p>
        <div className="flex flex-wrap justify-center gap-3">
          <Link to={`${location.pathname}${location.search}`} reloadDocument className={buttonClass('primary')}>
            Try again
          </Link>
        </div>
      </main>
    )
  }
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 px-6 text-center">
      <title>{notFound ? 'Page not found · Pool Bud' : 'Something went wrong · Pool Bud'}</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
        {notFound ? '404' : `Error ${status}`}
      </p>
      <h1 className="text-3xl font-bold text-slate-900">
        {notFound ? 'We couldn’t find that page' : 'Something went wrong'}
      </h1>
      <p className="text-slate-600">
        {notFound
          ? 'The link may be old, or the page may have moved. Check the address, or head back to somewhere familiar.'
          : 'We hit a problem showing this page. Nothing you entered was lost — try again in a moment.'}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass('primary')}>
          Go to the home page
        </Link>
        <Link to="/app" className={buttonClass('secondary')}>
          Go to Dashboard
        </Link>
      </div>
    </main>
  )
}
