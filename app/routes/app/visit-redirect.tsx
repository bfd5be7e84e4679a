import { redirect } from 'react-router'
import { requireUser } from '~/auth/guards.server'
import type { Route } from './+types/visit-redirect'

// /visits/{id} (a visit card's "Open") is the same page as /app/visits/{id}, inside the app shell.
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request)
  throw redirect(`/app/visits/${encodeURIComponent(params.visitId)}`)
}
