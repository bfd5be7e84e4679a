// GET /customer/:customerId/photos/:visitId/:photoId[?size=thumb] — a photo of one of
// the customer's own visits, for the people who may see that portal (the customer, or staff of
// the company previewing it). Customers have no access to the staff photo route, so the portal
// serves its photos here; anything else, including a visit of another customer, is a plain 404.

import { notFoundResponse, requirePortalAccess } from '~/auth/guards.server'
import { photoResponse } from '~/features/visits/photo-answers.server'
import { getPortalPhoto } from '~/models/portal.server'
import type { Route } from './+types/customer-photo'

export async function loader({ request, params }: Route.LoaderArgs) {
  // Visitors are sent to log in, like every other private page; anyone else without access gets a plain 404.
  const access = await requirePortalAccess(request, params.customerId, () => {
    throw notFoundResponse()
  })
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full'
  const photo = await getPortalPhoto({
    companyId: access.companyId,
    customerId: access.customerId,
    visitId: params.visitId,
    photoId: params.photoId,
    size,
  })
  if (!photo) throw notFoundResponse()
  return photoResponse(photo.bytes, size)
}
