// POST /app/jobs/:jobId/photos — one photo of a visit (multipart: `photo`, `label`, `clientKey`). The phone's queue
// (Accept: application/json) gets JSON:
//   200 { ok: true, photo: { id, label, url, thumbUrl } }   stored (or a replay of `clientKey`: stored once)
//   4xx { ok: false, refused: true, code, message }        never stored; final (visit reassigned, not an image…)
//   4xx { ok: false, message }                             not stored, worth sending again (the upload broke off)
//   401 { ok: false, signedOut: true }                      the session ended: the queue waits for a login
// A plain form post (no JavaScript) is redirected back to the visit with the outcome in the URL.
import { redirect } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { notFoundResponse, noticeOf, wantsJson } from '~/features/visits/photo-answers.server'
import {
  isVisitOfCompany,
  MAX_UPLOAD_REQUEST_BYTES,
  PHOTO_MESSAGES,
  savePhoto,
  shownPhoto,
} from '~/models/photo.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { type FailureCode, failureStatus } from '~/utils/result'
import type { Route } from './+types/job-photos'

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
  | { ok: false; status: number; code: FailureCode; message: string; refused: boolean }

function refused(status: number, code: FailureCode, message: string): Outcome {
  return { ok: false, status, code, message, refused: true }
}

async function upload(request: Request, jobId: string): Promise<Outcome> {
  const declared = Number(request.headers.get('Content-Length'))
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_REQUEST_BYTES) {
    return refused(413, 'invalid', PHOTO_MESSAGES.tooLarge)
  }
  const member = await requireCompanyCapability(request, 'jobs:work')
  // Another company's visit does not exist for this member. (Whether the visit is still theirs to work is asked
  // after reading the form: a photo sent again for a visit completed meanwhile still gets its first answer.)
  if (!(await isVisitOfCompany({ companyId: member.companyId, jobId }))) {
    return refused(404, 'not-found', PHOTO_MESSAGES.noJob)
  }
  if (!(request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return refused(400, 'invalid', PHOTO_MESSAGES.noFile)
  }
  // A connection that drops mid-upload (a phone losing signal) ends here: nothing was stored, and the queue tries
  // again (no `refused`).
  const body = await readBodyCapped(request, MAX_UPLOAD_REQUEST_BYTES).catch(() => 'interrupted' as const)
  if (body === 'interrupted') {
    return { ok: false, status: 400, code: 'invalid', message: PHOTO_MESSAGES.interrupted, refused: false }
  }
  if (!body) return refused(413, 'invalid', PHOTO_MESSAGES.tooLarge)
  let form: FormData
  try {
    form = await new Response(body, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData()
  } catch {
    return refused(400, 'invalid', PHOTO_MESSAGES.noFile)
  }
  const file = form.get('photo')
  if (!(file instanceof File) || file.size === 0) return refused(400, 'invalid', PHOTO_MESSAGES.noFile)
  const clientKey = form.get('clientKey')

  try {
    const saved = await savePhoto({
      member,
      jobId,
      label: String(form.get('label') ?? ''),
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      clientKey: typeof clientKey === 'string' && clientKey ? clientKey : null,
    })
    if (!saved.ok) {
      const status = saved.message === PHOTO_MESSAGES.tooLarge ? 413 : failureStatus(saved)
      return status >= 500
        ? { ok: false, status, code: saved.code, message: saved.message, refused: false }
        : refused(status, saved.code, saved.message)
    }
    return { ok: true, photo: shownPhoto(jobId, saved.photo) }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, jobId }, 'photo upload failed')
    return { ok: false, status: 500, code: 'failed', message: PHOTO_MESSAGES.failed, refused: false }
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { jobId } = params
  const json = wantsJson(request)
  if (!isUuid(jobId)) {
    return json
      ? Response.json(
          { ok: false, refused: true, code: 'not-found', message: PHOTO_MESSAGES.noJob },
          { status: 404, headers: NO_STORE },
        )
      : notFoundResponse()
  }

  let outcome: Outcome
  try {
    outcome = await upload(request, jobId)
  } catch (thrown) {
    // A script cannot follow the login redirect: it is told, and keeps the photo until the technician signs in.
    if (json && thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      return Response.json({ ok: false, signedOut: true }, { status: 401, headers: NO_STORE })
    }
    throw thrown
  }

  if (json) {
    if (outcome.ok) return Response.json({ ok: true, photo: outcome.photo }, { headers: NO_STORE })
    const { status, code, message } = outcome
    return Response.json(outcome.refused ? { ok: false, refused: true, code, message } : { ok: false, message }, {
      status,
      headers: NO_STORE,
    })
  }
  if (!outcome.ok && outcome.status === 404) return notFoundResponse()
  const back = `/app/jobs/${jobId}`
  // 303: the browser follows with a GET, so a reload does not post the photo again.
  return outcome.ok
    ? redirect(`${back}?photo=saved#photos`, 303)
    : redirect(`${back}?photoError=${encodeURIComponent(noticeOf(outcome.message))}#photos`, 303)
}
