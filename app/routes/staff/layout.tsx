// The platform's staff area. Its own loader checks the role, and so does every child route's
// (a layout's check does not protect its children).
import { Outlet } from 'react-router'
import { requireCapability } from '~/auth/guards.server'
import { AppShell } from '~/components/app-shell'
import { RouteError } from '~/components/route-error'
import { ROLE_LABELS } from '~/utils/permissions'
import type { Route } from './+types/layout'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCapability(request, 'staff:tools')
  return { email: user.email, roleLabel: ROLE_LABELS[user.role] }
}

const NAV = [
  { to: '/staff/setup', label: 'Company Setup', end: true },
  { to: '/app', label: 'App', end: true },
]

export default function StaffLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell
      homeTo="/staff/setup"
      tag={<span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-semibold text-white">Staff</span>}
      navLabel="Staff"
      nav={NAV}
      email={loaderData.email}
      roleLabel={loaderData.roleLabel}
    >
      <Outlet />
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
