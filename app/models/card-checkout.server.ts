// Starting a card payment or a card's saving with Stripe Checkout (docs/billing.md): the portal's "Pay invoice" (a
// payment session for what the invoice still owes) and "Save card for automatic payments" (a setup session), and the
// office's way to start the latter — an emailed link, so staff never handle card numbers. Nothing is recorded here:
// the webhook records what Stripe says happened (stripe-event.server.ts).
//
// One open Checkout Session per invoice (decision 032): "Pay invoice" pressed in two tabs gets the same session. The
// session is kept in checkout_sessions (a partial unique index allows one open per invoice) and reused while its
// amount is still what is owed; otherwise it is expired at Stripe before another is made, with an idempotency key
// per invoice, amount and round, so two requests at once make one session at Stripe too.
import { and, count, eq, sql } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { outstandingCents } from '~/billing/invoice-status'
import { ONLINE_PAYMENT_NOT_SET_UP, onlinePaymentsEnabled } from '~/billing/online-payments.server'
import {
  configuredStripe,
  createCheckoutSession,
  createStripeCustomer,
  expireCheckoutSession,
} from '~/billing/stripe.server'
import { checkoutSessions, companies, customers, invoices } from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue } from '~/outbox/enqueue.server'
import { db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { portalInvoicePath } from '~/utils/portal-paths'
import { failure, type Result, success } from '~/utils/result'
import { customerEmailBrand } from './company-brand'
import { getEmailCompany } from './company-brand.server'
import { oncePerKeyAround } from './idempotency.server'

/** Stripe's smallest charge in usd. */
export const STRIPE_MINIMUM_CENTS = 50

export const CARD_CHECKOUT_MESSAGES = {
  notSetUp: ONLINE_PAYMENT_NOT_SET_UP,
  invoiceNotFound: 'Invoice not found.',
  customerNotFound: 'Customer not found.',
  paid: 'This invoice is paid: there is nothing left to pay.',
  void: 'This invoice is void: there is nothing to pay.',
  tooSmall: (company: string) =>
    `Amounts under ${formatCents(STRIPE_MINIMUM_CENTS)} cannot be paid by card. Please pay ${company} directly.`,
  unavailable: 'Card payment could not be started. Please try again in a few minutes.',
  noEmail: "Add the customer's email address first: the link to save a card is sent there.",
  linkSent: (email: string) => `A link to save a card for automatic payments was sent to ${email}.`,
} as const

/** A session this close to Stripe's own expiry is not handed out again: the customer needs time to pay. */
const REUSE_MARGIN_MS = 60 * 60_000

/** The portal's own pages, as absolute URLs for Stripe to send the customer back to. */
const portalUrl = (path: string) => `${env().APP_URL}${path}`

/**
 * "Pay invoice": a Checkout session for what the customer's own sent invoice still owes; its URL to redirect to.
 * Only the customer's own invoice (the caller passes the company and customer the portal's guard found).
 */
export async function startInvoiceCheckout({
  companyId,
  customerId,
  invoiceId,
}: {
  companyId: string
  customerId: string
  invoiceId: string
}): Promise<Result<{ url: string }>> {
  const stripe = configuredStripe()
  if (!stripe) return failure('unavailable', CARD_CHECKOUT_MESSAGES.notSetUp)
  if (!isUuid(invoiceId)) return failure('not-found', CARD_CHECKOUT_MESSAGES.invoiceNotFound)
  const [invoice] = await db()
    .select({
      number: invoices.number,
      state: invoices.state,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      dueOn: invoices.dueOn,
      email: customers.email,
      stripeCustomerId: customers.stripeCustomerId,
      companyName: companies.name,
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.customerId, customerId), eq(invoices.id, invoiceId)))
  // A draft is not the customer's to see yet, so not to pay either.
  if (!invoice || invoice.state === 'draft') return failure('not-found', CARD_CHECKOUT_MESSAGES.invoiceNotFound)
  if (invoice.state === 'void') return failure('conflict', CARD_CHECKOUT_MESSAGES.void)
  const owed = outstandingCents(invoice)
  if (owed === 0) return failure('conflict', CARD_CHECKOUT_MESSAGES.paid)
  if (owed < STRIPE_MINIMUM_CENTS) return failure('conflict', CARD_CHECKOUT_MESSAGES.tooSmall(invoice.companyName))
  const open = await openSessionOf(companyId, invoiceId)
  if (open && open.amountCents === owed && open.expiresAt.getTime() - Date.now() > REUSE_MARGIN_MS) {
    return success({ url: open.url })
  }
  if (open) {
    // The amount owed changed (a check recorded meanwhile), or Stripe is about to close it: that page must not take
    // the old amount, so it is expired first. If Stripe cannot be asked, no second session is made.
    const expired = await expireCheckoutSession(stripe.client, open.id)
    if (!expired.ok) {
      logger.error({ invoice: invoiceId, reason: expired.message }, 'Stripe Checkout session could not be expired')
      return failure('unavailable', CARD_CHECKOUT_MESSAGES.unavailable)
    }
    await db()
      .update(checkoutSessions)
      .set({ status: 'expired' })
      .where(and(eq(checkoutSessions.id, open.id), eq(checkoutSessions.status, 'open')))
  }
  // The round is the number of sessions expired before: counting every session instead, a request that read "no open
  // session" just before another request kept its own would count that one and make a second session at Stripe.
  const [made] = await db()
    .select({ n: count() })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.companyId, companyId),
        eq(checkoutSessions.invoiceId, invoiceId),
        sql`${checkoutSessions.status} = 'expired'`,
      ),
    )
  const back = portalUrl(portalInvoicePath(customerId, invoiceId))
  const session = await createCheckoutSession(stripe.client, {
    mode: 'payment',
    invoiceId,
    customerId,
    companyId,
    amountCents: owed,
    description: `${invoice.companyName} invoice ${invoiceNumberLabel(invoice.number)}`,
    stripeCustomerId: invoice.stripeCustomerId,
    email: invoice.email,
    // The page says the payment is on its way until the webhook records it (usually within seconds).
    successUrl: `${back}?payment=done`,
    cancelUrl: back,
    // Two requests in the same round (the same sessions expired before, the same amount) are one session at Stripe.
    idempotencyKey: `checkout:${invoiceId}:${made?.n ?? 0}:${owed}`,
  })
  if (!session.ok) {
    logger.error({ invoice: invoiceId, reason: session.message }, 'Stripe Checkout session could not be created')
    return failure('unavailable', CARD_CHECKOUT_MESSAGES.unavailable)
  }
  const [kept] = await db()
    .insert(checkoutSessions)
    .values({ id: session.id, companyId, invoiceId, amountCents: owed, url: session.url, expiresAt: session.expiresAt })
    .onConflictDoNothing()
    .returning({ id: checkoutSessions.id })
  if (kept) return success({ url: session.url })
  // Another request kept its session first (the same one, or — after a race between rounds — another): the open
  // one is the invoice's; ours, if different, is expired so it cannot be paid as well.
  const winner = await openSessionOf(companyId, invoiceId)
  if (winner && winner.id !== session.id) {
    const expired = await expireCheckoutSession(stripe.client, session.id)
    if (!expired.ok) logger.warn({ session: session.id, reason: expired.message }, 'extra Checkout session not expired')
  }
  return success({ url: winner?.url ?? session.url })
}

/** The invoice's open Checkout Session, if any. */
async function openSessionOf(companyId: string, invoiceId: string) {
  const [open] = await db()
    .select({
      id: checkoutSessions.id,
      amountCents: checkoutSessions.amountCents,
      url: checkoutSessions.url,
      expiresAt: checkoutSessions.expiresAt,
    })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.companyId, companyId),
        eq(checkoutSessions.invoiceId, invoiceId),
        sql`${checkoutSessions.status} = 'open'`,
      ),
    )
  return open
}

/**
 * "Pay invoice" once per the form's idempotency key (docs/decisions/031-idempotency-keys-bound.md): the same form
 * sent again (a double click, a retry) gets the first session's URL and makes no second session; the key bound to
 * the customer's login and this invoice, so sent for another invoice or by another login it is refused (422). The
 * Stripe call runs outside any database transaction (oncePerKeyAround).
 */
export async function startInvoiceCheckoutOnce({
  key,
  userId,
  ...invoice
}: {
  companyId: string
  customerId: string
  invoiceId: string
  key: string | null
  userId: string
}): Promise<Result<{ url: string }>> {
  const binding = { userId, target: invoice.invoiceId, body: { customerId: invoice.customerId } }
  const started = await oncePerKeyAround(
    { companyId: invoice.companyId, key, action: 'checkout.start', ...binding },
    async () => {
      const outcome = await startInvoiceCheckout(invoice)
      return outcome.ok ? success({ url: outcome.url }) : outcome
    },
  )
  return started.ok ? success({ url: started.url }) : started
}

/**
 * "Save card for automatic payments": a Checkout session in setup mode for the customer (their Stripe customer is
 * made first, once, and kept), whose completion the webhook turns into the saved card.
 */
export async function startCardSetup({
  companyId,
  customerId,
  returnPath,
}: {
  companyId: string
  customerId: string
  /** Where Stripe sends the customer back to (a portal page). */
  returnPath: string
}): Promise<Result<{ url: string; email: string | null; customerName: string; companyName: string }>> {
  const stripe = configuredStripe()
  if (!stripe) return failure('unavailable', CARD_CHECKOUT_MESSAGES.notSetUp)
  if (!isUuid(customerId)) return failure('not-found', CARD_CHECKOUT_MESSAGES.customerNotFound)
  const [customer] = await db()
    .select({
      name: customers.customerName,
      email: customers.email,
      stripeCustomerId: customers.stripeCustomerId,
      companyName: companies.name,
    })
    .from(customers)
    .innerJoin(companies, eq(companies.id, customers.companyId))
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!customer) return failure('not-found', CARD_CHECKOUT_MESSAGES.customerNotFound)
  let stripeCustomerId = customer.stripeCustomerId
  if (!stripeCustomerId) {
    const created = await createStripeCustomer(stripe.client, {
      customerId,
      companyId,
      name: customer.name,
      email: customer.email,
    })
    if (!created.ok) {
      logger.error({ customer: customerId, reason: created.message }, 'Stripe customer could not be created')
      return failure('unavailable', CARD_CHECKOUT_MESSAGES.unavailable)
    }
    stripeCustomerId = created.id
    // Kept at once: the same Stripe customer for the next try (its idempotency key would give the same one anyway).
    await db()
      .update(customers)
      .set({ stripeCustomerId })
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  }
  const back = portalUrl(returnPath)
  const session = await createCheckoutSession(stripe.client, {
    mode: 'setup',
    customerId,
    companyId,
    stripeCustomerId,
    successUrl: `${back}?card=saved`,
    cancelUrl: back,
  })
  if (!session.ok) {
    logger.error({ customer: customerId, reason: session.message }, 'Stripe setup session could not be created')
    return failure('unavailable', CARD_CHECKOUT_MESSAGES.unavailable)
  }
  return success({
    url: session.url,
    email: customer.email,
    customerName: customer.name,
    companyName: customer.companyName,
  })
}

/**
 * The office starts autopay: the customer gets an email with a link to Stripe's page where they save their card
 * themselves (staff never see card numbers). One email per link, through the outbox.
 */
export async function sendCardSetupLink({
  companyId,
  customerId,
}: {
  companyId: string
  customerId: string
}): Promise<Result<{ email: string; message: string }>> {
  if (!isUuid(customerId)) return failure('not-found', CARD_CHECKOUT_MESSAGES.customerNotFound)
  const [customer] = await db()
    .select({ email: customers.email })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
  if (!customer) return failure('not-found', CARD_CHECKOUT_MESSAGES.customerNotFound)
  if (!configuredStripe()) return failure('unavailable', CARD_CHECKOUT_MESSAGES.notSetUp)
  if (!customer.email) return failure('invalid', CARD_CHECKOUT_MESSAGES.noEmail)
  const setup = await startCardSetup({ companyId, customerId, returnPath: `/customer/${customerId}` })
  if (!setup.ok) return setup
  const company = await getEmailCompany(companyId)
  const sender = customerEmailBrand({
    name: setup.companyName,
    email: company?.email ?? null,
    logoKey: company?.logoKey ?? null,
  })
  const email = await renderEmail({
    template: 'card',
    props: {
      subject: `${setup.companyName}: save a card for automatic payments`,
      heading: 'Save a card for automatic payments',
      lines: [
        `Hi ${setup.customerName}, ${setup.companyName} invites you to save a card for automatic payments.`,
        'Your invoices are then charged to it when they are sent. The card is kept by Stripe, our payment processor; we only see its last four digits.',
      ],
      actionLabel: 'Save card for automatic payments',
      url: setup.url,
      footer: `You receive this email because ${setup.companyName} services your pool with Pool Bud. The link works for 24 hours.`,
      brand: sender.brand,
    },
  })
  await enqueue(db(), {
    kind: 'email',
    companyId,
    customerId,
    to: customer.email,
    fromName: sender.fromName,
    replyTo: sender.replyTo,
    attachments: sender.attachments,
    ...email,
  })
  return success({ email: customer.email, message: CARD_CHECKOUT_MESSAGES.linkSent(customer.email) })
}

/** What the autopay sections show: the saved card ("Visa ending 4242"), if any, and whether card payments are on. */
export function autopayState(cardLabel: string | null) {
  return { enabled: onlinePaymentsEnabled(), cardLabel, notSetUpText: ONLINE_PAYMENT_NOT_SET_UP }
}
