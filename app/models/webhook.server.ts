// Webhook endpoints (docs/decisions/051-webhooks.md): add, edit, delete, "Resend", "Send test event" and the settings
// page's delivery log. Events and deliveries are queued through the outbox's `enqueue` (app/outbox/enqueue.server.ts)
// and sent by its webhook worker (app/outbox/webhook-worker.server.ts, docs/decisions/070-webhooks-in-the-outbox.md).
import { randomBytes } from 'node:crypto'
import { and, desc, eq, lte, sql } from 'drizzle-orm'
import { type WebhookEventType, webhookAttempts, webhookEndpoints } from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { checkEndpointUrl } from '~/utils/webhook-address.server'
import { after as keysetAfter, keysetOrder } from './api-paging.server'

export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found.'

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
  const [queued] = await enqueue(db(), { kind: 'webhook-resend', companyId, deliveryId })
  return queued ? success({}) : failure('not-found', 'Delivery not found.')
}

/** "Send test event": an `endpoint.test` event for this endpoint alone. */
export async function sendTestEvent({ companyId, endpointId }: { companyId: string; endpointId: string }) {
  if (!isUuid(endpointId)) return failure('not-found', ENDPOINT_NOT_FOUND)
  const [queued] = await enqueue(db(), { kind: 'webhook-test', companyId, endpointId })
  return queued ? success({}) : failure('not-found', ENDPOINT_NOT_FOUND)
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
