// GET  /app/jobs/:jobId/photos/:kind[?size=thumb] — a job photo, only for people who may see the job.
// POST /app/jobs/:jobId/photos/:kind — upload (multipart field "photo"). Answers JSON to the
// page's script (Accept: application/json) and redirects back to the job for a plain form post,
// so uploading works without JavaScript too.
import { redirect } from 'react-router'
import { requireCompanyCapability, requireJobViewer } from '~/auth/guards.server'
import { getJobForViewer } from '~/models/job.server'
import {
  getPhotoForViewer,
  isPhotoKind,
  MAX_UPLOAD_REQUEST_BYTES,
  PHOTO_MESSAGES,
  type PhotoKind,
  photoUrl,
  savePhoto,
} from '~/models/photo.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import type { Route } from './+types/job-photo'

const NO_PHOTO = 'Choose a photo to upload.'
const UPLOAD_INTERRUPTED = 'The upload was interrupted. Check your connection and try again.'
const SESSION_ENDED = 'Your session has ended. Log in again to upload photos.'

function notFoundResponse() {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await requireJobViewer(request)
  if (!isPhotoKind(params.kind)) throw notFoundResponse()
  const size = new URL(request.url).searchParams.get('size') === 'thumb' ? 'thumb' : 'full'
  const photo = await getPhotoForViewer(viewer, params.jobId, params.kind, size)
  if (!photo) throw notFoundResponse()
  return new Response(new Uint8Array(photo.bytes), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(photo.bytes.byteLength),
      // Private: a shared cache must never hand one company's photo to someone else.
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="${params.kind}${size === 'thumb' ? '-thumb' : ''}.jpg"`,
    },
  })
}

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

type Outcome = { ok: true; url: string } | { ok: false; status: 400 | 401 | 404 | 413 | 500; message: string }

async function upload(request: Request, jobId: string, kind: PhotoKind): Promise<Outcome> {
  const declared = Number(request.headers.get('Content-Length'))
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_REQUEST_BYTES) {
    return { ok: false, status: 413, message: PHOTO_MESSAGES.tooLarge }
  }
  const member = await requireCompanyCapability(request, 'jobs:work')
  // The same check as the job page: company, and technicians only on their own jobs.
  const job = await getJobForViewer({ id: member.id, role: member.role, companyId: member.companyId }, jobId)
  if (!job) return { ok: false, status: 404, message: PHOTO_MESSAGES.noJob }

  if (!(request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    return { ok: false, status: 400, message: NO_PHOTO }
  }
  // A connection that drops mid-upload (a phone losing signal) ends here: nothing was stored.
  const body = await readBodyCapped(request, MAX_UPLOAD_REQUEST_BYTES).catch(() => 'interrupted' as const)
  if (body === 'interrupted') return { ok: false, status: 400, message: UPLOAD_INTERRUPTED }
  if (!body) return { ok: false, status: 413, message: PHOTO_MESSAGES.tooLarge }
  let file: FormDataEntryValue | null
  try {
    const form = await new Response(body, {
      headers: { 'Content-Type': request.headers.get('Content-Type') ?? '' },
    }).formData()
    file = form.get('photo')
  } catch {
    return { ok: false, status: 400, message: NO_PHOTO }
  }
  if (!(file instanceof File) || file.size === 0) return { ok: false, status: 400, message: NO_PHOTO }

  try {
    const saved = await savePhoto({
      companyId: member.companyId,
      jobId: job.id,
      kind,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    })
    if (!saved.ok) {
      const status =
        saved.message === PHOTO_MESSAGES.tooLarge ? 413 : saved.message === PHOTO_MESSAGES.noJob ? 404 : 400
      return { ok: false, status, message: saved.message }
    }
    return { ok: true, url: photoUrl(job.id, kind, saved.key) ?? '' }
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, jobId: job.id, kind }, 'photo upload failed')
    return { ok: false, status: 500, message: PHOTO_MESSAGES.failed }
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const { jobId, kind } = params
  const wantsJson = (request.headers.get('Accept') ?? '').includes('application/json')
  if (!isUuid(jobId) || !isPhotoKind(kind)) {
    return wantsJson ? Response.json({ ok: false, message: PHOTO_MESSAGES.noJob }, { status: 404 }) : notFoundResponse()
  }

  let outcome: Outcome
  try {
    outcome = await upload(request, jobId, kind)
  } catch (thrown) {
    // A script cannot follow the login redirect; tell it plainly instead.
    if (wantsJson && thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      return Response.json({ ok: false, message: SESSION_ENDED }, { status: 401 })
    }
    throw thrown
  }

  if (wantsJson) {
    return outcome.ok
      ? Response.json({ ok: true, url: outcome.url })
      : Response.json({ ok: false, message: outcome.message }, { status: outcome.status })
  }
  if (!outcome.ok && outcome.status === 404) return notFoundResponse()
  const back = `/app/jobs/${jobId}`
  // 303: the browser follows with a GET, so a reload does not post the photo again.
  return outcome.ok
    ? redirect(`${back}?photo=saved`, 303)
    : redirect(`${back}?photoError=${encodeURIComponent(outcome.message)}`, 303)
}
