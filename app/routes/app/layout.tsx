import { Form, Link, NavLink, Outlet, redirect } from 'react-router'
import { RouteError } from '~/components/route-error'
import { cn } from '~/components/ui/cn'
import { getCompanySummary } from '~/models/company.server'
import { type Capability, can, ROLE_LABELS, type Role } from '~/utils/permissions'
import { forbidden, homePathFor, requireUser } from '~/utils/permissions.server'
import { useLiveUpdates } from '~/utils/use-live-updates'
import type { Route } from './+types/layout'

/** The staff app's navigation; each entry shows only to roles that may use it. */
const NAV: Array<{ to: string; label: string; capability: Capability; end?: boolean }> = [
  { to: '/app', label: 'Dashboard', capability: 'app:dashboard', end: true },
  { to: '/app/customers', label: 'Customers', capability: 'customers:manage' },
  { to: '/app/inventory', label: 'Inventory', capability: 'inventory:search' },
  { to: '/app/settings', label: 'Settings', capability: 'settings:view' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const role = user.profile?.role
  if (role === 'customer') {
    // Customers belong in their portal; one whose record is gone has nowhere in the staff app.
    const home = await homePathFor(user)
    if (home.startsWith('/customer')) throw redirect(home)
    forbidden('no-access')
  }
  if (!role) forbidden('setup-incomplete')
  const company = user.profile?.companyId ? await getCompanySummary(user.profile.companyId) : null
  return {
    email: user.email,
    fullName: user.profile?.fullName ?? null,
    role: role as Role,
    roleLabel: ROLE_LABELS[role],
    companyName: company?.name ?? null,
    // Live updates for members who work jobs in a company (SSE at /app/events).
    live: Boolean(company) && can(role, 'jobs:work'),
  }
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  useLiveUpdates(loaderData.live)
  const nav = NAV.filter((item) => can(loaderData.role, item.capability))
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
          <Link to="/app" className="flex items-center gap-2 font-bold text-brand-800">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Pool Bud</span>
          </Link>
          {loaderData.companyName ? (
            <span className="hidden text-sm text-slate-500 sm:inline">{loaderData.companyName}</span>
          ) : null}
          <nav aria-label="App" className="order-last flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto">
            {nav.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                end={item.end}
                className={({ isActive }) =>
                  cn(
                    'inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium',
                    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100',
                  )
                }
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
          <UserMenu email={loaderData.email} roleLabel={loaderData.roleLabel} />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  )
}

/** A disclosure menu (native <details>, so it works before JavaScript loads). */
function UserMenu({ email, roleLabel }: { email: string | null; roleLabel: string }) {
  return (
    <details className="relative ml-auto">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-lg px-3 text-sm font-medium text-slate-700 hover:bg-slate-100">
        <span className="max-w-40 truncate sm:max-w-64">{email || 'Account'}</span>
        <span aria-hidden="true">▾</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <p className="px-3 py-1 text-xs text-slate-500">{roleLabel}</p>
        <Link to="/app/account" className="flex min-h-11 items-center rounded-lg px-3 text-sm hover:bg-slate-100">
          My Account
        </Link>
        <Form method="post" action="/logout">
          <button
            type="submit"
            className="flex min-h-11 w-full items-center rounded-lg px-3 text-left text-sm hover:bg-slate-100"
          >
            Log out
          </button>
        </Form>
      </div>
    </details>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
