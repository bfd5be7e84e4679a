import { render } from '@react-email/render'
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { ReactElement } from 'react'
import { type EmailAttachment, emailOutbox, mailboxMessages } from '~/db/schema'
import { db } from './db.server'
import { env } from './env.server'
import { logger } from './logger.server'
import { getObject } from './storage.server'

/** After this many failed attempts an email is marked failed (≈ 1 day of back-off). */
export const MAX_EMAIL_ATTEMPTS = 12

/** Back-off after the nth failure: 30 s, 1 min, 2 min … capped at 1 hour. */
export function retryDelayMs(attempts: number) {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000)
}

/**
 * Queues an email: renders the template and writes it to the outbox in the caller's
 * database (or transaction). The worker delivers it; nothing is lost if SMTP is down.
 */
export async function sendEmail(
  message: { to: string; subject: string; react: ReactElement; attachments?: EmailAttachment[] },
  executor: Pick<ReturnType<typeof db>, 'insert'> = db(),
) {
  const [html, text] = await Promise.all([render(message.react), render(message.react, { plainText: true })])
  const attachments = message.attachments?.length ? message.attachments : null
  const [row] = await executor
    .insert(emailOutbox)
    .values({ to: message.to, subject: message.subject, html, text, attachments })
    .returning({ id: emailOutbox.id })
  kickOutboxWorker()
  return row
}

/** An inline image read from storage, ready to send. */
export type LoadedAttachment = { cid: string; filename: string; contentType: string; content: Buffer }

export type OutgoingMail = { to: string; subject: string; html: string; text: string; attachments: LoadedAttachment[] }

type Transport = { send: (mail: OutgoingMail) => Promise<void> }

function smtpTransport(smtpUrl: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transporter.sendMail({ from: env().MAIL_FROM, ...mail })
    },
  }
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
  async send({ attachments, ...mail }) {
    await db()
      .insert(mailboxMessages)
      .values({ ...mail, html: inlineImages(mail.html, attachments), from: env().MAIL_FROM })
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

/** How long a claimed email is reserved for one worker before another may retry it. */
const CLAIM_LEASE_MS = 5 * 60_000

/** Claims the next due email for this worker, or returns undefined when none is due. */
async function claimNextDueEmail(now: Date) {
  const due = db()
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true })
  const [claimed] = await db()
    .update(emailOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
    .where(inArray(emailOutbox.id, due))
    .returning()
  return claimed
}

/**
 * Delivers every due email once. Each row is claimed with a lease (SKIP LOCKED), then
 * sent outside any transaction, so a slow SMTP server never holds the database and
 * several app instances never send the same email at once. Returns the counts.
 */
export async function deliverDueEmails({ now = new Date(), transport = currentTransport() } = {}) {
  let sent = 0
  let failed = 0
  for (let next = await claimNextDueEmail(now); next; next = await claimNextDueEmail(now)) {
    const attempts = next.attempts + 1
    try {
      const attachments = await loadAttachments(next.id, next.attachments ?? [])
      await transport.send({ to: next.to, subject: next.subject, html: next.html, text: next.text, attachments })
      await db()
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: new Date(), attempts, lastError: null })
        .where(eq(emailOutbox.id, next.id))
      sent++
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      logger.warn({ emailId: next.id, attempts, error: message }, 'email delivery failed; will retry')
      await db()
        .update(emailOutbox)
        .set({
          attempts,
          lastError: message.slice(0, 1000),
          status: attempts >= MAX_EMAIL_ATTEMPTS ? 'failed' : 'pending',
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        })
        .where(eq(emailOutbox.id, next.id))
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

/** Pending emails, for the health check and tests. */
export async function countPendingEmails() {
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, 'pending'))
  return row?.count ?? 0
}
