// GET    /app/jobs/:jobId/photos/:photoId[?size=thumb] — one photo of a visit, only for people who may see the visit
//        (its company's staff, technicians only on their own visits, platform admins read-only).
// DELETE /app/jobs/:jobId/photos/:photoId — removes it (JSON answer), or POST with intent=remove from a plain form
//        (redirected back to the visit, so removing works without JavaScript too).
import { redirect } from 'react-router'
import { requireCompanyCapability, requireJobViewer } from '~/auth/guards.server'
import { notFoundResponse, noticeOf, photoResponse, wantsJson } from '~/features/visits/photo-answers.server'
import { deletePhoto, getPhotoForViewer } from '~/models/photo.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { readForm } from '~/utils/forms'
import { isUuid } from '~/utils/ids'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/job-photo'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireJobViewer(request)
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full'
  const photo = await getPhotoForViewer(viewer, params.jobId, params.photoId, size)
  if (!photo) throw notFoundResponse()
  return photoResponse(photo.bytes, size)
}

export async function action({ request, params }: Route.ActionArgs) {
  const json = wantsJson(request)
  const { jobId, photoId } = params
  // DELETE from a script; a plain form (no JavaScript) posts intent=remove.
  let remove = request.method === 'DELETE'
  if (request.method === 'POST') {
    const form = await readForm(request).catch(() => null)
    const intent = form?.get('intent')
    remove = intent === 'remove'
  }
  if (!remove || !isUuid(jobId) || !isUuid(photoId)) {
    if (!json) return notFoundResponse()
    return Response.json({ ok: false, message: 'Not found.' }, { status: 404, headers: NO_STORE })
  }
  let member: Awaited<ReturnType<typeof requireCompanyCapability>>
  try {
    member = await requireCompanyCapability(request, 'jobs:work')
  } catch (thrown) {
    if (json && thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      return Response.json({ ok: false, signedOut: true }, { status: 401, headers: NO_STORE })
    }
    throw thrown
  }
  let removed: Awaited<ReturnType<typeof deletePhoto>>
  try {
    removed = await deletePhoto({ member, jobId, photoId })
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
  const back = `/app/jobs/${jobId}`
  return removed.ok
    ? redirect(`${back}?photo=removed#photos`, 303)
    : redirect(`${back}?photoError=${encodeURIComponent(noticeOf(removed.message))}#photos`, 303)
}
