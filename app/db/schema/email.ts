import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { rowId } from './columns'
import { companies } from './companies'

/**
 * An image shown inline in an email (`<img src="cid:…">`). Only the storage key is queued: the worker reads the
 * file when it sends, so the outbox stays small and the photo never sits in the database twice.
 */
export type EmailAttachment = { cid: string; filename: string; storageKey: string; contentType: string }

/** 'opted-out': a text never sent because its number replied STOP (kept, so the customer's Messages say why). */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'opted-out'] as const

/**
 * What a row asks the worker to do: send the rendered email, or a "password reset requested" task that the
 * worker turns into the reset email once it has looked the address up (so the request itself does the same work
 * for every address).
 */
export const OUTBOX_KINDS = ['email', 'password-reset', 'text'] as const

/**
 * Every email and text message is written here first, then delivered by the one outbox worker with retries (a
 * text is a row of kind 'text': `to` is its E.164 number, `text` its body). A customer notice
 * (docs/product.md "Notices") also names its event and what it is about (`notice_subject`: the visit's or invoice's
 * id), unique with the channel and the recipient: a notice is queued once however often its event fires, on however
 * many servers.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: rowId(),
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
    /** A customer notice's event ('on-my-way', 'visit-completed' …); null for account and office emails. */
    noticeEvent: text('notice_event'),
    /** What the notice is about: the visit's or the invoice's id (with a suffix for repeated reminders). */
    noticeSubject: text('notice_subject'),
    /** The customer the notice was for: their "Messages" log. */
    customerId: uuid('customer_id'),
    /** The provider's id for a sent text (Twilio's message sid). */
    providerId: text('provider_id'),
    /**
     * Customer emails come from the company (issue 31 item 5, docs/decisions/039-invoice-pdf.md): the display name of
     * From (the address stays MAIL_FROM's) and Reply-To; null for Pool Bud's own emails (invites, resets).
     */
    fromName: text('from_name'),
    replyTo: text('reply_to'),
  },
  (t) => [
    uniqueIndex('email_outbox_notice_key')
      .on(t.companyId, t.noticeEvent, t.noticeSubject, t.kind, t.to)
      .where(sql`${t.noticeEvent} is not null`),
    // A customer's messages, newest first (`order by created_at desc, id desc`: nulls first, as the index is).
    index('email_outbox_company_customer_idx')
      .on(t.companyId, t.customerId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.customerId} is not null`),
    index('email_outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('email_outbox_company_failed_idx').on(t.companyId, t.createdAt).where(sql`${t.status} = 'failed'`),
    check('email_outbox_status_valid', sql`${t.status} in ('pending', 'sent', 'failed', 'opted-out')`),
    check('email_outbox_kind_valid', sql`${t.kind} in ('email', 'password-reset', 'text')`),
    check('email_outbox_notice_complete', sql`(${t.noticeEvent} is null) = (${t.noticeSubject} is null)`),
  ],
)

/**
 * The built-in mailbox: where email lands when no SMTP server is configured, and texts when no Twilio account is
 * (listed at /dev/mailbox, "Emails" and "Texts").
 */
export const mailboxMessages = pgTable(
  'mailbox_messages',
  {
    id: rowId(),
    kind: text('kind', { enum: ['email', 'text'] })
      .notNull()
      .default('email'),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mailbox_messages_created_idx').on(t.createdAt.desc())],
)

/**
 * Numbers that replied STOP to our texting number (docs/product.md "Notices"). Twilio blocks a number per sending
 * number, and every company sends from the one TWILIO_FROM, so an opt-out holds for every company; START removes it. A
 * text is never sent to a number here: it is recorded as 'opted-out' instead.
 */
export const textOptOuts = pgTable(
  'text_opt_outs',
  {
    phone: text('phone').notNull(),
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }).notNull().defaultNow(),
    /** The word the customer sent ("STOP", "UNSUBSCRIBE" …), or 'provider' when Twilio refused with 21610. */
    via: text('via').notNull(),
  },
  (t) => [primaryKey({ name: 'text_opt_outs_pkey', columns: [t.phone] })],
)

/**
 * Inbound texts already handled, by Twilio's MessageSid (decision 032): Twilio's signatures carry no time, so a
 * captured signed START could be posted again; the second post of a MessageSid changes nothing.
 */
export const inboundTexts = pgTable('inbound_texts', {
  messageSid: text('message_sid').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})
