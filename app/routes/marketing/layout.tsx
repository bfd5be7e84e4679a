import { Link, NavLink, Outlet } from 'react-router'
import { getSessionUser } from '~/auth/guards.server'
import { Logo } from '~/components/marketing/logo'
import { MobileNav } from '~/components/marketing/mobile-nav'
import { MARKETING_LINKS, TRIAL_SIGNUP_PATH } from '~/components/marketing/nav-links'
import { buttonClass } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { env } from '~/utils/env.server'
import type { Route } from './+types/layout'

// Only a boolean leaves the server (the public pages never need to know who the visitor is), and the site's
// public origin for the pages' canonical and Open Graph links.
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request)
  return { signedIn: user !== null, origin: env().APP_URL }
}

export default function MarketingLayout({ loaderData }: Route.ComponentProps) {
  const { signedIn } = loaderData
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <a
        href="#main"
        className="sr-only rounded-lg bg-brand-800 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>

      {/* No backdrop-filter here: it would become the containing block of the fixed mobile drawer. */}
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-2 sm:px-6">
          <Logo />
          <nav aria-label="Main" className="hidden md:block">
            <ul className="flex items-center gap-1">
              {MARKETING_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    className={({ isActive }) =>
                      cn(
                        'inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold',
                        isActive
                          ? 'text-brand-800 underline underline-offset-8'
                          : 'text-slate-700 hover:text-brand-800',
                      )
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="hidden items-center gap-2 md:flex">
            {signedIn ? (
              <Link to="/app" className={buttonClass('primary')}>
                Go to Dashboard
              </Link>
            ) : (
              <>
                <Link to="/login" className={buttonClass('ghost')}>
                  Log in
                </Link>
                <Link to={TRIAL_SIGNUP_PATH} className={buttonClass('primary')}>
                  Get started
                </Link>
              </>
            )}
          </div>
          <MobileNav signedIn={signedIn} />
        </div>
      </header>

      {/* tabIndex lets the skip link move focus here, not just scroll, in every browser. */}
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>

      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
          <div className="max-w-xs">
            <Logo />
            <p className="mt-2 text-sm text-slate-600">
              Routes, an offline phone app, water chemistry, billing and a customer portal for pool-service companies.
            </p>
          </div>
          <nav aria-label="Footer">
            <ul className="grid grid-cols-2 gap-x-8 sm:flex sm:gap-x-2">
              {MARKETING_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-medium text-slate-700 hover:text-brand-800 hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <p className="mx-auto max-w-6xl px-4 pb-8 text-sm text-slate-600 sm:px-6">
          © {new Date().getFullYear()} Pool Bud
        </p>
      </footer>
    </div>
  )
}
