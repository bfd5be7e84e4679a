import { useEffect } from 'react'
import { Outlet, useRevalidator } from 'react-router'
import { requireStaffAppUser } from '~/auth/guards.server'
import { AppShell } from '~/components/app-shell'
import { FieldStatus } from '~/components/field-status'
import { RouteError } from '~/components/route-error'
import { clearOfflineCopies, registerServiceWorker } from '~/field/offline-app.client'
import { queueBelongsTo, startFieldQueue } from '~/field/queue'
import { type Capability, can, ROLE_LABELS, type Role } from '~/utils/permissions'
import { useLiveUpdates } from '~/utils/use-live-updates'
import type { Route } from './+types/layout'

/** The staff app's navigation; each entry shows only to roles that may use it. */
/** `more`: folded under "More" on a wide screen when the row would not fit (AppShell). */
const NAV: Array<{
  to: string
  label: string
  capability: Capability
  end?: boolean
  roles?: Role[]
  more?: boolean
}> = [
  { to: '/app', label: 'Dashboard', capability: 'app:dashboard', end: true },
  // A dispatcher's dashboard is the dispatch board already.
  { to: '/app/dispatch', label: 'Dispatch', capability: 'visits:manage', roles: ['owner', 'admin'] },
  { to: '/app/customers', label: 'Customers', capability: 'customers:manage' },
  { to: '/app/billing', label: 'Billing', capability: 'billing:manage' },
  { to: '/app/quotes', label: 'Quotes', capability: 'quotes:manage', more: true },
  { to: '/app/schedule', label: 'Schedule', capability: 'visits:manage' },
  { to: '/app/inventory', label: 'Inventory', capability: 'inventory:search', more: true },
  { to: '/app/truck', label: 'My truck', capability: 'inventory:search', roles: ['tech'], more: true },
  { to: '/app/timesheets', label: 'Timesheets', capability: 'time:manage', more: true },
  { to: '/app/team', label: 'Team', capability: 'team:invite', more: true },
  { to: '/app/settings', label: 'Settings', capability: 'settings:view', more: true },
  { to: '/staff/setup', label: 'Staff Tools', capability: 'staff:tools', more: true },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireStaffAppUser(request)
  const { role, company } = user
  return {
    // Whose changes the phone's queue sends and shows (app/field/queue.ts, decision 030).
    userId: user.id,
    email: user.email,
    fullName: user.profile?.fullName ?? null,
    role: role as Role,
    roleLabel: ROLE_LABELS[role],
    companyName: company?.name ?? null,
    // Live updates for members who work visits in a company (SSE at /app/events).
    live: Boolean(company) && can(role, 'visits:work'),
  }
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  useLiveUpdates(loaderData.live)
  useOfflineApp(loaderData.userId)
  const nav = NAV.filter(
    (item) => can(loaderData.role, item.capability) && (!item.roles || item.roles.includes(loaderData.role)),
  )
  return (
    <AppShell
      homeTo="/app"
      tag={
        loaderData.companyName ? (
          <span className="hidden text-sm text-slate-500 sm:inline">{loaderData.companyName}</span>
        ) : null
      }
      navLabel="App"
      nav={nav}
      email={loaderData.email}
      roleLabel={loaderData.roleLabel}
      status={<FieldStatus />}
    >
      <Outlet />
    </AppShell>
  )
}

/**
 * The staff app works offline on a phone (issue #19, decision 019): its service worker, and the queue of visit
 * changes, which sends this person's waiting changes now and whenever the connection returns, then reloads the
 * page's data. A shared phone (decision 030): the queue shows and sends only `owner`'s changes, and a session found
 * ended (401) empties the saved pages.
 */
function useOfflineApp(owner: string) {
  const { revalidate } = useRevalidator()
  useEffect(() => {
    registerServiceWorker()
    queueBelongsTo(owner, { whenSignedOut: () => void clearOfflineCopies() })
    startFieldQueue(() => void revalidate())
  }, [owner, revalidate])
}

export function ErrorBoundary() {
  return <RouteError />
}
