// How the photo routes answer (app/routes/resources/job-photos.ts and job-photo.ts): JSON to the phone's queue and
// scripts, redirects back to the visit for a plain form.
import { PHOTO_MESSAGES, photoNotice } from '~/models/visit-photo'

export function notFoundResponse() {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

/** The page shows only messages of its own list (photoNotice); a reason with details reads as the general one. */
export function noticeOf(message: string) {
  return photoNotice(message) ?? PHOTO_MESSAGES.visitClosed
}

export function wantsJson(request: Request) {
  return (request.headers.get('Accept') ?? '').includes('application/json')
}
