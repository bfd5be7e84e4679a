// A visit's photos (OPERATIONS §5: several, each labelled Before / After / Other; ARCHITECTURE §4): image files
// only, checked by their content; at most 15 MB; re-encoded so no metadata (customers' home GPS) survives; stored
// privately under an unguessable key and served only to people who may see the visit. Each upload carries the
// phone's idempotency key (client_key), so the offline queue sending a photo again stores it once.
import { createHash, randomBytes } from 'node:crypto'
import { and, asc, count, eq } from 'drizzle-orm'
import sharp, { type Metadata } from 'sharp'
import { jobs, visitPhotos } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { can } from '~/utils/permissions'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { deleteObject, getObject, InvalidStorageKeyError, putObject } from '~/utils/storage.server'
import { KEY_REUSED, requestHash } from './idempotency.server'
import { getJobForViewer, type JobViewer } from './job.server'
import type { Actor } from './profile.server'
import {
  isPhotoLabel,
  MAX_PHOTO_BYTES,
  MAX_VISIT_PHOTOS,
  PHOTO_MESSAGES,
  type PhotoLabel,
  type VisitPhotoView,
} from './visit-photo'

export { MAX_PHOTO_BYTES, MAX_VISIT_PHOTOS, PHOTO_MESSAGES }

import { lockWorkableVisit } from './visit-work.server'

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

/** `{jobId}/{label}-{timestamp}-{name}-{16 hex}`; the random part makes it unguessable. */
export function photoKey(jobId: string, label: PhotoLabel, fileName: string, now = new Date()) {
  if (!isUuid(jobId)) throw new Error('photoKey needs a job id')
  return `${jobId}/${label}-${now.getTime()}-${sanitiseFileName(fileName)}-${randomBytes(8).toString('hex')}`
}

/** The stored files of one photo key: the web-size image and its thumbnail. */
export function photoObjectKey(key: string, size: PhotoSize) {
  return size === 'thumb' ? `${key}-thumb.jpg` : `${key}.jpg`
}

/**
 * The authorised route that serves a photo. A photo row never changes its files (a new photo is a new row), so the
 * id alone is a stable, cacheable address.
 */
export function photoUrl(jobId: string, photoId: string, size: PhotoSize = 'full') {
  return `/app/jobs/${jobId}/photos/${photoId}${size === 'thumb' ? '?size=thumb' : ''}`
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
  // failOn 'warning' turns a truncated or corrupt image into an error instead of a half-grey picture.
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

/** Removes a photo's files that no row points to; a failure leaves an orphan for the logs, never an error. */
async function discardPhotoFiles(key: string, why: string) {
  await deletePhotoFiles(key).catch((error: unknown) => logger.warn({ err: error, key }, why))
}

/** A photo as the visit page and the upload's answer show it: URLs of the authorised route, never storage keys. */
export function shownPhoto(jobId: string, photo: { id: string; label: PhotoLabel }): VisitPhotoView {
  return {
    id: photo.id,
    label: photo.label,
    url: photoUrl(jobId, photo.id),
    thumbUrl: photoUrl(jobId, photo.id, 'thumb'),
  }
}

const photoColumns = {
  id: visitPhotos.id,
  jobId: visitPhotos.jobId,
  label: visitPhotos.label,
  storageKey: visitPhotos.storageKey,
  takenBy: visitPhotos.takenBy,
  clientHash: visitPhotos.clientHash,
}

/** What an upload's key is bound to: who sends it, for which visit, and the hash of its label and file. */
type Upload = { userId: string; jobId: string; hash: string }

/** The content hash of an upload: its label and the SHA-256 of its file (the key itself is no part of it). */
function uploadHash(label: string, bytes: Uint8Array) {
  return requestHash({ label, photo: createHash('sha256').update(bytes).digest('hex') })
}

async function photoByClientKey(executor: Database, companyId: string, clientKey: string) {
  const [row] = await executor
    .select(photoColumns)
    .from(visitPhotos)
    .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.clientKey, clientKey)))
    .limit(1)
  return row
}

/**
 * The photo an earlier upload with the same key stored: the first answer again for a true copy (the same user,
 * visit, label and file), else refused as any reused key is (422). A photo stored before keys were bound (no hash)
 * is judged by its visit alone, as it was then.
 */
function replayOf(
  earlier: { id: string; jobId: string; label: PhotoLabel; takenBy: string | null; clientHash: string | null },
  upload: Upload,
) {
  const same =
    earlier.jobId === upload.jobId &&
    (earlier.clientHash === null || (earlier.takenBy === upload.userId && earlier.clientHash === upload.hash))
  return same
    ? success({ photo: { id: earlier.id, label: earlier.label }, replayed: true })
    : failure('key-reused', KEY_REUSED)
}

export type SavedPhoto = Result<{ photo: { id: string; label: PhotoLabel }; replayed: boolean }>

/**
 * Checks, processes and stores one photo of visit `jobId`, taken by `member`. The visit must still be theirs to
 * work (lockWorkableVisit: a photo queued offline for a visit since reassigned, cancelled or completed is refused
 * with the reason). `clientKey` is the phone's idempotency key: the same key again returns the first photo and
 * keeps no second file, however many copies arrive and however close together.
 */
export async function savePhoto({
  member,
  jobId,
  label,
  fileName,
  bytes,
  clientKey = null,
  now = new Date(),
}: {
  member: Actor
  jobId: string
  label: string
  fileName: string
  bytes: Uint8Array
  clientKey?: string | null
  now?: Date
}): Promise<SavedPhoto> {
  const { companyId } = member
  if (!isUuid(jobId) || !isUuid(companyId)) return failure('not-found', PHOTO_MESSAGES.noJob)
  if (!isPhotoLabel(label)) return failure('invalid', PHOTO_MESSAGES.badLabel)
  const key = clientKey?.toLowerCase() ?? null
  if (key !== null && !isUuid(key)) return failure('invalid', PHOTO_MESSAGES.failed)

  const upload: Upload = { userId: member.id, jobId, hash: key ? uploadHash(label, bytes) : '' }
  // A replay (the queue sending again after a lost answer) gets the first answer without decoding anything.
  if (key) {
    const earlier = await photoByClientKey(db(), companyId, key)
    if (earlier) return replayOf(earlier, upload)
  }
  // Size first: nothing larger than the limit is ever handed to the decoder.
  if (bytes.byteLength > MAX_PHOTO_BYTES) return failure('too-large', PHOTO_MESSAGES.tooLarge)
  // Refused before the costly decode when the visit may not take it; checked again, locked, before the insert.
  const open = await db().transaction((tx) => lockWorkableVisit(tx, member, jobId, { type: 'photo' }))
  if (!open.ok) return open

  const processed = await processPhoto(bytes)
  if (!processed.ok) return processed

  const storageKey = photoKey(jobId, label, fileName, now)
  try {
    await storePhotoFiles(storageKey, processed.photo)
  } catch (error) {
    await discardPhotoFiles(storageKey, 'could not remove a half-written photo')
    throw error
  }

  let saved: SavedPhoto
  try {
    saved = await db().transaction(async (tx): Promise<SavedPhoto | Failure> => {
      // The visit's row lock puts one visit's uploads in a line: the count below cannot be passed by two at once.
      const visit = await lockWorkableVisit(tx, member, jobId, { type: 'photo' })
      // A copy that raced the first one here finds its row, even if the visit was completed in between.
      const earlier = key ? await photoByClientKey(tx, companyId, key) : undefined
      if (earlier) return replayOf(earlier, upload)
      if (!visit.ok) return visit
      const [held] = await tx
        .select({ n: count() })
        .from(visitPhotos)
        .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.jobId, jobId)))
      if ((held?.n ?? 0) >= MAX_VISIT_PHOTOS) return failure('conflict', PHOTO_MESSAGES.tooMany)
      const [inserted] = await tx
        .insert(visitPhotos)
        .values({
          companyId,
          jobId,
          label,
          storageKey,
          clientKey: key,
          clientHash: key ? upload.hash : null,
          takenBy: member.id,
          createdAt: now,
        })
        .onConflictDoNothing({ target: [visitPhotos.companyId, visitPhotos.clientKey] })
        .returning({ id: visitPhotos.id, label: visitPhotos.label })
      if (inserted) {
        await publishCompanyEvent({ companyId, type: 'photo.saved', jobId }, tx)
        return success({ photo: inserted, replayed: false })
      }
      // The key arrived with another visit's upload at the same moment.
      const other = key ? await photoByClientKey(tx, companyId, key) : undefined
      return other ? replayOf(other, upload) : failure('failed', PHOTO_MESSAGES.failed)
    })
  } catch (error) {
    await discardPhotoFiles(storageKey, 'could not remove the files of a photo that was not saved')
    throw error
  }
  if (!saved.ok || saved.replayed) await discardPhotoFiles(storageKey, 'could not remove the files of a repeated photo')
  return saved
}

/**
 * Removes one photo of a visit: the office at any time (a photo that should not be there), a technician only on
 * their own open visit. The row goes first, then the files, so a failure never leaves a row without its picture.
 */
export async function deletePhoto({
  member,
  jobId,
  photoId,
}: {
  member: Actor
  jobId: string
  photoId: string
}): Promise<Result> {
  const { companyId } = member
  if (!isUuid(jobId) || !isUuid(companyId)) return failure('not-found', PHOTO_MESSAGES.noJob)
  if (!isUuid(photoId)) return failure('not-found', PHOTO_MESSAGES.noPhoto)
  const removed = await db().transaction(async (tx): Promise<Result<{ storageKey: string }>> => {
    if (!can(member.role, 'jobs:manage')) {
      const visit = await lockWorkableVisit(tx, member, jobId, { type: 'photo' })
      if (!visit.ok) return visit
    }
    const [row] = await tx
      .delete(visitPhotos)
      .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.jobId, jobId), eq(visitPhotos.id, photoId)))
      .returning({ storageKey: visitPhotos.storageKey })
    if (!row) return failure('not-found', PHOTO_MESSAGES.noPhoto)
    await publishCompanyEvent({ companyId, type: 'photo.saved', jobId }, tx)
    return success({ storageKey: row.storageKey })
  })
  if (!removed.ok) return removed
  await discardPhotoFiles(removed.storageKey, 'could not delete the files of a removed photo')
  return success({})
}

/** Whether `jobId` is a visit of `companyId`: an upload for anything else is a 404 before its body is read. */
export async function isVisitOfCompany({ companyId, jobId }: { companyId: string; jobId: string }) {
  if (!isUuid(companyId) || !isUuid(jobId)) return false
  const [row] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
    .limit(1)
  return Boolean(row)
}

/** A visit's photos, oldest first (the order they were taken). */
export function listVisitPhotos(
  { companyId, jobId }: { companyId: string; jobId: string },
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select({ id: visitPhotos.id, label: visitPhotos.label, storageKey: visitPhotos.storageKey })
    .from(visitPhotos)
    .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.jobId, jobId)))
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

/**
 * A photo's bytes for `viewer`, or null when they may not see the visit (another company, a teammate's visit for
 * a technician) or the visit has no such photo.
 */
export async function getPhotoForViewer(viewer: JobViewer, jobId: string, photoId: string, size: PhotoSize = 'full') {
  if (!isUuid(photoId)) return null
  const job = await getJobForViewer(viewer, jobId)
  if (!job) return null
  const [row] = await db()
    .select({ storageKey: visitPhotos.storageKey })
    .from(visitPhotos)
    .where(and(eq(visitPhotos.companyId, job.companyId), eq(visitPhotos.jobId, job.id), eq(visitPhotos.id, photoId)))
    .limit(1)
  return row ? readPhotoFile(row.storageKey, size) : null
}
