// Deletes what is only kept for a while: rate-limit windows that ended, idempotency keys old enough that no
// retry or offline replay can still carry them, and customer spreadsheets uploaded for an import a day ago.
import { lt } from 'drizzle-orm'
import { idempotencyKeys } from '~/db/schema'
import { db } from './db.server'
import { pruneImportUploads } from './import-uploads.server'
import { pruneRateLimits } from './rate-limit.server'

/** A phone may stay offline for days; a replay a month later is no longer a retry. */
export const IDEMPOTENCY_KEY_DAYS = 30

export async function runHousekeeping(now = new Date()) {
  await pruneRateLimits(now)
  await pruneImportUploads(now)
  await db()
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_DAYS * 86_400_000)))
}
