// How a visit photo's label (Before / After / Other, OPERATIONS §5) reads, for the server and the browser alike.
import { PHOTO_LABELS, type PhotoLabel } from '~/db/schema/visit-work'

export { PHOTO_LABELS, type PhotoLabel }

export const PHOTO_LABEL_NAMES: Record<PhotoLabel, string> = { before: 'Before', after: 'After', other: 'Other' }

export function isPhotoLabel(value: unknown): value is PhotoLabel {
  return typeof value === 'string' && (PHOTO_LABELS as readonly string[]).includes(value)
}
