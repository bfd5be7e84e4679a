// The outbox worker (docs/subsystems.md "Email"): claims due rows with a renewed lease, sends emails and texts outside
// any transaction, turns queued tasks into emails, and retries with back-off until it gives up a day later.
import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import { emailOutbox } from '~/db/schema'
import type { EmailContent } from '~/mail/templates'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { deliveryLoop } from './delivery-loop.server'
import { renderEmail } from './email-render.server'
import {
  currentTransport,
  isPlainAddress,
  loadAttachments,
  messageIdFor,
  senderAddress,
  type Transport,
} from './email-transport.server'

/**
 * An email that still cannot be delivered this long after it was queued is marked failed, logged as an error and
 * listed on its company's owner and admin dashboards. Until then it is retried (an SMTP outage of a night or a
 * weekend morning loses nothing).
 */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000

/** Back-off after the nth failure: 30 s, 1 min, 2 min … capped at 1 hour. */
export function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000)
}

/**
 * How long a claimed email is reserved for its worker before another may take it, and how often the worker renews
 * that while it is still sending. Short, so an email claimed by a process that died is retried within a minute;
 * renewed, so a slow SMTP server never makes two workers send the same email at once.
 */
export const CLAIM_LEASE = { ms: 60_000, renewEveryMs: 20_000 }

type Lease = typeof CLAIM_LEASE
type OutboxRow = typeof emailOutbox.$inferSelect

/** Claims the next due email for this worker until `leaseUntil`, or returns undefined when none is due. */
async function claimNextDueEmail(now: Date, leaseUntil: Date) {
  const due = db()
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true })
  const [claimed] = await db()
    .update(emailOutbox)
    .set({ nextAttemptAt: leaseUntil })
    .where(inArray(emailOutbox.id, due))
    .returning()
  return claimed
}

/**
 * Keeps renewing the claim on one email while it is being sent. `release` stops, and waits for a renewal already
 * under way, so a late renewal can never overwrite what the worker writes next (sent, or the next retry time).
 */
function holdLease(emailId: string, leaseUntil: () => Date, lease: Lease) {
  let renewing: Promise<unknown> = Promise.resolve()
  const timer = setInterval(() => {
    renewing = db()
      .update(emailOutbox)
      .set({ nextAttemptAt: leaseUntil() })
      .where(and(eq(emailOutbox.id, emailId), eq(emailOutbox.status, 'pending')))
      .catch((error: unknown) => logger.warn({ err: error, emailId }, 'could not renew the claim on an email'))
  }, lease.renewEveryMs)
  return async () => {
    clearInterval(timer)
    await renewing
  }
}

/** An email the worker itself prepares from a queued task (which knows only the address). */
export type TaskEmail = EmailContent

/**
 * What turns a queued task of each kind into its email, or null to drop it. A module above registers each kind
 * (auth/better-auth.server.ts registers 'password-reset'): this module sends email and knows no model.
 */
const taskPreparers = new Map<string, (to: string) => Promise<TaskEmail | null>>()

export function registerOutboxTask(kind: string, prepare: (to: string) => Promise<TaskEmail | null>) {
  taskPreparers.set(kind, prepare)
}

/**
 * A task row (e.g. "password reset requested"): the worker, not the request, looks the address up. For an active
 * account it turns the row into the email (due at once, same id); an unknown or deactivated address is dropped quietly.
 */
async function prepareTask(
  task: OutboxRow,
  prepare: (to: string) => Promise<TaskEmail | null>,
  now: Date,
  releaseLease: () => Promise<void>,
) {
  const email = await prepare(task.to)
  const rendered = email ? await renderEmail(email) : null
  // No renewal of the claim may land after the row is rewritten (it would push the email back by a lease).
  await releaseLease()
  if (!email || !rendered) {
    await db().delete(emailOutbox).where(eq(emailOutbox.id, task.id))
    return
  }
  await db()
    .update(emailOutbox)
    .set({ kind: 'email', ...rendered, nextAttemptAt: now })
    .where(eq(emailOutbox.id, task.id))
}

/**
 * What sending one text came to. The texts module (app/outbox/text-delivery.server.ts) decides it from the
 * provider's answer and registers itself here, as the password reset registers its task: this module delivers and
 * knows no provider.
 */
export type TextDelivery =
  | { status: 'sent'; providerId: string | null }
  /** The number replied STOP: recorded, never sent, never retried. */
  | { status: 'opted-out'; message: string }
  /** Refused for good (an invalid number): marked failed at once, never retried. */
  | { status: 'failed'; message: string }
  | { status: 'retry'; message: string; retryAfterMs: number | null }
  /** Not now (quiet hours): due again at `until`, no attempt counted. */
  | { status: 'deferred'; until: Date }

type TextRow = Pick<OutboxRow, 'id' | 'companyId' | 'to' | 'text' | 'attempts' | 'lastError' | 'createdAt'>
let textSender: ((row: TextRow, now: Date) => Promise<TextDelivery>) | null = null

export function registerTextSender(send: (row: TextRow, now: Date) => Promise<TextDelivery>) {
  textSender = send
}

/** Sends a text row and writes what came of it. */
async function deliverText(row: OutboxRow, now: Date, releaseLease: () => Promise<void>) {
  // No sender registered is a bug of ours: it fails like a send would, so it is retried and then reported.
  if (!textSender) throw new Error('no text sender is registered')
  const outcome = await textSender(row, now)
  await releaseLease()
  const where = eq(emailOutbox.id, row.id)
  switch (outcome.status) {
    case 'sent':
      await db()
        .update(emailOutbox)
        .set({
          status: 'sent',
          sentAt: new Date(),
          attempts: row.attempts + 1,
          lastError: null,
          providerId: outcome.providerId,
        })
        .where(where)
      return 'sent'
    case 'opted-out':
    case 'failed':
      logger.warn({ outboxId: row.id, companyId: row.companyId, status: outcome.status }, outcome.message)
      await db()
        .update(emailOutbox)
        .set({ status: outcome.status, attempts: row.attempts + 1, lastError: outcome.message.slice(0, 1000) })
        .where(where)
      return 'failed'
    case 'deferred':
      await db().update(emailOutbox).set({ nextAttemptAt: outcome.until }).where(where)
      return 'deferred'
    case 'retry':
      await recordFailure(row, new Error(outcome.message), now, outcome.retryAfterMs)
      return 'failed'
  }
}

/** A failed attempt: retried with back-off, or, a day after the email was queued, marked failed for the office. */
async function recordFailure(row: OutboxRow, error: unknown, now: Date, retryAfterMs: number | null = null) {
  const attempts = row.attempts + 1
  const message = error instanceof Error ? error.message : String(error)
  const givingUp = now.getTime() - row.createdAt.getTime() >= GIVE_UP_AFTER_MS
  const details = { emailId: row.id, companyId: row.companyId, to: row.to, subject: row.subject, attempts }
  if (givingUp) {
    logger.error({ ...details, error: message }, 'email could not be delivered for a day; marked failed')
  } else {
    logger.warn({ ...details, error: message }, 'email delivery failed; will retry')
  }
  await db()
    .update(emailOutbox)
    .set({
      attempts,
      lastError: message.slice(0, 1000),
      status: givingUp ? 'failed' : 'pending',
      // The provider's Retry-After, when it said one, if longer than our own back-off.
      nextAttemptAt: new Date(now.getTime() + Math.max(retryDelayMs(attempts), retryAfterMs ?? 0)),
    })
    .where(eq(emailOutbox.id, row.id))
}

/**
 * Delivers every due email once. Each row is claimed with a short lease (SKIP LOCKED) that is renewed while it is
 * sent outside any transaction, so a slow SMTP server never holds the database and several app instances never
 * send the same email at once. Every attempt carries the row's own Message-ID. Returns the counts.
 */
export async function deliverDueEmails({
  now = new Date(),
  transport = currentTransport(),
  lease = CLAIM_LEASE,
}: {
  now?: Date
  transport?: Transport
  lease?: Lease
} = {}) {
  // A long run must not hand out leases that have already run out: they count from the time actually elapsed.
  const startedAt = Date.now()
  const leaseUntil = () => new Date(now.getTime() + (Date.now() - startedAt) + lease.ms)
  let sent = 0
  let failed = 0
  for (let next = await claimNextDueEmail(now, leaseUntil()); next; next = await claimNextDueEmail(now, leaseUntil())) {
    const release = holdLease(next.id, leaseUntil, lease)
    try {
      if (next.kind === 'text') {
        const delivered = await deliverText(next, now, release)
        if (delivered === 'sent') sent++
        if (delivered === 'failed') failed++
        continue
      }
      if (next.kind !== 'email') {
        const prepare = taskPreparers.get(next.kind)
        // A kind nobody registered is a bug of ours: it fails like a send would, so it is retried and then reported.
        if (!prepare) throw new Error(`no handler is registered for outbox tasks of kind "${next.kind}"`)
        // Now an email due at once (claimed next time round), or dropped.
        await prepareTask(next, prepare, now, release)
        continue
      }
      const attachments = await loadAttachments(next.id, next.attachments ?? [])
      await transport.send({
        messageId: messageIdFor(next.id),
        from: senderAddress(next.fromName),
        ...(next.replyTo && isPlainAddress(next.replyTo) ? { replyTo: next.replyTo } : {}),
        to: next.to,
        subject: next.subject,
        html: next.html,
        text: next.text,
        attachments,
      })
      await release()
      await db()
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(), attempts: next.attempts + 1, lastError: null })
        .where(eq(emailOutbox.id, next.id))
      sent++
    } catch (error) {
      await release()
      await recordFailure(next, error, now)
      failed++
    }
  }
  return { sent, failed }
}

/** The loop that runs `deliverDueEmails`, started with every other by `start.server.ts`. */
export const emailLoop = deliveryLoop('outbox worker', () => deliverDueEmails())

/** Asks the worker to look now rather than at its next tick (no-op when it is not started). */
export function kickOutboxWorker() {
  emailLoop.kick()
}
