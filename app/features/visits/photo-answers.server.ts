// How the photo routes answer (app/routes/resources/visit-photos.ts and visit-photo.ts): JSON to the phone's queue and
// scripts, redirects back to the visit with a flash message for a plain form.
import { redirectWithFlash } from '~/utils/flash.server'
import type { Failure } from '~/utils/result'

/**
 * How long a browser may keep a photo: private (a shared cache must never hand one company's or customer's photo to
 * someone else) and one hour. A photo's picture never changes, but access to it can end — a technician deactivated,
 * a customer removed — and a long cache on a shared phone would outlive that; fetching again after an hour is cheap.
 * SECURITY.md's caching row states the same value.
 */
export const PHOTO_CACHE_CONTROL = 'private, max-age=3600'

/** A stored photo as the browser gets it. */
export function photoResponse(bytes: Uint8Array, size: 'thumb' | 'full') {
  return new Response(new Uint8Array(bytes), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(bytes.byteLength),
      'Cache-Control': PHOTO_CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': `inline; filename="photo${size === 'thumb' ? '-thumb' : ''}.jpg"`,
    },
  })
}

/** What a plain form's success says. */
export const PHOTO_DONE = { uploaded: 'Photo uploaded.', removed: 'Photo removed.' } as const

/**
 * A plain form's answer: back to the visit's photos with the outcome shown once (303, so a reload does not post
 * the form again).
 */
export function backToPhotos(visitId: string, outcome: { ok: true; done: string } | Failure): Promise<never> {
  return redirectWithFlash(
    `/app/visits/${visitId}#photos`,
    outcome.ok ? outcome.done : { tone: 'error', text: outcome.message },
    { status: 303 },
  )
}

export function wantsJson(request: Request) {
  return (request.headers.get('Accept') ?? '').includes('application/json')
}
