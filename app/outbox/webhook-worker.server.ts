// The webhook worker (docs/decisions/051-webhooks.md, docs/decisions/070-webhooks-in-the-outbox.md): delivers the rows
// `enqueue` wrote to `webhook_deliveries`. Every app instance runs it: a row is claimed with FOR UPDATE SKIP LOCKED and
// a lease longer than a request may take, so two instances never send the same attempt. Each attempt is logged; a
// delivery failing for 24 hours is given up, its endpoint disabled and the company's owners emailed (through the
// outbox). How a request leaves is `webhook-transport.server.ts`.
import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm'
import { profiles, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '~/db/schema'
import { db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { type Resolver, resolveEndpoint } from '~/utils/webhook-address.server'
import { deliveryLoop } from './delivery-loop.server'
import { sendEmail } from './email.server'
import { eventBody, postWebhook, type SendOutcome, signatureHeader } from './webhook-transport.server'

/** A claim outlives the longest request (10 s) many times over, so it never needs renewing. */
export const WEBHOOK_LEASE_MS = 60_000
/** Retries for a day after the event, then the endpoint is disabled. */
export const WEBHOOK_GIVE_UP_AFTER_MS = 24 * 60 * 60_000

/** 30 s, 1 min, 2 min … doubling up to 2 hours between attempts. */
export function webhookRetryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 2 * 60 * 60_000)
}

async function claimNextDelivery(now: Date, leaseMs: number) {
  const due = db()
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true })
  const [claimed] = await db()
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(webhookDeliveries.id, due))
    .returning()
  return claimed
}

async function attempt(
  delivery: typeof webhookDeliveries.$inferSelect,
  resolve: Resolver | undefined,
): Promise<{ outcome: SendOutcome; eventType: string; eventCreatedAt: Date } | null> {
  const [target] = await db()
    .select({
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      eventType: webhookEvents.type,
      eventCreatedAt: webhookEvents.createdAt,
      data: webhookEvents.data,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.companyId, delivery.companyId), eq(webhookDeliveries.id, delivery.id)))
  if (!target) return null
  const body = eventBody({
    id: delivery.eventId,
    type: target.eventType,
    createdAt: target.eventCreatedAt,
    data: target.data,
  })
  const checked = await resolveEndpoint(target.url, resolve ? { resolve } : {})
  if (!checked.ok) {
    return { outcome: { statusCode: null, durationMs: 0, error: checked.message }, ...target }
  }
  const outcome = await postWebhook({
    url: checked.url,
    address: checked.address,
    family: checked.family,
    body,
    headers: {
      'Pool-Bud-Signature': signatureHeader(target.secret, body, Math.floor(Date.now() / 1000)),
      'Pool-Bud-Event-Id': delivery.eventId,
    },
  })
  return { outcome, eventType: target.eventType, eventCreatedAt: target.eventCreatedAt }
}

/** The endpoint is disabled (once, whichever instance gets there) and its company's owners emailed. */
async function disableEndpoint(companyId: string, endpointId: string, reason: string) {
  await db().transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ status: 'disabled', disabledAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(webhookEndpoints.companyId, companyId),
          eq(webhookEndpoints.id, endpointId),
          eq(webhookEndpoints.status, 'active'),
        ),
      )
      .returning({ url: webhookEndpoints.url })
    if (!endpoint) return
    const owners = await tx
      .select({ email: profiles.email })
      .from(profiles)
      .where(and(eq(profiles.companyId, companyId), eq(profiles.role, 'owner'), isNull(profiles.deactivatedAt)))
    for (const owner of owners) {
      await sendEmail(
        {
          to: owner.email,
          companyId,
          template: 'card',
          props: {
            subject: 'Webhook endpoint disabled',
            heading: 'Webhook endpoint disabled',
            lines: [
              `Pool Bud could not deliver events to ${endpoint.url} for 24 hours, so the endpoint has been disabled.`,
              `The last answer was: ${reason}`,
              'Fix the receiver, then turn the endpoint on again and resend the events you need from its delivery log.',
            ],
            actionLabel: 'Open Webhooks',
            url: `${env().APP_URL}/app/settings/webhooks`,
            footer: 'You receive this email as an owner of the company on Pool Bud.',
          },
        },
        tx,
      )
    }
  })
}

/**
 * Sends every due delivery once: 2xx is delivered; anything else (or no answer) is retried with back-off, and a day
 * after the event the delivery fails and its endpoint is disabled. `now` is when the run starts (tests move it);
 * `resolve` replaces DNS in tests.
 */
export async function deliverDueWebhooks({
  now = new Date(),
  resolve,
  leaseMs = WEBHOOK_LEASE_MS,
}: {
  now?: Date
  resolve?: Resolver
  leaseMs?: number
} = {}) {
  // A run may last longer than a lease (many slow receivers): each claim, back-off and give-up counts from the time
  // actually elapsed, or a late claim would be handed out already expired and a second instance could send it too.
  const startedAt = Date.now()
  const current = () => new Date(now.getTime() + (Date.now() - startedAt))
  let delivered = 0
  let failed = 0
  for (
    let next = await claimNextDelivery(current(), leaseMs);
    next;
    next = await claimNextDelivery(current(), leaseMs)
  ) {
    const result = await attempt(next, resolve)
    if (!result) continue
    const { outcome } = result
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300
    const attempts = next.attempts + 1
    const error = ok ? null : (outcome.error ?? `HTTP ${outcome.statusCode}`)
    const answeredAt = current()
    const givingUp = !ok && answeredAt.getTime() - result.eventCreatedAt.getTime() >= WEBHOOK_GIVE_UP_AFTER_MS
    await db()
      .insert(webhookAttempts)
      .values({
        companyId: next.companyId,
        endpointId: next.endpointId,
        deliveryId: next.id,
        eventId: next.eventId,
        eventType: result.eventType,
        statusCode: outcome.statusCode,
        durationMs: outcome.durationMs,
        error: error?.slice(0, 500) ?? null,
      })
    await db()
      .update(webhookDeliveries)
      .set({
        attempts,
        status: ok ? 'delivered' : givingUp ? 'failed' : 'pending',
        deliveredAt: ok ? new Date() : null,
        nextAttemptAt: new Date(answeredAt.getTime() + webhookRetryDelayMs(attempts)),
      })
      .where(eq(webhookDeliveries.id, next.id))
    if (ok) delivered++
    else {
      failed++
      logger.warn({ deliveryId: next.id, endpointId: next.endpointId, attempts, error }, 'webhook delivery failed')
      if (givingUp) await disableEndpoint(next.companyId, next.endpointId, error ?? 'no answer')
    }
  }
  return { delivered, failed }
}

/** The loop that runs `deliverDueWebhooks`, started with every other by `start.server.ts`. */
export const webhookLoop = deliveryLoop('webhook worker', () => deliverDueWebhooks())
