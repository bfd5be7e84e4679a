import { redirect } from 'react-router'
import { requireCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import type { Route } from './+types/index'

// /staff → /staff/setup, for platform admins; everyone else gets the 'Restricted area' card.
export async function loader({ request }: Route.LoaderArgs) {
  await requireCapability(request, 'staff:tools')
  throw redirect('/staff/setup')
}

export function ErrorBoundary() {
  return <RouteError />
}
