import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * An image shown inline in an email (`<img src="cid:…">`). Only the storage key is queued: the worker reads the
 * file when it sends, so the outbox stays small and the photo never sits in the database twice.
 */
export type EmailAttachment = { cid: string; filename: string; storageKey: string; contentType: string }

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const

/** Every email is written here first, then delivered by the outbox worker with retries. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments').$type<EmailAttachment[]>(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('email_outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('email_outbox_status_valid', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
)

/** The built-in mailbox: where email lands when no SMTP server is configured (listed at /dev/mailbox). */
export const mailboxMessages = pgTable(
  'mailbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mailbox_messages_created_idx').on(t.createdAt.desc())],
)
