// Before/after job photos (ARCHITECTURE §4): image files only, checked by their content;
// at most 15 MB; re-encoded so no metadata (customers' home GPS) survives; stored privately
// under an unguessable key and served only to people who may see the job.
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import sharp, { type Metadata } from 'sharp'
import { jobs } from '~/db/schema'
import { db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { deleteObject, getObject, InvalidStorageKeyError, putObject } from '~/utils/storage.server'
import { getJobForViewer, type JobViewer } from './job.server'

export const PHOTO_KINDS = ['before', 'after'] as const
export type PhotoKind = (typeof PHOTO_KINDS)[number]
export type PhotoSize = 'full' | 'thumb'

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024

/** The photo limit plus room for the multipart envelope; a bigger upload request is refused unread. */
export const MAX_UPLOAD_REQUEST_BYTES = MAX_PHOTO_BYTES + 1024 * 1024
/** Larger images are refused before decoding: a small file can unpack to gigabytes (a decompression bomb). */
export const MAX_PHOTO_PIXELS = 40_000_000
export const WEB_PHOTO_EDGE = 1600
export const THUMB_PHOTO_EDGE = 400

export const PHOTO_MESSAGES = {
  tooLarge: 'Photos must be 15 MB or smaller.',
  notImage: 'Choose an image file (JPEG, PNG, WebP or HEIC).',
  tooManyPixels: 'Photos must be 40 megapixels or smaller.',
  noJob: 'Job not found.',
  failed: 'Unable to save photo. Try again.',
} as const

/** What sharp may decode. HEIC/AVIF report as "heif"; SVG, PDF, TIFF and the rest are refused. */
const ALLOWED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'gif'])

export function isPhotoKind(value: unknown): value is PhotoKind {
  return value === 'before' || value === 'after'
}

/**
 * The user's file name reduced to a short, harmless slug: no directories, no dots, nothing a
 * path or a URL could misread. `../../etc/passwd.jpg` becomes `passwd`.
 */
export function sanitiseFileName(fileName: string) {
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

/** `{jobId}/{kind}-{timestamp}-{name}-{16 hex}`; the random part makes it unguessable. */
export function photoKey(jobId: string, kind: PhotoKind, fileName: string, now = new Date()) {
  if (!isUuid(jobId)) throw new Error('photoKey needs a job id')
  return `${jobId}/${kind}-${now.getTime()}-${sanitiseFileName(fileName)}-${randomBytes(8).toString('hex')}`
}

/** The stored files of one photo key: the web-size image and its thumbnail. */
export function photoObjectKey(key: string, size: PhotoSize) {
  return size === 'thumb' ? `${key}-thumb.jpg` : `${key}.jpg`
}

/** The authorised route that serves a photo; `v` changes with every upload so caches never show an old one. */
export function photoUrl(jobId: string, kind: PhotoKind, key: string | null) {
  if (!key) return null
  return `/app/jobs/${jobId}/photos/${kind}?v=${encodeURIComponent(key.slice(-16))}`
}

export type ProcessedPhoto = { full: Buffer; thumb: Buffer }

type ProcessResult = { ok: true; photo: ProcessedPhoto } | { ok: false; message: string }

/**
 * Checks the bytes really are an allowed image, then re-encodes them: upright (EXIF
 * orientation applied), web-size and thumbnail JPEGs. sharp writes no metadata unless asked,
 * so EXIF, GPS, XMP and ICC data are all dropped.
 */
export async function processPhoto(bytes: Uint8Array): Promise<ProcessResult> {
  if (bytes.byteLength > MAX_PHOTO_BYTES) return { ok: false, message: PHOTO_MESSAGES.tooLarge }
  // failOn 'warning' turns a truncated or corrupt image into an error instead of a half-grey picture.
  const options = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning' as const }
  let metadata: Metadata
  try {
    // metadata() reads only the header, so it is cheap even for a bomb; the pixel limit is checked next.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata()
  } catch {
    return { ok: false, message: PHOTO_MESSAGES.notImage }
  }
  if (!metadata.format || !ALLOWED_FORMATS.has(metadata.format)) return { ok: false, message: PHOTO_MESSAGES.notImage }
  if (!metadata.width || !metadata.height) return { ok: false, message: PHOTO_MESSAGES.notImage }
  if (metadata.width * metadata.height > MAX_PHOTO_PIXELS) return { ok: false, message: PHOTO_MESSAGES.tooManyPixels }
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
    return { ok: true, photo: { full, thumb } }
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      return { ok: false, message: PHOTO_MESSAGES.tooManyPixels }
    }
    // Truncated files, and HEIC variants this build of libvips cannot decode, land here.
    return { ok: false, message: PHOTO_MESSAGES.notImage }
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

export type SavePhotoResult = { ok: true; key: string } | { ok: false; message: string }

const column = { before: jobs.beforeUrl, after: jobs.afterUrl } as const

/**
 * Checks, processes and stores a job's before or after photo, then points the job at it and
 * removes the photo it replaces. Only a job of `companyId` is touched; callers authorise the
 * viewer (getJobForViewer) first.
 */
export async function savePhoto({
  companyId,
  jobId,
  kind,
  fileName,
  bytes,
  now = new Date(),
}: {
  companyId: string
  jobId: string
  kind: PhotoKind
  fileName: string
  bytes: Uint8Array
  now?: Date
}): Promise<SavePhotoResult> {
  if (!isPhotoKind(kind) || !isUuid(jobId) || !isUuid(companyId)) return { ok: false, message: PHOTO_MESSAGES.noJob }
  // Size first: nothing larger than the limit is ever handed to the decoder.
  if (bytes.byteLength > MAX_PHOTO_BYTES) return { ok: false, message: PHOTO_MESSAGES.tooLarge }
  const [job] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
    .limit(1)
  if (!job) return { ok: false, message: PHOTO_MESSAGES.noJob }

  const processed = await processPhoto(bytes)
  if (!processed.ok) return processed

  const key = photoKey(jobId, kind, fileName, now)
  try {
    await storePhotoFiles(key, processed.photo)
  } catch (error) {
    await deletePhotoFiles(key).catch(() => {})
    throw error
  }

  // Lock the row while swapping keys, so two uploads at once each delete exactly the photo they replaced.
  const previous = await db()
    .transaction(async (tx) => {
      const [row] = await tx
        .select({ key: column[kind] })
        .from(jobs)
        .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
        .for('update')
      if (!row) return undefined
      await tx
        .update(jobs)
        .set(kind === 'before' ? { beforeUrl: key } : { afterUrl: key })
        .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
      return { key: row.key }
    })
    .catch(async (error: unknown) => {
      await deletePhotoFiles(key).catch(() => {})
      throw error
    })
  if (!previous) {
    // The job went away while the files were written: leave nothing behind.
    await deletePhotoFiles(key)
    return { ok: false, message: PHOTO_MESSAGES.noJob }
  }
  if (previous.key && previous.key !== key) {
    // The new photo is saved either way; a leftover old file is for the logs, not the user.
    await deletePhotoFiles(previous.key).catch((error: unknown) =>
      logger.warn({ err: error, key: previous.key }, 'could not delete a replaced photo'),
    )
  }
  await publishCompanyEvent({ companyId, type: 'photo.saved', jobId })
  return { ok: true, key }
}

/**
 * A photo's bytes for `viewer`, or null when they may not see the job (another company, a
 * teammate's job for a technician), the kind is unknown or the job has no such photo.
 */
export async function getPhotoForViewer(viewer: JobViewer, jobId: string, kind: string, size: PhotoSize = 'full') {
  if (!isPhotoKind(kind)) return null
  const job = await getJobForViewer(viewer, jobId)
  if (!job) return null
  const key = kind === 'before' ? job.beforeUrl : job.afterUrl
  if (!key) return null
  try {
    return await getObject(photoObjectKey(key, size))
  } catch (error) {
    // A value that is not one of our keys (never written by this module) is simply no photo.
    if (error instanceof InvalidStorageKeyError) return null
    throw error
  }
}
