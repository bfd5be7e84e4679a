// GET    /app/visits/:visitId/photos/:photoId[?size=thumb] — one photo of a visit, only for people who may see the visit
//        (its company's staff, technicians only on their own visits, platform admins read-only).
// DELETE /app/visits/:visitId/photos/:photoId — removes it (JSON answer), or POST with intent=remove from a plain form
//        (redirected back to the visit, so removing works without JavaScript too).
import {
  notFoundResponse,
  requireCompanyCapability,
  requireCompanyCapabilityForScript,
  requireVisitViewer,
} from '~/auth/guards.server'
import { backToPhotos, PHOTO_DONE, photoResponse, wantsJson } from '~/features/visits/photo-answers.server'
import { PhotoRemoveSchema } from '~/features/visits/visit-photo-schema'
import { deletePhoto, getPhotoForViewer } from '~/models/photo-access.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { readForm } from '~/utils/forms'
import { isUuid } from '~/utils/ids'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/visit-photo'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireVisitViewer(request)
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full'
  const photo = await getPhotoForViewer(viewer, params.visitId, params.photoId, size)
  if (!photo) throw notFoundResponse()
  return photoResponse(photo.bytes, size)
}

/**
 * Whether a plain form's post asks to remove the photo. A body that is not a form at all (the body parser
 * rejects it with a TypeError) is no form of ours: it asks nothing.
 */
async function postsRemove(request: Request) {
  const form = await readForm(request).catch((error: unknown) => {
    if (error instanceof TypeError) return null
    throw error
  })
  return form !== null && PhotoRemoveSchema.safeParse(Object.fromEntries(form)).success
}

export async function action({ request, params }: Route.ActionArgs) {
  const json = wantsJson(request)
  const { visitId, photoId } = params
  // DELETE from a script; a plain form (no JavaScript) posts intent=remove.
  const remove = request.method === 'DELETE' || (request.method === 'POST' && (await postsRemove(request)))
  if (!remove || !isUuid(visitId) || !isUuid(photoId)) {
    if (!json) return notFoundResponse()
    return Response.json({ ok: false, message: 'Not found.' }, { status: 404, headers: NO_STORE })
  }
  // A script is told it was signed out; a plain form goes to log in.
  const member = json
    ? await requireCompanyCapabilityForScript(request, 'visits:work')
    : await requireCompanyCapability(request, 'visits:work')
  let removed: Awaited<ReturnType<typeof deletePhoto>>
  try {
    removed = await deletePhoto({ member, visitId, photoId })
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    throw error
  }
  if (json) {
    return removed.ok
      ? Response.json({ ok: true }, { headers: NO_STORE })
      : Response.json(
          { ok: false, refused: true, code: removed.code, message: removed.message },
          { status: failureStatus(removed), headers: NO_STORE },
        )
  }
  if (!removed.ok && removed.code === 'not-found') return notFoundResponse()
  return backToPhotos(visitId, removed.ok ? { ok: true, done: PHOTO_DONE.removed } : removed)
}
