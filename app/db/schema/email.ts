import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies'

/**
 * An image shown inline in an email (`<img src="cid:…">`). Only the storage key is queued: the worker reads the
 * file when it sends, so the outbox stays small and the photo never sits in the database twice.
 */
export type EmailAttachment = { cid: string; filename: string; storageKey: string; contentType: string }

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const

/**
 * What a row asks the worker to do: send the rendered email, or a "password reset requested" task that the
 * worker turns into the reset email once it has looked the address up (so the request itself does the same work
 * for every address).
 */
export const OUTBOX_KINDS = ['email', 'password-reset'] as const

/** Every email is written here first, then delivered by the outbox worker with retries. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: OUTBOX_KINDS }).notNull().default('email'),
    /** The company the email was sent for (null for account emails), whose office is told when it fails. */
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
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
    index('email_outbox_company_failed_idx').on(t.companyId, t.createdAt).where(sql`${t.status} = 'failed'`),
    check('email_outbox_status_valid', sql`${t.status} in ('pending', 'sent', 'failed')`),
    check('email_outbox_kind_valid', sql`${t.kind} in ('email', 'password-reset')`),
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
