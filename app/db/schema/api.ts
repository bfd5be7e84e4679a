import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { API_KEY_SCOPES } from '../../utils/api-fields'
import { companyRef, rowId } from './columns'
import { companies } from './companies'

// The values live in a plain module the browser can import without this file's table code (docs/performance.md).
export { API_KEY_SCOPES, type ApiKeyScope, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../utils/api-fields'

/**
 * A company's API keys (docs/decisions/050-public-api.md). Only the SHA-256 of a key is kept: a key is 32 random
 * bytes, so a fast hash is enough (nothing to guess), and a look-up by hash is one index probe per request.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: rowId(),
    companyId: companyRef(),
    name: text('name').notNull(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    /** The key's first characters ("pb_live_Ab12"), so a person can tell keys apart; never enough to use. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    unique('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_company_created_idx').on(t.companyId, t.createdAt),
    check('api_keys_scope_valid', sql`${t.scope} in ('read', 'write')`),
    check('api_keys_name_not_blank', sql`length(trim(${t.name})) > 0`),
  ],
)

/**
 * Each key's token bucket (600 a minute, bursts of 50): in the database so every app instance draws from the same
 * bucket; one row per key, so one company's traffic never touches another's row.
 */
export const apiRateBuckets = pgTable('api_rate_buckets', {
  apiKeyId: uuid('api_key_id')
    .primaryKey()
    .references(() => apiKeys.id, { onDelete: 'cascade' }),
  companyId: uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  tokens: doublePrecision('tokens').notNull(),
  refilledAt: timestamp('refilled_at', { withTimezone: true, precision: 3 }).notNull(),
  /** Whether the last request drawn from the bucket found a token (read back in the same statement). */
  allowed: boolean('allowed').notNull(),
})

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const

/**
 * Where a company's events are sent (docs/decisions/051-webhooks.md). The signing secret is kept as it is: it signs
 * every delivery, so it must be readable by the worker (unlike an API key, which is only compared).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: rowId(),
    companyId: companyRef(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    status: text('status', { enum: WEBHOOK_ENDPOINT_STATUSES }).notNull().default('active'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_endpoints_company_id_id_key').on(t.companyId, t.id),
    index('webhook_endpoints_company_created_idx').on(t.companyId, t.createdAt),
    check('webhook_endpoints_status_valid', sql`${t.status} in ('active', 'disabled')`),
  ],
)

/** One event (`{id, type, created, data}`), written in the transaction of the change it tells of. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: rowId(),
    companyId: companyRef(),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_events_company_created_idx').on(t.companyId, t.createdAt)],
)

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const

/**
 * One event to one endpoint: the worker's queue (claimed with SKIP LOCKED and a lease, as the email outbox is),
 * retried with back-off for a day.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: rowId(),
    companyId: companyRef(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_company_endpoint_idx').on(t.companyId, t.endpointId, t.createdAt),
    check('webhook_deliveries_status_valid', sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
)

/** Every attempt, for the endpoint's delivery log: when, which event, the HTTP status and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: rowId(),
    companyId: companyRef(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_company_endpoint_idx').on(t.companyId, t.endpointId, t.attemptedAt)],
)
