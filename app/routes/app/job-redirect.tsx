import { redirect } from 'react-router'
import { requireUser } from '~/auth/guards.server'
import type { Route } from './+types/job-redirect'

// /jobs/{id} (a job card's "Open") is the same page as /app/jobs/{id}, inside the app shell.
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request)
  throw redirect(`/app/jobs/${encodeURIComponent(params.jobId)}`)
}
