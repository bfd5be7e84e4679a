// The email queue (docs/subsystems.md "Email"): `sendEmail` writes a rendered email to the outbox in the caller's
// transaction, so nothing is lost while SMTP is down, and the office's and the health check's reads of what is still
// queued or could not be delivered. The worker that sends is `outbox-worker.server.ts`; how it sends,
// `email-transport.server.ts`; how an email is drawn, `email-render.server.ts`.
import { and, desc, eq, gt, sql } from 'drizzle-orm'
import { type EmailAttachment, emailOutbox } from '~/db/schema'
import type { EmailContent } from '~/mail/templates'
import { db } from './db.server'
import { renderEmail } from './email-render.server'
import { kickOutboxWorker } from './outbox-worker.server'

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
