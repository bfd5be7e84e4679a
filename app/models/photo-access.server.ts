// Saving, removing and viewing a visit's photo as a member, each checked against the visit: an upload or a removal
// only on a visit the member may still work (lockWorkableVisit), a view only of a visit they may see
// (getVisitForViewer). Each upload carries the phone's idempotency key (client_key), so the offline queue sending a
// photo again stores it once. The files, keys and rows themselves are photo.server.ts.
import { createHash } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import { visitPhotos } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { can } from '~/utils/permissions'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { KEY_REUSED, requestHash } from './idempotency.server'
import {
  deletePhotoFiles,
  type PhotoSize,
  photoKey,
  processPhoto,
  readPhotoFile,
  storePhotoFiles,
} from './photo.server'
import type { Actor } from './profile.server'
import { isPhotoLabel, MAX_PHOTO_BYTES, MAX_VISIT_PHOTOS, PHOTO_MESSAGES, type PhotoLabel } from './visit-photo'
import { getVisitForViewer, type VisitViewer } from './visit-record.server'
import { lockWorkableVisit } from './visit-work.server'

/** Removes a photo's files that no row points to; a failure leaves an orphan for the logs, never an error. */
async function discardPhotoFiles(key: string, why: string) {
  await deletePhotoFiles(key).catch((error: unknown) => logger.warn({ err: error, key }, why))
}

const photoColumns = {
  id: visitPhotos.id,
  visitId: visitPhotos.visitId,
  label: visitPhotos.label,
  storageKey: visitPhotos.storageKey,
  takenBy: visitPhotos.takenBy,
  clientHash: visitPhotos.clientHash,
}

/** What an upload's key is bound to: who sends it, for which visit, and the hash of its label and file. */
type Upload = { userId: string; visitId: string; hash: string }

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
  earlier: { id: string; visitId: string; label: PhotoLabel; takenBy: string | null; clientHash: string | null },
  upload: Upload,
) {
  const same =
    earlier.visitId === upload.visitId &&
    (earlier.clientHash === null || (earlier.takenBy === upload.userId && earlier.clientHash === upload.hash))
  return same
    ? success({ photo: { id: earlier.id, label: earlier.label }, replayed: true })
    : failure('key-reused', KEY_REUSED)
}

export type SavedPhoto = Result<{ photo: { id: string; label: PhotoLabel }; replayed: boolean }>

/**
 * Checks, processes and stores one photo of visit `visitId`, taken by `member`. The visit must still be theirs to
 * work (lockWorkableVisit: a photo queued offline for a visit since reassigned, canceled or completed is refused
 * with the reason). `clientKey` is the phone's idempotency key: the same key again returns the first photo and
 * keeps no second file, however many copies arrive and however close together.
 */
export async function savePhoto({
  member,
  visitId,
  label,
  fileName,
  bytes,
  clientKey = null,
  now = new Date(),
}: {
  member: Actor
  visitId: string
  label: string
  fileName: string
  bytes: Uint8Array
  clientKey?: string | null
  now?: Date
}): Promise<SavedPhoto> {
  const { companyId } = member
  if (!isUuid(visitId) || !isUuid(companyId)) return failure('not-found', PHOTO_MESSAGES.noVisit)
  if (!isPhotoLabel(label)) return failure('invalid', PHOTO_MESSAGES.badLabel)
  const key = clientKey?.toLowerCase() ?? null
  if (key !== null && !isUuid(key)) return failure('invalid', PHOTO_MESSAGES.failed)

  const upload: Upload = { userId: member.id, visitId, hash: key ? uploadHash(label, bytes) : '' }
  // A replay (the queue sending again after a lost answer) gets the first answer without decoding anything.
  if (key) {
    const earlier = await photoByClientKey(db(), companyId, key)
    if (earlier) return replayOf(earlier, upload)
  }
  // Size first: nothing larger than the limit is ever handed to the decoder.
  if (bytes.byteLength > MAX_PHOTO_BYTES) return failure('too-large', PHOTO_MESSAGES.tooLarge)
  // Refused before the costly decode when the visit may not take it; checked again, locked, before the insert.
  const open = await db().transaction((tx) => lockWorkableVisit(tx, member, visitId, { type: 'photo' }))
  if (!open.ok) return open

  const processed = await processPhoto(bytes)
  if (!processed.ok) return processed

  const storageKey = photoKey(visitId, label, fileName, now)
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
      const visit = await lockWorkableVisit(tx, member, visitId, { type: 'photo' })
      // A copy that raced the first one here finds its row, even if the visit was completed in between.
      const earlier = key ? await photoByClientKey(tx, companyId, key) : undefined
      if (earlier) return replayOf(earlier, upload)
      if (!visit.ok) return visit
      const [held] = await tx
        .select({ n: count() })
        .from(visitPhotos)
        .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.visitId, visitId)))
      if ((held?.n ?? 0) >= MAX_VISIT_PHOTOS) return failure('conflict', PHOTO_MESSAGES.tooMany)
      const [inserted] = await tx
        .insert(visitPhotos)
        .values({
          companyId,
          visitId,
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
        await publishCompanyEvent({ companyId, type: 'photo.saved', visitId }, tx)
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
  visitId,
  photoId,
}: {
  member: Actor
  visitId: string
  photoId: string
}): Promise<Result> {
  const { companyId } = member
  if (!isUuid(visitId) || !isUuid(companyId)) return failure('not-found', PHOTO_MESSAGES.noVisit)
  if (!isUuid(photoId)) return failure('not-found', PHOTO_MESSAGES.noPhoto)
  const removed = await db().transaction(async (tx): Promise<Result<{ storageKey: string }>> => {
    if (!can(member.role, 'visits:manage')) {
      const visit = await lockWorkableVisit(tx, member, visitId, { type: 'photo' })
      if (!visit.ok) return visit
    }
    const [row] = await tx
      .delete(visitPhotos)
      .where(and(eq(visitPhotos.companyId, companyId), eq(visitPhotos.visitId, visitId), eq(visitPhotos.id, photoId)))
      .returning({ storageKey: visitPhotos.storageKey })
    if (!row) return failure('not-found', PHOTO_MESSAGES.noPhoto)
    await publishCompanyEvent({ companyId, type: 'photo.saved', visitId }, tx)
    return success({ storageKey: row.storageKey })
  })
  if (!removed.ok) return removed
  await discardPhotoFiles(removed.storageKey, 'could not delete the files of a removed photo')
  return success({})
}

/**
 * A photo's bytes for `viewer`, or null when they may not see the visit (another company, a teammate's visit for
 * a technician) or the visit has no such photo.
 */
export async function getPhotoForViewer(
  viewer: VisitViewer,
  visitId: string,
  photoId: string,
  size: PhotoSize = 'full',
) {
  if (!isUuid(photoId)) return null
  const visit = await getVisitForViewer(viewer, visitId)
  if (!visit) return null
  const [row] = await db()
    .select({ storageKey: visitPhotos.storageKey })
    .from(visitPhotos)
    .where(
      and(eq(visitPhotos.companyId, visit.companyId), eq(visitPhotos.visitId, visit.id), eq(visitPhotos.id, photoId)),
    )
    .limit(1)
  return row ? readPhotoFile(row.storageKey, size) : null
}
