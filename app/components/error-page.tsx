import { Link } from 'react-router'
import { buttonClass } from './ui/button'

/** The friendly page for unknown URLs and unexpected errors, always with a way back. */
export function ErrorPage({ status }: { status: number }) {
  const notFound = status === 404
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
