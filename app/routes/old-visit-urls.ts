import { redirect } from 'react-router'
import type { Route } from './+types/old-visit-urls'

// A visit's address before the product chose one word for it (docs/decisions/069-…): `/jobs/…` and `/app/jobs/…`
// live on in sent emails, bookmarks and a phone's open tab, so each answers with the same path under `visits`.
// Permanent: 301 for a page or a photo, 308 for a post (a photo sent from a page loaded before the change), which a
// browser repeats with its body. The page it leads to checks who is asking.
function visitsUrl(request: Request) {
  const url = new URL(request.url)
  url.pathname = url.pathname.replace(/^\/(app\/)?jobs(?=\/|$)/, (_, app: string | undefined) => `/${app ?? ''}visits`)
  return url.pathname + url.search
}

export async function loader({ request }: Route.LoaderArgs) {
  throw redirect(visitsUrl(request), 301)
}

export async function action({ request }: Route.ActionArgs) {
  throw redirect(visitsUrl(request), 308)
}
