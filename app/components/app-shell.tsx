import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import { cn } from './ui/cn'
import { UserMenu } from './user-menu'

export type ShellNavItem = { to: string; label: string; end?: boolean }

/** The signed-in frame of the staff app and the platform's staff area: brand, nav, user menu. */
export function AppShell({
  homeTo,
  tag,
  navLabel,
  nav,
  email,
  roleLabel,
  children,
}: {
  homeTo: string
  /** Beside the brand: the company's name, or the area's badge. */
  tag?: ReactNode
  navLabel: string
  nav: ShellNavItem[]
  email: string | null
  roleLabel: string
  children: ReactNode
}) {
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:gap-x-6">
          <Link to={homeTo} className="flex items-center gap-2 font-bold text-brand-800">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Pool Bud</span>
          </Link>
          {tag}
          {/* On a phone the links wrap onto a second row rather than hide off-screen behind a sideways scroll. */}
          <nav aria-label={navLabel} className="order-last flex w-full flex-wrap gap-1 sm:order-none sm:w-auto">
            {nav.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  cn(
                    'inline-flex min-h-11 shrink-0 items-center rounded-lg px-2.5 text-sm font-medium sm:px-3',
                    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100',
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
          <UserMenu email={email} roleLabel={roleLabel} />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {children}
      </main>
    </div>
  )
}
