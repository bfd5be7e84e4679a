// Email on top of the queue (docs/subsystems.md "Email"): `sendEmail` renders a named template and queues it through
// `enqueue` in the caller's transaction; and the office's and the health check's reads of what is still queued or
// could not be delivered. The worker that sends is `worker.server.ts`; how it sends, `email-transport.server.ts`; how
// an email is drawn, `email-render.server.ts`.
import { and, desc, eq, gt, sql } from 'drizzle-orm'
import { emailOutbox } from '~/db/schema'
import type { EmailContent } from '~/mail/templates'
import { db } from '~/utils/db.server'
import { renderEmail } from './email-render.server'
import { enqueue, type OutboxExecutor, type QueuedEmail } from './enqueue.server'

/**
 * Queues an email: renders the template and writes it to the outbox in the caller's database (or transaction).
 * The worker delivers it; nothing is lost if SMTP is down. `companyId` is the company the email is sent for (a
 * service report, an invitation): its office is told if the email can never be delivered. Account emails that
 * belong to no company (sign-up confirmation, email change) pass none.
 */
export async function sendEmail(
  message: EmailContent &
    Pick<QueuedEmail, 'to' | 'companyId' | 'customerId' | 'notice' | 'attachments' | 'fromName' | 'replyTo'>,
  executor: OutboxExecutor = db(),
) {
  const { template: _, props: __, ...addressed } = message
  const [id] = await enqueue(executor, { kind: 'email', ...addressed, ...(await renderEmail(message)) })
  return id === undefined ? undefined : { id }
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
