import { requireCompanyCapability } from '~/auth/guards.server'
import { openLiveStream } from '~/auth/live-stream.server'
import type { Route } from './+types/events'

// Server-Sent Events for the signed-in member's company: pages revalidate when told.
// Technicians hear about their company's visits but each page still loads only what they may see.
export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'visits:work')
  return openLiveStream(request, member)
}
