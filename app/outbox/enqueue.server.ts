// The outbox's one write (docs/subsystems.md "Email", docs/decisions/067-one-outbox.md,
// docs/decisions/070-webhooks-in-the-outbox.md): every email, text, task and webhook is queued here, in the caller's
// transaction, so it is sent if and only if the change that caused it is committed, and nothing is lost while SMTP,
// Twilio or a receiver is down. The workers (`worker.server.ts`, `webhook-worker.server.ts`) claim and send the rows.
import { sql } from 'drizzle-orm'
import { type EmailAttachment, emailOutbox, type WebhookEventType } from '~/db/schema'
import { type Database, queryRows } from '~/utils/db.server'
import { OPTED_OUT_MESSAGE } from './text-delivery.server'
import { kickOutboxWorker } from './worker.server'

/** Where `enqueue` writes: the caller's database or transaction. */
export type OutboxExecutor = Pick<Database, 'insert' | 'execute'>

type Addressed = {
  to: string
  /** The company it is sent for, whose office is told when it can never be delivered; none for account emails. */
  companyId?: string | null
  /** The customer it is for: their Messages log. */
  customerId?: string | null
  /**
   * A notice's key: its event ('on-my-way', 'quote-sent' …) and what it is about (a visit's, an invoice's id). The
   * outbox's unique key (company, event, subject, kind, to) queues it once however often its event fires: a second
   * enqueue of it is dropped.
   */
  notice?: { event: string; subject: string }
}

/** A rendered email (`sendEmail` renders a template into one). */
export type QueuedEmail = Addressed & {
  kind: 'email'
  subject: string
  html: string
  text: string
  attachments?: EmailAttachment[] | null
  /**
   * A customer email sent as the company: From "<company name>" <MAIL_FROM's address>, Reply-To the company's address
   * when it has one. Staff and account emails leave both out and come from Pool Bud (MAIL_FROM as it is).
   */
  fromName?: string | null
  replyTo?: string | null
}

export type QueuedText = Addressed & {
  kind: 'text'
  /** What the Messages log calls it ("On my way"). */
  label: string
  text: string
  /** The number replied STOP: the row is kept as the record of why the customer was not texted, and never sent. */
  optedOut?: boolean
}

/** A task the worker turns into an email itself (it looks the address up then): see `registerOutboxTask`. */
export type QueuedTask = { kind: 'password-reset'; to: string; subject: string }

export type OutboxMessage = QueuedEmail | QueuedText | QueuedTask

/**
 * A webhook event (docs/decisions/051-webhooks.md): the event, and one delivery of it to each active endpoint of the
 * company that asked for its type.
 */
export type QueuedWebhook = {
  kind: 'webhook'
  companyId: string
  type: WebhookEventType
  data: Record<string, unknown>
}

export const TEST_EVENT_TYPE = 'endpoint.test'
const TEST_EVENT_DATA = JSON.stringify({ message: 'A test event from Pool Bud.' })

/** "Send test event": an `endpoint.test` event to one endpoint of the company alone (none when it has no such one). */
export type QueuedWebhookTest = { kind: 'webhook-test'; companyId: string; endpointId: string }

/** "Resend": the event of one of the company's deliveries (same event id), due again for its endpoint. */
export type QueuedWebhookResend = { kind: 'webhook-resend'; companyId: string; deliveryId: string }

export type WebhookMessage = QueuedWebhook | QueuedWebhookTest | QueuedWebhookResend

/** What `enqueue` takes: an `email_outbox` row, or a webhook message (`webhook_events`, `webhook_deliveries`). */
export type QueuedMessage = OutboxMessage | WebhookMessage

const isWebhook = (message: QueuedMessage): message is WebhookMessage =>
  message.kind === 'webhook' || message.kind === 'webhook-test' || message.kind === 'webhook-resend'

function rowOf(message: OutboxMessage, dueAt: Date): typeof emailOutbox.$inferInsert {
  // Due from this process's clock, in whole milliseconds as the worker compares. The database's default (now(), in
  // microseconds) could put a row a fraction of a millisecond after a worker's `now` taken just after the insert,
  // and that worker would pass it over until its next tick.
  const base = { kind: message.kind, to: message.to, nextAttemptAt: dueAt }
  if (message.kind === 'password-reset') return { ...base, subject: message.subject, html: '', text: '' }
  const addressed = {
    ...base,
    companyId: message.companyId ?? null,
    customerId: message.customerId ?? null,
    noticeEvent: message.notice?.event ?? null,
    noticeSubject: message.notice?.subject ?? null,
  }
  if (message.kind === 'text') {
    const optedOut = message.optedOut ? { status: 'opted-out' as const, lastError: OPTED_OUT_MESSAGE } : {}
    return { ...addressed, subject: message.label, html: '', text: message.text, ...optedOut }
  }
  return {
    ...addressed,
    subject: message.subject,
    html: message.html,
    text: message.text,
    attachments: message.attachments?.length ? message.attachments : null,
    fromName: message.fromName ?? null,
    replyTo: message.replyTo ?? null,
  }
}

/**
 * The SQL of one webhook message: one statement, so it is whole even on a caller's plain connection, returning the
 * ids of the deliveries it queued. Its times are this process's clock, as every outbox row's.
 */
function webhookStatement(message: WebhookMessage, dueAt: Date) {
  const at = sql`${dueAt.toISOString()}::timestamptz`
  switch (message.kind) {
    case 'webhook':
      return sql`
        with event as (
          insert into webhook_events (company_id, type, data, created_at)
          values (${message.companyId}, ${message.type}, ${JSON.stringify(message.data)}::jsonb, ${at})
          returning id
        )
        insert into webhook_deliveries (company_id, endpoint_id, event_id, next_attempt_at)
        select endpoint.company_id, endpoint.id, event.id, ${at}
        from webhook_endpoints endpoint, event
        where endpoint.company_id = ${message.companyId} and endpoint.status = 'active'
          and ${message.type} = any(endpoint.events)
        returning id`
    case 'webhook-test':
      return sql`
        with endpoint as (
          select company_id, id from webhook_endpoints
          where company_id = ${message.companyId} and id = ${message.endpointId}
        ), event as (
          insert into webhook_events (company_id, type, data, created_at)
          select company_id, ${TEST_EVENT_TYPE}::text, ${TEST_EVENT_DATA}::jsonb, ${at}
          from endpoint
          returning id
        )
        insert into webhook_deliveries (company_id, endpoint_id, event_id, next_attempt_at)
        select endpoint.company_id, endpoint.id, event.id, ${at}
        from endpoint, event
        returning id`
    case 'webhook-resend':
      return sql`
        insert into webhook_deliveries (company_id, endpoint_id, event_id, next_attempt_at)
        select company_id, endpoint_id, event_id, ${at}
        from webhook_deliveries
        where company_id = ${message.companyId} and id = ${message.deliveryId}
        returning id`
  }
}

/**
 * Queues `messages` in the caller's database or transaction and returns the ids of the rows that are new: outbox rows
 * (a notice already queued is not new) and webhook deliveries. The email worker is asked to look now, except for
 * tasks alone: a task waits for its next tick, so the look-up it does never runs while the request that queued it is
 * answered (a password reset's timing tells nobody whether an address has an account). The webhook worker is not
 * kicked: it looks every few seconds.
 */
export async function enqueue(executor: OutboxExecutor, messages: QueuedMessage | QueuedMessage[]) {
  const all = Array.isArray(messages) ? messages : [messages]
  const dueAt = new Date()
  const ids: string[] = []
  for (const message of all.filter(isWebhook)) {
    const queued = await queryRows<{ id: string }>(webhookStatement(message, dueAt), executor)
    ids.push(...queued.map((row) => row.id))
  }
  const outbox = all.filter((message) => !isWebhook(message))
  if (outbox.length === 0) return ids
  const inserted = await executor
    .insert(emailOutbox)
    .values(outbox.map((message) => rowOf(message, dueAt)))
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id })
  if (inserted.length && outbox.some((message) => message.kind !== 'password-reset')) kickOutboxWorker()
  return [...ids, ...inserted.map((row) => row.id)]
}
