// A visit's photos (docs/product.md "The visit": several, each labeled Before / After / Other;
// docs/product.md "Roles"): image files only, checked by their content; at most 15 MB; re-encoded so no metadata
// (customers' home GPS) survives; stored privately under an unguessable key and served only to people who may see the
// visit. Here: the photos themselves (files, keys, addresses, rows), which the service report reads too. Saving,
// removing and viewing one as a member, each checked against the visit, is photo-access.server.ts: the report needs
// none of those checks, and importing them here put the report, visits and visits in one import cycle
// (docs/architecture.md "No cycles").
import { randomBytes } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import sharp, { type Metadata } from 'sharp'
import { visitPhotos, visits } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { deleteObject, getObject, InvalidStorageKeyError, putObject } from '~/utils/storage.server'
import { MAX_PHOTO_BYTES, MAX_VISIT_PHOTOS, PHOTO_MESSAGES, type PhotoLabel, type VisitPhotoView } from './visit-photo'

export { MAX_PHOTO_BYTES, MAX_VISIT_PHOTOS, PHOTO_MESSAGES }

export type PhotoSize = 'full' | 'thumb'

/** The photo limit plus room for the multipart envelope; a bigger upload request is refused unread. */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_PHOTO_BYTES + 1024 * 1024
/** Larger images are refused before decoding: a small file can unpack to gigabytes (a decompression bomb). */
export const MAX_PHOTO_PIXELS = 40_000_000
export const WEB_PHOTO_EDGE = 1600
export const THUMB_PHOTO_EDGE = 400

/** What sharp may decode. HEIC/AVIF report as "heif"; SVG, PDF, TIFF and the rest are refused. */
const ALLOWED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'gif'])

/**
 * The user's file name reduced to a short, harmless slug: no directories, no dots, nothing a
 * path or a URL could misread. `../../etc/passwd.jpg` becomes `passwd`.
 */
export function sanitizeFileName(fileName: string) {
  const base = fileName.split(/[\\/]/).pop() ?? ''
  const withoutExtension = base.replace(/\.[^.]*$/, '')
  const slug = withoutExtension
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return slug || 'photo'
}

/** `{visitId}/{label}-{timestamp}-{name}-{16 hex}`; the random part makes it unguessable. */
export function photoKey(visitId: string, label: PhotoLabel, fileName: string, now = new Date()) {
  if (!isUuid(visitId)) throw new Error('photoKey needs a visit id')
  return `${visitId}/${label}-${now.getTime()}-${sanitizeFileName(fileName)}-${randomBytes(8).toString('hex')}`
}

/** The stored files of one photo key: the web-size image and its thumbnail. */
export function photoObjectKey(key: string, size: PhotoSize) {
  return size === 'thumb' ? `${key}-thumb.jpg` : `${key}.jpg`
}

/**
 * The authorized route that serves a photo. A photo row never changes its files (a new photo is a new row), so the
 * id alone is a stable, cacheable address.
 */
export function photoUrl(visitId: string, photoId: string, size: PhotoSize = 'full') {
  return `/app/visits/${visitId}/photos/${photoId}${size === 'thumb' ? '?size=thumb' : ''}`
}

export type ProcessedPhoto = { full: Buffer; thumb: Buffer }

/**
 * Checks the bytes really are an allowed image, then re-encodes them: upright (EXIF
 * orientation applied), web-size and thumbnail JPEGs. sharp writes no metadata unless asked,
 * so EXIF, GPS, XMP and ICC data are all dropped. Refused: 'too-large' over the size limit, 'invalid' for anything
 * that is not an image it may decode (or has too many pixels).
 */
export async function processPhoto(bytes: Uint8Array): Promise<Result<{ photo: ProcessedPhoto }>> {
  if (bytes.byteLength > MAX_PHOTO_BYTES) return failure('too-large', PHOTO_MESSAGES.tooLarge)
  const notImage = failure('invalid', PHOTO_MESSAGES.notImage)
  const tooManyPixels = failure('invalid', PHOTO_MESSAGES.tooManyPixels)
  // failOn 'warning' turns a truncated or corrupt image into an error instead of a half-gray picture.
  const options = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning' as const }
  let metadata: Metadata
  try {
    // metadata() reads only the header, so it is cheap even for a bomb; the pixel limit is checked next.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata()
  } catch {
    // A header sharp cannot read: not an image.
    return notImage
  }
  if (!metadata.format || !ALLOWED_FORMATS.has(metadata.format)) return notImage
  if (!metadata.width || !metadata.height) return notImage
  if (metadata.width * metadata.height > MAX_PHOTO_PIXELS) return tooManyPixels
  try {
    const full = await sharp(bytes, options)
      .autoOrient()
      .resize(WEB_PHOTO_EDGE, WEB_PHOTO_EDGE, { fit: 'inside', withoutEnlargement: true })
      // Transparent PNG/WebP/GIF areas would turn black in a JPEG.
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer()
    // The thumbnail comes from the already small, upright image: far cheaper than decoding the original again.
    const thumb = await sharp(full)
      .resize(THUMB_PHOTO_EDGE, THUMB_PHOTO_EDGE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer()
    return success({ photo: { full, thumb } })
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels
    // Truncated files, and HEIC variants this build of libvips cannot decode, land here.
    return notImage
  }
}

/** Writes both files of a processed photo under `key`. */
export async function storePhotoFiles(key: string, photo: ProcessedPhoto) {
  await Promise.all([
    putObject(photoObjectKey(key, 'full'), photo.full, 'image/jpeg'),
    putObject(photoObjectKey(key, 'thumb'), photo.thumb, 'image/jpeg'),
  ])
}

/** Removes both files of a photo; a missing file is fine (it is already gone). */
export async function deletePhotoFiles(key: string) {
  await Promise.all([deleteObject(photoObjectKey(key, 'full')), deleteObject(photoObjectKey(key, 'thumb'))])
}

/** A photo as the visit page and the upload's answer show it: URLs of the authorized route, never storage keys. */
export function shownPhoto(visitId: string, photo: { id: string; label: PhotoLabel }): VisitPhotoView {
  return {
    id: photo.id,
    label: photo.label,
    url: photoUrl(visitId, photo.id),
    thumbUrl: photoUrl(visitId, photo.id, 'thumb'),
  }
}

/** Whether `visitId` is a visit of `companyId`: an upload for anything else is a 404 before its body is read. */
export async function isVisitOfCompany({ companyId, visitId }: { companyId: string; visitId: string }) {
  if (!isUuid(companyId) || !isUuid(visitId)) return false
  const [row] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    .limit(1)
  return Boolean(row)
}

/** A visit's photos, oldest first (the order they were taken). */
export function listVisitPhotos(
  { companyId, visitId }: { companyId: string; visitId: string },
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select({ id: visitPhotos.id, label: visitPhotos.label, storageKey: visitPhotos.storageKey })
    .from(visitPhotos)
    .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.visitId, visitId)))
    .orderBy(asc(visitPhotos.createdAt), asc(visitPhotos.id))
}

/** Reads one size of a stored photo; a key that is not one of ours (never written here) is no photo. */
export async function readPhotoFile(storageKey: string, size: PhotoSize) {
  try {
    return await getObject(photoObjectKey(storageKey, size))
  } catch (error) {
    if (error instanceof InvalidStorageKeyError) return null
    throw error
  }
}
