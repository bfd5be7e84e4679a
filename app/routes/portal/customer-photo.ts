// GET /customer/:customerId/photos/:jobId/:photoId[?size=thumb] — a photo of one of
// the customer's own visits, for the people who may see that portal (the customer, or staff of
// the company previewing it). Customers have no access to the staff photo route, so the portal
// serves its photos here; anything else, including a job of another customer, is a plain 404.

import { requireUser } from '~/auth/guards.server'
import { findPortalAccess, getPortalPhoto } from '~/models/portal.server'
import type { Route } from './+types/customer-photo'

function notFoundResponse() {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

export async function loader({ request, params }: Route.LoaderArgs) {
  // Visitors are sent to log in, like every other private page.
  const user = await requireUser(request)
  const access = await findPortalAccess(user, params.customerId)
  if (!access) throw notFoundResponse()
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full'
  const photo = await getPortalPhoto({
    companyId: access.companyId,
    customerId: access.customerId,
    jobId: params.jobId,
    photoId: params.photoId,
    size,
  })
  if (!photo) throw notFoundResponse()
  return new Response(new Uint8Array(photo.bytes), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(photo.bytes.byteLength),
      // Private: a shared cache must never hand one customer's photo to someone else.
      // A photo id never changes its picture.
      'Cache-Control': 'private, max-age=2592000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="photo${size === 'thumb' ? '-thumb' : ''}.jpg"`,
    },
  })
}
