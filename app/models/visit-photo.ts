// A visit's photos (docs/product.md "The visit": several, each labeled Before / After / Other) as the server and the
// browser both know them: the labels, the limits and the messages. The browser checks a file before sending it; the
// server checks again (app/models/photo.server.ts) with the same numbers and words.

import { MAX_PHOTO_BYTES, PHOTO_FILE_MESSAGES } from '~/field/photo-rules'
import { PHOTO_LABELS, type PhotoLabel } from '~/utils/photo-fields'

export { MAX_PHOTO_BYTES, PHOTO_LABELS, type PhotoLabel }

export const PHOTO_LABEL_NAMES: Record<PhotoLabel, string> = { before: 'Before', after: 'After', other: 'Other' }

export function isPhotoLabel(value: unknown): value is PhotoLabel {
  return typeof value === 'string' && (PHOTO_LABELS as readonly string[]).includes(value)
}

/** Photos one visit may hold: plenty for a pool, and a bound on what one visit can fill the storage with. */
export const MAX_VISIT_PHOTOS = 20

export const PHOTO_MESSAGES = {
  ...PHOTO_FILE_MESSAGES,
  tooManyPixels: 'Photos must be 40 megapixels or smaller.',
  noVisit: 'Visit not found.',
  noPhoto: 'Photo not found.',
  noFile: 'Choose a photo to upload.',
  interrupted: 'The upload was interrupted. Check your connection and try again.',
  badLabel: 'Label the photo Before, After or Other.',
  tooMany: `A visit can hold at most ${MAX_VISIT_PHOTOS} photos. Remove one to add another.`,
  failed: 'Unable to save photo. Try again.',
} as const

/** A photo as the visit page shows it: URLs of the authorized route, never storage keys. */
export type VisitPhotoView = { id: string; label: PhotoLabel; url: string; thumbUrl: string }
