// "Send quote" (issue 33 item 2; docs/quotes.md): the current version is marked sent and so never changes again
// (app/models/quote-edits.server.ts writes the next one), and the customer is emailed a link to the portal through
// the outbox, once per version, in the same transaction.
import { and, count, eq } from 'drizzle-orm'
import { quoteNumberLabel } from '~/billing/quote-math'
import { companies, customers, quoteLines, quotes, quoteVersions } from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { formatCents } from '~/utils/money'
import { portalQuotePath } from '~/utils/portal-paths'
import { failure, type Result, success } from '~/utils/result'
import { customerEmailBrand } from './company-brand'
import { lockQuote, QUOTE_MESSAGES, versionOf } from './quote-edits.server'

/**
 * "Send quote": the current version is marked sent (never to change again), the quote is Sent, and the customer is
 * emailed from the company with a link to the portal — in one transaction, once per version.
 */
export async function sendQuote(
  companyId: string,
  quoteId: string,
  database: Database = db(),
): Promise<Result<{ email: string; version: number }>> {
  return database.transaction(async (tx) => {
    const quote = await lockQuote(tx, companyId, quoteId)
    if (!quote) return failure('not-found', QUOTE_MESSAGES.notFound)
    if (quote.state === 'approved' || quote.state === 'declined') return failure('conflict', QUOTE_MESSAGES.decided)
    const version = await versionOf(tx, companyId, quote.id, quote.currentVersion)
    if (!version) return failure('not-found', QUOTE_MESSAGES.notFound)
    const [lineCount] = await tx
      .select({ n: count() })
      .from(quoteLines)
      .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, version.id)))
    if (!lineCount?.n) return failure('invalid', QUOTE_MESSAGES.noLines)
    const [row] = await tx
      .select({
        number: quotes.number,
        customerName: customers.customerName,
        email: customers.email,
        companyName: companies.name,
        companyEmail: companies.email,
        logoKey: companies.logoKey,
      })
      .from(quotes)
      .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
      .innerJoin(companies, eq(companies.id, quotes.companyId))
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quote.id)))
    if (!row) return failure('not-found', QUOTE_MESSAGES.notFound)
    if (!row.email) return failure('invalid', QUOTE_MESSAGES.noEmail)
    const now = new Date()
    if (!version.sentAt) {
      await tx.update(quoteVersions).set({ sentAt: now }).where(eq(quoteVersions.id, version.id))
    }
    await tx
      .update(quotes)
      .set({ state: 'sent' })
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quote.id)))
    const sender = customerEmailBrand({ name: row.companyName, email: row.companyEmail, logoKey: row.logoKey })
    const label = quoteNumberLabel(row.number)
    const email = await renderEmail({
      template: 'card',
      props: {
        subject: `${row.companyName}: quote ${label}${version.version > 1 ? ` (version ${version.version})` : ''}`,
        heading: `Quote ${label}`,
        lines: [
          `Hi ${row.customerName}, ${row.companyName} has sent you a quote for ${formatCents(version.totalCents)}.`,
          version.validUntil ? `It is valid until ${version.validUntil}.` : 'Open it to review the work and the price.',
          ...(version.customerNote ? [version.customerNote] : []),
        ],
        actionLabel: 'View quote',
        url: `${env().APP_URL}${portalQuotePath(quote.customerId, quote.id)}`,
        footer: `You receive this email because ${row.companyName} services your pool with Pool Bud.`,
        brand: sender.brand,
      },
    })
    await enqueue(tx, {
      kind: 'email',
      companyId,
      customerId: quote.customerId,
      to: row.email,
      fromName: sender.fromName,
      replyTo: sender.replyTo,
      attachments: sender.attachments,
      // Once per version and recipient, however often "Send quote" is pressed.
      notice: { event: 'quote-sent', subject: version.id },
      ...email,
    })
    return success({ email: row.email, version: version.version })
  })
}
