import { and, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import addressparser from 'nodemailer/lib/addressparser'
import type { ReactElement } from 'react'
import { type EmailAttachment, emailOutbox, mailboxMessages } from '~/db/schema'
import type { EmailContent, EmailTemplateName, EmailTemplateProps } from '~/mail/templates'
import { db } from './db.server'
import { env } from './env.server'
import { logger } from './logger.server'
import { getObject } from './storage.server'

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

/** How each named template turns its props into a subject and a React Email element. */
export type EmailTemplates = {
  [Name in EmailTemplateName]: (props: EmailTemplateProps[Name]) => { subject: string; react: ReactElement }
}

/**
 * The templates, registered once at start-up by `app/emails/templates.server.ts` (the server's start, the test set-up
 * and the scripts import it). This module sends email and knows no template, as models know none: they name one.
 */
let templates: EmailTemplates | null = null

export function registerEmailTemplates(registered: EmailTemplates) {
  templates = registered
}

/** Subject and both bodies of a named template, as the outbox stores them. */
export async function renderEmail(content: EmailContent) {
  if (!templates) throw new Error('No email templates registered: import "~/emails/templates.server" at start-up.')
  const draw = templates[content.template] as (props: EmailContent['props']) => { subject: string; react: ReactElement }
  const { subject, react } = draw(content.props)
  // Loaded with the first email drawn, not with this module: the models import it, and a script that uses them (the
  // bench's workloads) must not load React before it chooses React's production build.
  const { render } = await import('@react-email/render')
  const [html, text] = await Promise.all([render(react), render(react, { plainText: true })])
  return { subject, html, text }
}

/**
 * Queues an email: renders the template and writes it to the outbox in the caller's database (or transaction).
 * The worker delivers it; nothing is lost if SMTP is down. `companyId` is the company the email is sent for (a
 * service report, an invitation): its office is told if the email can never be delivered. Account emails that
 * belong to no company (sign-up confirmation, email change) pass none.
 */
export async function sendEmail(
  message: EmailContent & {
    to: string
    attachments?: EmailAttachment[]
    companyId?: string | null
    /** A customer notice: its event, what it is about (a visit's id) and the customer (their Messages log). */
    notice?: { event: string; subject: string; customerId: string }
    /**
     * A customer email sent as the company: From "<company name>" <MAIL_FROM's address>, Reply-To the company's
     * address when it has one. Staff and account emails leave it out and come from Pool Bud (MAIL_FROM as it is).
     */
    sender?: { name: string; replyTo?: string | null }
  },
  executor: Pick<ReturnType<typeof db>, 'insert'> = db(),
) {
  const { subject, html, text } = await renderEmail(message)
  const attachments = message.attachments?.length ? message.attachments : null
  const [row] = await executor
    .insert(emailOutbox)
    .values({
      to: message.to,
      subject,
      html,
      text,
      attachments,
      companyId: message.companyId ?? null,
      noticeEvent: message.notice?.event ?? null,
      noticeSubject: message.notice?.subject ?? null,
      customerId: message.notice?.customerId ?? null,
      fromName: message.sender?.name ?? null,
      replyTo: message.sender?.replyTo ?? null,
      // Due from this process's clock, in whole milliseconds as the worker compares. The database's default (now(),
      // in microseconds) could put a row a fraction of a millisecond after a worker's `now` taken just after the
      // insert, and that worker would pass it over until its next tick.
      nextAttemptAt: new Date(),
    })
    .returning({ id: emailOutbox.id })
  kickOutboxWorker()
  return row
}

/**
 * The Message-ID of an outbox row, the same on every attempt: when a process dies after the SMTP server took the
 * message but before the row was marked sent, the retry carries the same id, so mail servers and clients see one
 * message, not two.
 */
export function messageIdFor(emailId: string) {
  return `<${emailId}@${new URL(env().APP_URL).hostname}>`
}

/** An inline image read from storage, ready to send. */
export type LoadedAttachment = { cid: string; filename: string; contentType: string; content: Buffer }

export type OutgoingMail = {
  messageId: string
  /** MAIL_FROM, or the company's name with MAIL_FROM's address (see `senderAddress`). */
  from: string | { name: string; address: string }
  replyTo?: string
  to: string
  subject: string
  html: string
  text: string
  attachments: LoadedAttachment[]
}

type Transport = { send: (mail: OutgoingMail) => Promise<void> }

function smtpTransport(smtpUrl: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transporter.sendMail(mail)
    },
  }
}

/**
 * Who an email is from: MAIL_FROM as configured for Pool Bud's own emails; for a company's, its name with MAIL_FROM's
 * address (parsed by nodemailer, so "Pool Bud <no-reply@…>" gives the address alone). The name is handed to
 * nodemailer as a name, never pasted into a header: it quotes or encodes it, and line breaks and control characters
 * are taken out first, so a company named `Evil"\r\nBcc: x@y` adds no header.
 */
export function senderAddress(fromName: string | null | undefined): OutgoingMail['from'] {
  const configured = env().MAIL_FROM
  if (!fromName) return configured
  const [parsed] = addressparser(configured, { flatten: true })
  const address = parsed && 'address' in parsed ? parsed.address : ''
  const name = fromName
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (!address || !name) return configured
  return { name, address }
}

/** One bare address (no name, no list, no line breaks): what Reply-To may be set to. */
function isPlainAddress(value: string) {
  return /^[^\s@<>",;]+@[^\s@<>",;]+$/.test(value)
}

/** The mailbox page shows HTML only, so inline images become data URLs there. */
function inlineImages(html: string, attachments: LoadedAttachment[]) {
  return attachments.reduce(
    (page, image) =>
      page.replaceAll(`cid:${image.cid}`, `data:${image.contentType};base64,${image.content.toString('base64')}`),
    html,
  )
}

/** With no SMTP server the email lands in the built-in mailbox, and its links go to the log. */
const mailboxTransport: Transport = {
  async send({ attachments, messageId: _, replyTo: __, from, ...mail }) {
    const fromText = typeof from === 'string' ? from : `"${from.name.replace(/["\\]/g, '\\$&')}" <${from.address}>`
    await db()
      .insert(mailboxMessages)
      .values({ ...mail, html: inlineImages(mail.html, attachments), from: fromText })
    const links = mail.text.match(/https?:\/\/[^\s)\]]+/g) ?? []
    logger.info({ to: mail.to, subject: mail.subject, links }, 'email delivered to the built-in mailbox')
    console.log(`✉  ${mail.subject} → ${mail.to}${links.map((l) => `\n   ${l}`).join('')}`)
  },
}

function currentTransport(): Transport {
  const smtpUrl = env().SMTP_URL
  return smtpUrl ? smtpTransport(smtpUrl) : mailboxTransport
}

/**
 * Reads an email's inline images from storage. A photo replaced or deleted since the email was queued is left
 * out (its alt text shows) rather than holding back the rest of the email forever.
 */
async function loadAttachments(emailId: string, attachments: EmailAttachment[]) {
  const loaded = await Promise.all(
    attachments.map(async (attachment): Promise<LoadedAttachment | null> => {
      const object = await getObject(attachment.storageKey)
      if (!object) {
        logger.warn({ emailId, storageKey: attachment.storageKey }, 'email image missing; sending without it')
        return null
      }
      return {
        cid: attachment.cid,
        filename: attachment.filename,
        contentType: attachment.contentType,
        content: object.bytes,
      }
    }),
  )
  return loaded.filter((attachment) => attachment !== null)
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
 * What sending one text came to. The texts module (app/notices/text-delivery.server.ts) decides it from the
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

let timer: NodeJS.Timeout | undefined
let running: Promise<unknown> | undefined

function runWorkerOnce() {
  running ??= deliverDueEmails()
    .catch((error) => logger.error({ error }, 'outbox worker failed'))
    .finally(() => {
      running = undefined
    })
  return running
}

/** Asks the worker to look now rather than at its next tick (no-op when it is not started). */
export function kickOutboxWorker() {
  if (timer) setImmediate(runWorkerOnce)
}

/** Starts polling the outbox; the server calls this once at start-up. */
export function startOutboxWorker(intervalMs = 5_000) {
  if (timer) return
  timer = setInterval(runWorkerOnce, intervalMs)
  timer.unref()
  void runWorkerOnce()
}

export async function stopOutboxWorker() {
  if (timer) clearInterval(timer)
  timer = undefined
  await running
}

/** Undelivered emails stay on the dashboards for a week after they were marked failed (queued 8 days ago). */
const UNDELIVERED_SHOWN_MS = 8 * 24 * 60 * 60_000

/** How many of them the notice lists; the count says how many there are in all. */
export const UNDELIVERED_LISTED = 5

/** The company's emails that could not be delivered for a day, newest first, for the owner and admin dashboards. */
export async function listUndeliveredEmails({ companyId, now = new Date() }: { companyId: string; now?: Date }) {
  const failedForCompany = and(
    eq(emailOutbox.companyId, companyId),
    eq(emailOutbox.status, 'failed'),
    gt(emailOutbox.createdAt, new Date(now.getTime() - UNDELIVERED_SHOWN_MS)),
  )
  const rows = await db()
    .select({
      id: emailOutbox.id,
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      lastError: emailOutbox.lastError,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(emailOutbox)
    .where(failedForCompany)
    .orderBy(desc(emailOutbox.createdAt))
    .limit(UNDELIVERED_LISTED)
  return { total: rows[0]?.total ?? 0, emails: rows.map(({ total: _, ...email }) => email) }
}

/** Pending emails, for the health check and tests. */
export async function countPendingEmails() {
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, 'pending'))
  return row?.count ?? 0
}
