// POST /app/visits/:visitId/photos — one photo of a visit (multipart: `photo`, `label`, `clientKey`). The phone's queue
// (Accept: application/json) gets JSON:
//   200 { ok: true, photo: { id, label, url, thumbUrl } }   stored (or a replay of `clientKey`: stored once)
//   4xx { ok: false, refused: true, code, message }        never stored; final (visit reassigned, not an image…)
//   4xx { ok: false, message }                             not stored, worth sending again (the upload broke off)
//   401 { ok: false, signedOut: true }                      the session ended: the queue waits for a login
//   409 { ok: false, otherPerson: true, message }           taken by someone else on this phone: kept for them
// A plain form post (no JavaScript) is redirected back to the visit, the outcome shown there once.
import { notFoundResponse, requireCompanyCapability, requireCompanyCapabilityForScript } from '~/auth/guards.server'
import { refuseAnotherPersonsChange } from '~/auth/offline-owner.server'
import { backToPhotos, PHOTO_DONE, wantsJson } from '~/features/visits/photo-answers.server'
import { PhotoUploadSchema } from '~/features/visits/visit-photo-schema'
import { isVisitOfCompany, MAX_UPLOAD_REQUEST_BYTES, PHOTO_MESSAGES, shownPhoto } from '~/models/photo.server'
import { savePhoto } from '~/models/photo-access.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { type Failure, type FailureCode, failure, failureStatus } from '~/utils/result'
import type { Route } from './+types/visit-photos'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

/** Reads at most `limit` bytes of the body: a request without Content-Length cannot slip a huge upload past. */
async function readBodyCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel()
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, total)
}

type Outcome =
  | { ok: true; photo: ReturnType<typeof shownPhoto> }
  /** `refused`: final, the same upload will never be stored; otherwise sending it again may work. */
  | { ok: false; failure: Failure; refused: boolean }

function refused(code: FailureCode, message: string): Outcome {
  return { ok: false, failure: failure(code, message), refused: true }
}

async function upload(request: Request, visitId: string, json: boolean): Promise<Outcome> {
  const declared = Number(request.headers.get('Content-Length'))
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_REQUEST_BYTES) {
    return refused('too-large', PHOTO_MESSAGES.tooLarge)
  }
  // A script (the phone's queue) is told it was signed out; a plain form goes to log in.
  const member = json
    ? await requireCompanyCapabilityForScript(request, 'visits:work')
    : await requireCompanyCapability(request, 'visits:work')
  // A shared phone: another person's photo is never stored under this session (decision 030).
  refuseAnotherPersonsChange(request, member)
  // Another company's visit does not exist for this member. (Whether the visit is still theirs to work is asked
  // after reading the form: a photo sent again for a visit completed meanwhile still gets its first answer.)
  if (!(await isVisitOfCompany({ companyId: member.companyId, visitId }))) {
    return refused('not-found', PHOTO_MESSAGES.noVisit)
  }
  if (!(request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return refused('invalid', PHOTO_MESSAGES.noFile)
  }
  // A connection that drops mid-upload (a phone losing signal) ends here: nothing was stored, and the queue tries
  // again (no `refused`).
  const body = await readBodyCapped(request, MAX_UPLOAD_REQUEST_BYTES).catch(() => 'interrupted' as const)
  if (body === 'interrupted') {
    return { ok: false, failure: failure('invalid', PHOTO_MESSAGES.interrupted), refused: false }
  }
  if (!body) return refused('too-large', PHOTO_MESSAGES.tooLarge)
  let form: FormData
  try {
    form = await new Response(body, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData()
  } catch {
    // A body that does not parse as the multipart form it says it is: there is no photo in it.
    return refused('invalid', PHOTO_MESSAGES.noFile)
  }
  const fields = PhotoUploadSchema.safeParse(Object.fromEntries(form))
  if (!fields.success) return refused('invalid', fields.error.issues[0]?.message ?? PHOTO_MESSAGES.noFile)
  const { photo, label, clientKey } = fields.data

  try {
    const saved = await savePhoto({
      member,
      visitId,
      label,
      fileName: photo.name,
      bytes: new Uint8Array(await photo.arrayBuffer()),
      clientKey,
    })
    if (!saved.ok) return { ok: false, failure: saved, refused: failureStatus(saved) < 500 }
    return { ok: true, photo: shownPhoto(visitId, saved.photo) }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, visitId }, 'photo upload failed')
    return { ok: false, failure: failure('failed', PHOTO_MESSAGES.failed), refused: false }
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { visitId } = params
  const json = wantsJson(request)
  const outcome = isUuid(visitId) ? await upload(request, visitId, json) : refused('not-found', PHOTO_MESSAGES.noVisit)
  if (json) {
    if (outcome.ok) return Response.json({ ok: true, photo: outcome.photo }, { headers: NO_STORE })
    const { code, message } = outcome.failure
    return Response.json(outcome.refused ? { ok: false, refused: true, code, message } : { ok: false, message }, {
      status: failureStatus(outcome.failure),
      headers: NO_STORE,
    })
  }
  if (!outcome.ok && outcome.failure.code === 'not-found') return notFoundResponse()
  return backToPhotos(visitId, outcome.ok ? { ok: true, done: PHOTO_DONE.uploaded } : outcome.failure)
}
