// How the photo routes answer (app/routes/resources/job-photos.ts and job-photo.ts): JSON to the phone's queue and
// scripts, redirects back to the visit for a plain form.
import { PHOTO_MESSAGES, photoNotice } from '~/models/visit-photo'

export function notFoundResponse() {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}

/**
 * A stored photo as the browser gets it. Private: a shared cache must never hand one company's or customer's photo
 * to someone else. A photo id never changes its picture, so the phone may keep it (and show it offline) a long time.
 */
export function photoResponse(bytes: Uint8Array, size: 'thumb' | 'full') {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': 'private, max-age=2592000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="photo${size === 'thumb' ? '-thumb' : ''}.jpg"`,
    },
  })
}

/** The page shows only messages of its own list (photoNotice); a reason with details reads as the general one. */
export function noticeOf(message: string) {
  return photoNotice(message) ?? PHOTO_MESSAGES.visitClosed
}

export function wantsJson(request: Request) {
  return (request.headers.get('Accept') ?? '').includes('application/json')
}
