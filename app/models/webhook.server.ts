// Webhook endpoints and their delivery (docs/decisions/051-webhooks.md). Deliveries are queued by `recordEvent`
// (webhook-event.server.ts) in the change's transaction and sent here by a worker every app instance runs: a row is
// claimed with FOR UPDATE SKIP LOCKED and a lease longer than a request may take, so two instances never send the
// same attempt. Each attempt is logged; a delivery failing for 24 hours is given up, its endpoint disabled and the
// company's owners emailed (through the email outbox).
import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import {
  profiles,
  type WebhookEventType,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { failure, type Result, success } from '~/utils/result'
import { checkEndpointUrl, type Resolver, resolveEndpoint } from '~/utils/webhook-address.server'
import { postWebhook, type SendOutcome, signatureHeader } from '~/utils/webhook-send.server'
import { after as keysetAfter, keysetOrder } from './api-paging.server'

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found.'
export const TEST_EVENT_TYPE = 'endpoint.test'

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  events: webhookEndpoints.events,
  status: webhookEndpoints.status,
  createdAt: webhookEndpoints.createdAt,
}

export type WebhookEndpoint = {
  id: string
  url: string
  events: WebhookEventType[]
  status: 'active' | 'disabled'
  createdAt: Date
}

/** An endpoint as the API answers it. */
export const endpointOut = (endpoint: WebhookEndpoint) => ({
  ...endpoint,
  createdAt: endpoint.createdAt.toISOString(),
})

const asEndpoint = (row: { events: string[] } & Omit<WebhookEndpoint, 'events'>) => row as WebhookEndpoint

export async function listWebhookEndpoints(
  companyId: string,
  { limit = 100, after }: { limit?: number; after?: { createdAt: Date; id: string } } = {},
) {
  const rows = await db()
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.companyId, companyId),
        after
          ? keysetAfter(webhookEndpoints.createdAt, webhookEndpoints.id, {
              createdAt: after.createdAt.toISOString(),
              id: after.id,
            })
          : undefined,
      ),
    )
    .orderBy(...keysetOrder(webhookEndpoints.createdAt, webhookEndpoints.id))
    .limit(limit)
  return rows.map(asEndpoint)
}

export async function getWebhookEndpoint(companyId: string, endpointId: string) {
  if (!isUuid(endpointId)) return null
  const [row] = await db()
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId)))
  return row ? asEndpoint(row) : null
}

/** "Add endpoint": the URL checked (https, public: at save and again at delivery) and a new signing secret. */
export async function createWebhookEndpoint(
  {
    companyId,
    url,
    events,
  }: {
    companyId: string
    url: string
    events: WebhookEventType[]
  },
  ex: Database = db(),
): Promise<Result<{ endpoint: WebhookEndpoint; secret: string }>> {
  const checked = checkEndpointUrl(url)
  if (!checked.ok) return failure('invalid', checked.message, 'url')
  const secret = `whsec_${randomBytes(24).toString('base64url')}`
  const [row] = await ex
    .insert(webhookEndpoints)
    .values({ companyId, url: checked.url.toString(), events: [...new Set(events)], secret })
    .returning(endpointColumns)
  if (!row) throw new Error('webhook endpoint insert returned no row')
  return success({ endpoint: asEndpoint(row), secret })
}

export async function updateWebhookEndpoint(
  {
    companyId,
    endpointId,
    changes,
  }: {
    companyId: string
    endpointId: string
    changes: { url?: string; events?: WebhookEventType[]; status?: 'active' | 'disabled' }
  },
  ex: Database = db(),
): Promise<Result<{ endpoint: WebhookEndpoint }>> {
  if (!isUuid(endpointId)) return failure('not-found', ENDPOINT_NOT_FOUND)
  let url: string | undefined
  if (changes.url !== undefined) {
    const checked = checkEndpointUrl(changes.url)
    if (!checked.ok) return failure('invalid', checked.message, 'url')
    url = checked.url.toString()
  }
  const [row] = await ex
    .update(webhookEndpoints)
    .set({
      ...(url ? { url } : {}),
      ...(changes.events ? { events: [...new Set(changes.events)] } : {}),
      ...(changes.status
        ? { status: changes.status, disabledAt: changes.status === 'disabled' ? new Date() : null }
        : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId)))
    .returning(endpointColumns)
  return row ? success({ endpoint: asEndpoint(row) }) : failure('not-found', ENDPOINT_NOT_FOUND)
}

export async function deleteWebhookEndpoint({ companyId, endpointId }: { companyId: string; endpointId: string }) {
  if (!isUuid(endpointId)) return failure('not-found', ENDPOINT_NOT_FOUND)
  const rows = await db()
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId)))
    .returning({ id: webhookEndpoints.id })
  return rows.length ? success({}) : failure('not-found', ENDPOINT_NOT_FOUND)
}

export const DELIVERY_LOG_LIMIT = 50

/** "Resend": the same event (same id) queued again for the endpoint, due now. */
export async function resendDelivery({ companyId, deliveryId }: { companyId: string; deliveryId: string }) {
  if (!isUuid(deliveryId)) return failure('not-found', 'Delivery not found.')
  const [first] = await db()
    .select({ endpointId: webhookDeliveries.endpointId, eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId)))
  if (!first) return failure('not-found', 'Delivery not found.')
  await db()
    .insert(webhookDeliveries)
    .values({ companyId, endpointId: first.endpointId, eventId: first.eventId, nextAttemptAt: new Date() })
  return success({})
}

/** "Send test event": an `endpoint.test` event for this endpoint alone. */
export async function sendTestEvent({ companyId, endpointId }: { companyId: string; endpointId: string }) {
  const endpoint = await getWebhookEndpoint(companyId, endpointId)
  if (!endpoint) return failure('not-found', ENDPOINT_NOT_FOUND)
  await db().transaction(async (tx) => {
    const [event] = await tx
      .insert(webhookEvents)
      .values({ companyId, type: TEST_EVENT_TYPE, data: { message: 'A test event from Pool Bud.' } })
      .returning({ id: webhookEvents.id })
    if (!event) throw new Error('webhook event insert returned no row')
    await tx.insert(webhookDeliveries).values({ companyId, endpointId, eventId: event.id, nextAttemptAt: new Date() })
  })
  return success({})
}

// ---- Delivery ----

/** A claim outlives the longest request (10 s) many times over, so it never needs renewing. */
export const WEBHOOK_LEASE_MS = 60_000
/** Retries for a day after the event, then the endpoint is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000

/** 30 s, 1 min, 2 min … doubling up to 2 hours between attempts. */
export function webhookRetryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 2 * 60 * 60_000)
}

async function claimNextDelivery(now: Date) {
  const due = db()
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true })
  const [claimed] = await db()
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + WEBHOOK_LEASE_MS) })
    .where(inArray(webhookDeliveries.id, due))
    .returning()
  return claimed
}

/** The JSON body of an event, the same bytes on every attempt. */
export function eventBody(event: { id: string; type: string; createdAt: Date; data: unknown }) {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created: Math.floor(event.createdAt.getTime() / 1000),
    data: event.data,
  })
}

async function attempt(
  delivery: typeof webhookDeliveries.$inferSelect,
  resolve: Resolver | undefined,
): Promise<{ outcome: SendOutcome; eventType: string; eventCreatedAt: Date } | null> {
  const [target] = await db()
    .select({
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      endpointStatus: webhookEndpoints.status,
      eventType: webhookEvents.type,
      eventCreatedAt: webhookEvents.createdAt,
      data: webhookEvents.data,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, delivery.id))
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
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.status, 'active')))
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
 * after the event the delivery fails and its endpoint is disabled. `resolve` replaces DNS in tests.
 */
export async function deliverDueWebhooks({ now = new Date(), resolve }: { now?: Date; resolve?: Resolver } = {}) {
  let delivered = 0
  let failed = 0
  for (let next = await claimNextDelivery(now); next; next = await claimNextDelivery(now)) {
    const result = await attempt(next, resolve)
    if (!result) continue
    const { outcome } = result
    const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300
    const attempts = next.attempts + 1
    const error = ok ? null : (outcome.error ?? `HTTP ${outcome.statusCode}`)
    const givingUp = !ok && now.getTime() - result.eventCreatedAt.getTime() >= GIVE_UP_AFTER_MS
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
        nextAttemptAt: new Date(now.getTime() + webhookRetryDelayMs(attempts)),
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

/**
 * The settings page's endpoints with their delivery logs, newest first: two queries whatever the number of endpoints,
 * each log its endpoint's own newest `DELIVERY_LOG_LIMIT` attempts (ranked per endpoint in SQL, so a busy endpoint
 * never pushes a quiet one's log off the page).
 */
export async function listEndpointsWithLog(companyId: string) {
  const endpoints = await listWebhookEndpoints(companyId)
  const ranked = db()
    .select({
      id: webhookAttempts.id,
      endpointId: webhookAttempts.endpointId,
      deliveryId: webhookAttempts.deliveryId,
      eventId: webhookAttempts.eventId,
      eventType: webhookAttempts.eventType,
      attemptedAt: webhookAttempts.attemptedAt,
      statusCode: webhookAttempts.statusCode,
      durationMs: webhookAttempts.durationMs,
      error: webhookAttempts.error,
      rank: sql<number>`row_number() over (partition by ${webhookAttempts.endpointId} order by ${webhookAttempts.attemptedAt} desc, ${webhookAttempts.id} desc)`.as(
        'rank',
      ),
    })
    .from(webhookAttempts)
    .where(eq(webhookAttempts.companyId, companyId))
    .as('ranked')
  const attempts = endpoints.length
    ? await db()
        .select()
        .from(ranked)
        .where(lte(ranked.rank, DELIVERY_LOG_LIMIT))
        .orderBy(desc(ranked.attemptedAt), desc(ranked.id))
    : []
  return endpoints.map((endpoint) => ({
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    log: attempts
      .filter((attempt) => attempt.endpointId === endpoint.id)
      .map(({ rank: _rank, endpointId: _endpoint, attemptedAt, ...attempt }) => ({
        ...attempt,
        attemptedAt: attemptedAt.toISOString(),
      })),
  }))
}
