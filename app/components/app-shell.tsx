import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import { Disclosure } from './disclosure'
import { cn } from './ui/cn'
import { AccountLinks, UserMenu } from './user-menu'

export type ShellNavItem = { to: string; label: string; end?: boolean }

function NavItems({ nav, vertical = false }: { nav: ShellNavItem[]; vertical?: boolean }) {
  return nav.map((item) => (
    <NavLink
      key={item.to}
      to={item.to}
      end={item.end}
      // `.nav-link` (app.css) marks the current page by the aria-current="page" NavLink sets on it.
      className={cn('nav-link', vertical && 'w-full')}
    >
      {item.label}
    </NavLink>
  ))
}

/**
 * The signed-in frame of the staff app and the platform's staff area: brand, nav, user menu. On a wide screen the
 * nav sits in the header; on a phone the header stays one row (brand and a "Menu" button) and the nav, with the
 * account links, opens from that button.
 */
export function AppShell({
  homeTo,
  tag,
  navLabel,
  nav,
  email,
  roleLabel,
  status,
  children,
}: {
  homeTo: string
  /** Beside the brand: the company's name, or the area's badge. */
  tag?: ReactNode
  navLabel: string
  nav: ShellNavItem[]
  email: string | null
  roleLabel: string
  /** Under the header's row, full width on a phone: the staff app's offline and queue state (FieldStatus). */
  status?: ReactNode
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
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2 lg:gap-6">
          <Link to={homeTo} className="flex min-h-11 shrink-0 items-center gap-2 font-bold text-brand-800">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Pool Bud</span>
          </Link>
          <div className="min-w-0 truncate">{tag}</div>
          <nav aria-label={navLabel} className="hidden flex-wrap gap-1 lg:flex">
            <NavItems nav={nav} />
          </nav>
          <UserMenu email={email} roleLabel={roleLabel} />
          <Disclosure
            className="ml-auto lg:hidden"
            summary={
              <>
                <svg aria-hidden="true" viewBox="0 0 20 20" width="20" height="20" fill="currentColor">
                  <path d="M3 5h14v2H3zm0 4h14v2H3zm0 4h14v2H3z" />
                </svg>
                <span>Menu</span>
              </>
            }
            panelClassName="max-h-[80vh] overflow-y-auto"
          >
            <nav aria-label={navLabel} className="flex flex-col gap-1 border-b border-slate-200 pb-2">
              <NavItems nav={nav} vertical />
            </nav>
            <div className="pt-2">
              <AccountLinks email={email} roleLabel={roleLabel} />
            </div>
          </Disclosure>
        </div>
        {status ? <div className="mx-auto max-w-6xl px-4">{status}</div> : null}
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {children}
      </main>
    </div>
  )
}
