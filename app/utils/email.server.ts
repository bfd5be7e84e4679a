import { render } from '@react-email/render'
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import nodemailer from 'nodemailer'
import type { ReactElement } from 'react'
import { emailOutbox, mailboxMessages } from '~/db/schema'
import { db } from './db.server'
import { env } from './env.server'
import { logger } from './logger.server'

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
  message: { to: string; subject: string; react: ReactElement },
  executor: Pick<ReturnType<typeof db>, 'insert'> = db(),
) {
  const [html, text] = await Promise.all([render(message.react), render(message.react, { plainText: true })])
  const [row] = await executor
    .insert(emailOutbox)
    .values({ to: message.to, subject: message.subject, html, text })
    .returning({ id: emailOutbox.id })
  kickOutboxWorker()
  return row
}

type Transport = { send: (mail: { to: string; subject: string; html: string; text: string }) => Promise<void> }

function smtpTransport(smtpUrl: string): Transport {
  const transporter = nodemailer.createTransport(smtpUrl)
  return {
    async send(mail) {
      await transporter.sendMail({ from: env().MAIL_FROM, ...mail })
    },
  }
}

/** With no SMTP server the email lands in the built-in mailbox, and its links go to the log. */
const mailboxTransport: Transport = {
  async send(mail) {
    await db()
      .insert(mailboxMessages)
      .values({ ...mail, from: env().MAIL_FROM })
    const links = mail.text.match(/https?:\/\/[^\s)\]]+/g) ?? []
    logger.info({ to: mail.to, subject: mail.subject, links }, 'email delivered to the built-in mailbox')
    console.log(`✉  ${mail.subject} → ${mail.to}${links.map((l) => `\n   ${l}`).join('')}`)
  },
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/**
 * The mailbox holds reset and invitation links, so it is listed at /dev/mailbox only in the
 * embedded demo (no SMTP server, no DATABASE_URL) and only to a browser on this machine.
 * `clientIp` is the address server.mjs sets; it is absent only under the Vite dev server.
 */
export function mailboxListingEnabled(clientIp: string | null) {
  const config = env()
  const local = clientIp === null || LOOPBACK.has(clientIp)
  return !config.SMTP_URL && !config.DATABASE_URL && local
}

function currentTransport(): Transport {
  const smtpUrl = env().SMTP_URL
  return smtpUrl ? smtpTransport(smtpUrl) : mailboxTransport
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
      await transport.send({ to: next.to, subject: next.subject, html: next.html, text: next.text })
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
