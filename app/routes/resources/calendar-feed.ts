// GET /calendar/<token>.ics — a technician's visits for a phone calendar's subscription (docs/product.md "Schedule"
// "Calendar feed"). Phones send no session, so the secret in the URL is the credential; an unknown or reset token is a
// plain 404, the same whatever the reason, so the answer tells nothing about which tokens once existed.
import { notFoundResponse } from '~/auth/guards.server'
import { calendarFeedFor } from '~/models/calendar-feed.server'
import type { Route } from './+types/calendar-feed'

const FILE = /^(.+)\.ics$/

export async function loader({ params }: Route.LoaderArgs) {
  const token = FILE.exec(params.file)?.[1]
  const text = token ? await calendarFeedFor(token) : null
  if (text === null) {
    return notFoundResponse('Calendar not found. The link may have been reset: get the new one from My Account.')
  }
  return new Response(text, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Cache-Control': 'private, max-age=300',
      'Content-Disposition': 'inline; filename="pool-bud.ics"',
      // The token is in the URL: keep it out of search engines and other sites' Referer headers.
      'X-Robots-Tag': 'noindex',
      'Referrer-Policy': 'no-referrer',
    },
  })
}
