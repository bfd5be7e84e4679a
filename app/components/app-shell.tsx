import type { ReactNode } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { Disclosure } from './disclosure'
import { FlashMessage, useRootFlash } from './flash-message'
import { cn } from './ui/cn'
import { AccountLinks, UserMenu } from './user-menu'

/** `more`: on a wide screen, under the nav's "More" menu (the owner's row fits 1280 px: decision 049). */
export type ShellNavItem = { to: string; label: string; end?: boolean; more?: boolean }

/** With this many links or fewer the nav has no "More": every link fits the row. */
const ONE_ROW = 6

/**
 * The wide screen's nav: one row. Past ONE_ROW links, those marked `more` open from "More" (a native <details>, so a
 * keyboard opens it with Enter or Space, and Escape closes it), which shows as current when one of them is.
 */
function WideNav({ nav, label }: { nav: ShellNavItem[]; label: string }) {
  const { pathname } = useLocation()
  const folded = nav.length > ONE_ROW ? nav.filter((item) => item.more) : []
  const inline = nav.filter((item) => !folded.includes(item))
  const current = folded.some((item) => pathname === item.to || pathname.startsWith(`${item.to}/`))
  return (
    <nav aria-label={label} className="hidden flex-nowrap items-center gap-1 lg:flex">
      <NavItems nav={inline} />
      {folded.length > 0 ? (
        <Disclosure
          summary={
            <>
              <span>More</span>
              <span aria-hidden="true">▾</span>
            </>
          }
          summaryClassName={cn('nav-link gap-1', current && 'bg-brand-50 text-brand-800')}
          panelClassName="left-0 right-auto w-48"
        >
          <div className="flex flex-col gap-1">
            <NavItems nav={folded} vertical />
          </div>
        </Disclosure>
      ) : null}
    </nav>
  )
}

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
  const flash = useRootFlash()
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2 lg:gap-4">
          <Link to={homeTo} className="flex min-h-11 shrink-0 items-center gap-2 font-bold text-brand-800">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Pool Bud</span>
          </Link>
          {/* The company's name is never cut: it wraps (the nav gives way to "More" first). */}
          <div className="min-w-0 max-w-48 shrink-0 leading-tight break-words" data-testid="shell-tag">
            {tag}
          </div>
          <WideNav nav={nav} label={navLabel} />
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
      {/* An action's message, under the navigation: it never covers the header, and leaves on the next page. */}
      <FlashMessage flash={flash} inline />
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        {children}
      </main>
    </div>
  )
}
