// /app/dispatch: the dispatch board for owners and admins, whose /app is their own overview.
// The same board (and the same loader and action code) is a dispatcher's /app.

import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { DispatcherDashboard } from '~/dashboards/dispatcher-dashboard'
import { dispatchBoardAction, loadDispatchBoard } from '~/dashboards/dispatcher-dashboard.server'
import type { Route } from './+types/dispatch'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  return loadDispatchBoard(request, member.companyId, member.timezone)
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  return dispatchBoardAction(request, member.companyId, member.timezone, member.id)
}

export function meta() {
  return [{ title: 'Dispatch board · Pool Bud' }]
}

export default function DispatchBoard({ loaderData }: Route.ComponentProps) {
  return <DispatcherDashboard data={loaderData} />
}

export function ErrorBoundary() {
  return <RouteError />
}
