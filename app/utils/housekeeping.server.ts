// Deletes what is only kept for a while: rate-limit windows that ended, idempotency keys old enough that no
// retry or offline replay can still carry them, customer spreadsheets uploaded for an import a day ago, and the ids
// of Stripe events applied more than 90 days ago (issue 31, item 8).
import { lt } from 'drizzle-orm'
import { idempotencyKeys, stripeEvents } from '~/db/schema'
import { db } from './db.server'
import { pruneImportUploads } from './import-uploads.server'
import { pruneRateLimits } from './rate-limit.server'

/** A phone may stay offline for days; a replay a month later is no longer a retry. */
export const IDEMPOTENCY_KEY_DAYS = 30

/**
 * Stripe retries an undelivered event for three days and an event id is never sent again after that, so an id
 * kept 90 days still answers every redelivery once (docs/decisions/037-payment-voids.md).
 */
export const STRIPE_EVENT_DAYS = 90

export async function runHousekeeping(now = new Date()) {
  await pruneRateLimits(now)
  await pruneImportUploads(now)
  await db()
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_DAYS * 86_400_000)))
  await db()
    .delete(stripeEvents)
    .where(lt(stripeEvents.receivedAt, new Date(now.getTime() - STRIPE_EVENT_DAYS * 86_400_000)))
}
