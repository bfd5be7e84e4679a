// The outbox's one write (docs/subsystems.md "Email", docs/decisions/067-one-outbox.md): every email, text and task is
// queued here, in the caller's transaction, so it is sent if and only if the change that caused it is committed, and
// nothing is lost while SMTP or Twilio is down. The worker (`worker.server.ts`) claims and sends the rows.
import { type EmailAttachment, emailOutbox } from '~/db/schema'
import type { Database } from '~/utils/db.server'
import { OPTED_OUT_MESSAGE } from './text-delivery.server'
import { kickOutboxWorker } from './worker.server'

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
 * Queues `messages` in the caller's database or transaction and returns the ids of the rows that are new (a notice
 * already queued is not). The worker is asked to look now, except for tasks alone: a task waits for its next tick,
 * so the look-up it does never runs while the request that queued it is answered (a password reset's timing tells
 * nobody whether an address has an account).
 */
export async function enqueue(executor: Pick<Database, 'insert'>, messages: OutboxMessage | OutboxMessage[]) {
  const all = Array.isArray(messages) ? messages : [messages]
  if (all.length === 0) return []
  const dueAt = new Date()
  const inserted = await executor
    .insert(emailOutbox)
    .values(all.map((message) => rowOf(message, dueAt)))
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id })
  if (inserted.length && all.some((message) => message.kind !== 'password-reset')) kickOutboxWorker()
  return inserted.map((row) => row.id)
}
