import { useEffect } from 'react'
import { Link, useNavigate } from 'react-router'

/** Navigates to `to` after `ms`; without JavaScript the link (and a meta refresh) does the same. */
export function RedirectAfter({ to, ms, label }: { to: string; ms: number; label: string }) {
  const navigate = useNavigate()
  useEffect(() => {
    const timer = setTimeout(() => navigate(to, { replace: true }), ms)
    return () => clearTimeout(timer)
  }, [navigate, to, ms])
  return (
    <>
      {/* Only without JavaScript: with it, the timer navigates and a refresh would reload the page again. */}
      <noscript>
        <meta httpEquiv="refresh" content={`${Math.ceil(ms / 1000)};url=${to}`} />
      </noscript>
      <Link to={to} replace className="text-sm font-medium text-brand-700 underline">
        {label}
      </Link>
    </>
  )
}
