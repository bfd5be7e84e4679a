// Autopay (docs/billing.md): a sent invoice of a customer who saved a card is charged off-session; a declined charge is
// retried 3 times over a week, then "Payment failed" reaches the office and the customer. Every server runs this
// (app/runtime/startup.server.ts), so work is claimed in PostgreSQL: due invoices are locked with FOR UPDATE SKIP
// LOCKED and leased (autopay_next_at moved past the Stripe call) in one short transaction, then charged outside it —
// no transaction waits on Stripe. The charge's idempotency key names the invoice, the attempt and the amount: a lost
// answer asked again, or a second server that somehow got the same attempt, makes Stripe answer the first charge
// again instead of charging twice. A success is recorded with the PaymentIntent's id as its reference, the same
// reference the payment_intent.succeeded webhook uses, so the two never record it twice.
import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { outstandingCents } from '~/billing/invoice-status'
import { chargeOffSession, configuredStripe } from '~/billing/stripe.server'
import { companies, customers, invoices, profiles } from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue, type QueuedEmail } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { portalInvoicePath } from '~/utils/portal-paths'
import { STRIPE_MINIMUM_CENTS } from './card-checkout.server'
import { recordCardPayment } from './card-payment.server'
import { customerEmailBrand } from './company-brand'
import { getEmailCompany } from './company-brand.server'

/** Days between a declined charge and its retry: retried on days 1, 3 and 7 after the first charge. */
export const AUTOPAY_RETRY_DELAYS_DAYS = [1, 2, 4] as const
/** The first charge and its retries. */
export const AUTOPAY_MAX_ATTEMPTS = 1 + AUTOPAY_RETRY_DELAYS_DAYS.length
/** A claimed invoice is not due again for this long: far longer than a charge can take (3 tries × 20 s). */
export const AUTOPAY_LEASE_MS = 10 * 60_000
/** Stripe did not decide (network, outage): ask again this soon, with the same idempotency key. */
export const AUTOPAY_RECHECK_MS = 15 * 60_000
const AUTOPAY_PER_RUN = 50
const DAY_MS = 24 * 60 * 60_000

/** The customer notice's event and the office email's: once per invoice and recipient by the outbox's notice key. */
export const PAYMENT_FAILED_EVENT = 'payment-failed'

export type AutopayRun = { charged: number; declined: number; failed: number; rechecked: number; dropped: number }

type Claimed = {
  id: string
  companyId: string
  customerId: string
  number: number
  state: 'draft' | 'sent' | 'void'
  totalCents: number
  paidCents: number
  creditAppliedCents: number
  dueOn: string | null
  attempts: number
  stripeCustomerId: string | null
  paymentMethodId: string | null
  cardLabel: string | null
  companyName: string
}

/** Charges every invoice whose autopay is due (run every few minutes on every server). */
export async function runAutopay({ now = new Date(), limit = AUTOPAY_PER_RUN } = {}): Promise<AutopayRun> {
  const run: AutopayRun = { charged: 0, declined: 0, failed: 0, rechecked: 0, dropped: 0 }
  const stripe = configuredStripe()
  if (!stripe) return run
  const leaseUntil = new Date(now.getTime() + AUTOPAY_LEASE_MS)
  for (const invoice of await claimDue(now, leaseUntil, limit)) {
    const owed = outstandingCents(invoice)
    const attempt = invoice.attempts + 1
    if (!invoice.stripeCustomerId || !invoice.paymentMethodId || owed < STRIPE_MINIMUM_CENTS) {
      // The card was removed, or nothing (chargeable) is owed any more: nothing to charge.
      await settle(invoice.id, { autopayNextAt: null })
      run.dropped += 1
      continue
    }
    const label = invoiceNumberLabel(invoice.number)
    const outcome = await chargeOffSession(stripe.client, {
      stripeCustomerId: invoice.stripeCustomerId,
      paymentMethodId: invoice.paymentMethodId,
      amountCents: owed,
      invoiceId: invoice.id,
      customerId: invoice.customerId,
      companyId: invoice.companyId,
      description: `${invoice.companyName} invoice ${label}`,
      idempotencyKey: `autopay:${invoice.id}:${attempt}:${owed}`,
    })
    switch (outcome.status) {
      case 'succeeded':
        await db().transaction(async (tx) => {
          await recordCardPayment(tx, {
            invoiceId: invoice.id,
            amountCents: outcome.amountCents,
            reference: outcome.paymentIntentId,
            paymentIntentId: outcome.paymentIntentId,
            paidAt: now,
          })
          await tx
            .update(invoices)
            .set({ autopayAttempts: attempt, autopayNextAt: null })
            .where(eq(invoices.id, invoice.id))
        })
        run.charged += 1
        break
      case 'processing':
        // Stripe settles it later and says so through payment_intent.succeeded, which records it.
        await settle(invoice.id, { autopayAttempts: attempt, autopayNextAt: null })
        run.charged += 1
        break
      case 'declined': {
        const last = attempt >= AUTOPAY_MAX_ATTEMPTS
        await db().transaction(async (tx) => {
          const [moved] = await tx
            .update(invoices)
            .set({
              autopayAttempts: attempt,
              autopayNextAt: last
                ? null
                : new Date(now.getTime() + (AUTOPAY_RETRY_DELAYS_DAYS[invoice.attempts] ?? 1) * DAY_MS),
            })
            // Only the attempt this run claimed: a decline is counted once.
            .where(and(eq(invoices.id, invoice.id), eq(invoices.autopayAttempts, invoice.attempts)))
            .returning({ id: invoices.id })
          if (moved && last) await queuePaymentFailed(tx, invoice, owed, outcome.message)
        })
        logger.info({ invoice: invoice.id, attempt, last, code: outcome.code }, 'autopay charge declined')
        if (last) run.failed += 1
        else run.declined += 1
        break
      }
      case 'retry':
        await settle(invoice.id, { autopayNextAt: new Date(now.getTime() + AUTOPAY_RECHECK_MS) })
        run.rechecked += 1
        break
    }
  }
  return run
}

/** Locks and leases the due invoices no other server holds, oldest due first. */
async function claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Claimed[]> {
  return db().transaction(async (tx) => {
    const due = await tx
      .select({
        id: invoices.id,
        companyId: invoices.companyId,
        customerId: invoices.customerId,
        number: invoices.number,
        state: invoices.state,
        totalCents: invoices.totalCents,
        paidCents: invoices.paidCents,
        creditAppliedCents: invoices.creditAppliedCents,
        dueOn: invoices.dueOn,
        attempts: invoices.autopayAttempts,
        stripeCustomerId: customers.stripeCustomerId,
        paymentMethodId: customers.autopayPaymentMethodId,
        cardLabel: customers.autopayCardLabel,
        companyName: companies.name,
      })
      .from(invoices)
      .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
      .innerJoin(companies, eq(companies.id, invoices.companyId))
      .where(and(lte(invoices.autopayNextAt, now), eq(invoices.state, 'sent')))
      .orderBy(asc(invoices.autopayNextAt))
      .limit(limit)
      .for('update', { of: invoices, skipLocked: true })
    if (due.length > 0) {
      await tx
        .update(invoices)
        .set({ autopayNextAt: leaseUntil })
        .where(
          inArray(
            invoices.id,
            due.map((invoice) => invoice.id),
          ),
        )
    }
    return due
  })
}

async function settle(invoiceId: string, set: { autopayNextAt: Date | null; autopayAttempts?: number }) {
  await db().update(invoices).set(set).where(eq(invoices.id, invoiceId))
}

/**
 * "Payment failed": an email to the company's owners and admins, and to the customer (unless they turned notices by
 * email off, or have no email), in the transaction that gives up — once per invoice and recipient by the outbox's
 * notice key.
 */
async function queuePaymentFailed(tx: Database, invoice: Claimed, owedCents: number, reason: string) {
  const [customer] = await tx
    .select({ name: customers.customerName, email: customers.email, byEmail: customers.noticesByEmail })
    .from(customers)
    .where(and(eq(customers.companyId, invoice.companyId), eq(customers.id, invoice.customerId)))
  const office = await tx
    .select({ email: profiles.email })
    .from(profiles)
    .where(
      and(
        eq(profiles.companyId, invoice.companyId),
        inArray(profiles.role, ['owner', 'admin']),
        isNull(profiles.deactivatedAt),
      ),
    )
  const label = invoiceNumberLabel(invoice.number)
  const amount = formatCents(owedCents)
  const card = invoice.cardLabel ?? 'saved card'
  const name = customer?.name ?? 'The customer'
  const tellCustomer = Boolean(customer?.email && customer.byEmail)
  const base = {
    kind: 'email' as const,
    companyId: invoice.companyId,
    notice: { event: PAYMENT_FAILED_EVENT, subject: invoice.id },
  }
  const rows: QueuedEmail[] = []
  if (tellCustomer && customer?.email) {
    const company = await getEmailCompany(invoice.companyId, tx)
    const sender = customerEmailBrand({
      name: invoice.companyName,
      email: company?.email ?? null,
      logoKey: company?.logoKey ?? null,
    })
    const email = await renderEmail({
      template: 'card',
      props: {
        subject: `${invoice.companyName}: Payment failed`,
        heading: 'Payment failed',
        lines: [
          `Hi ${customer.name}, we could not charge your ${card} for invoice ${label} (${amount}). We tried ${AUTOPAY_MAX_ATTEMPTS} times over a week; the last answer was: ${reason}`,
          'Please pay the invoice online, or save a different card for automatic payments in your portal.',
        ],
        actionLabel: 'View and pay invoice',
        url: `${env().APP_URL}${portalInvoicePath(invoice.customerId, invoice.id)}`,
        footer: `You receive this email because ${invoice.companyName} services your pool with Pool Bud.`,
        brand: sender.brand,
      },
    })
    rows.push({
      ...base,
      customerId: invoice.customerId,
      to: customer.email,
      fromName: sender.fromName,
      replyTo: sender.replyTo,
      attachments: sender.attachments,
      ...email,
    })
  }
  const officeEmail = await renderEmail({
    template: 'card',
    props: {
      subject: `Payment failed: ${label}, ${name}`,
      heading: 'Payment failed',
      lines: [
        `Autopay could not charge ${name}'s ${card} for ${label} (${amount}): declined ${AUTOPAY_MAX_ATTEMPTS} times over a week. The last answer was: ${reason}`,
        `Automatic charges of this invoice have stopped. ${
          tellCustomer
            ? 'The customer was emailed too.'
            : 'The customer was not emailed (no email address, or notices by email are off): please contact them.'
        }`,
      ],
      actionLabel: 'Open the invoice',
      url: `${env().APP_URL}/app/invoices/${invoice.id}`,
      footer: `You receive this email as an owner or admin of ${invoice.companyName} on Pool Bud.`,
    },
  })
  for (const member of office) rows.push({ ...base, to: member.email, ...officeEmail })
  if (rows.length === 0) return
  const inserted = await enqueue(tx, rows)
  logger.warn({ invoice: invoice.id, emails: inserted.length }, 'autopay gave up: "Payment failed" queued')
}
