// A quote's deposit paid by card in the portal (issue 33 item 3; docs/quotes.md "Deposit", decision 062). The
// approval itself (signature, name, IP address, version, options ticked) is recorded when the customer presses
// "Approve" (quote-decision.server.ts); the deposit is then paid on Stripe's Checkout page, and the quote says
// "Deposit due" until Stripe's webhook says it was paid.
//
// - The Checkout session is made with Stripe's idempotency key per quote, version and amount still due: a double
//   submit (or "Pay deposit" pressed again while the first page is open) is one session at Stripe. Its metadata names
//   the company, the customer, the quote and the version, with kind 'quote-deposit'.
// - The webhook (stripe-event.server.ts dispatches here) records the deposit once: an ordinary card payment to no
//   invoice (account credit until the work order's invoice takes it), whose reference is the session's id — unique
//   per customer, so a replayed or concurrent event records nothing more — and a quote_deposits row tying it to the
//   quote, in the event's transaction. An amount other than what was due is recorded and flagged for the office.
// - Nothing here changes the approval: a deposit never paid leaves the quote approved with "Deposit due".
import { and, eq } from 'drizzle-orm'
import { ONLINE_PAYMENT_NOT_SET_UP } from '~/billing/online-payments.server'
import { REFUND_DUE_PREFIX } from '~/billing/payment-messages'
import { quoteNumberLabel } from '~/billing/quote-math'
import { configuredStripe, createCheckoutSession } from '~/billing/stripe.server'
import { companies, customers, payments, quoteDecisions, quoteDeposits, quotes } from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { portalQuotePath } from '~/utils/portal-paths'
import { failure, type Result, success } from '~/utils/result'
import { notVoidedSql, refundedCentsOf } from './balance.server'
import { recordPayment } from './payment.server'

/** Stripe's smallest charge in usd (as card-checkout.server.ts). */
const STRIPE_MINIMUM_CENTS = 50

/** The most deposit payments a quote's page lists (a deposit is one payment, rarely two). */
const DEPOSIT_PAYMENTS_SHOWN = 20

export const QUOTE_DEPOSIT_MESSAGES = {
  notSetUp: ONLINE_PAYMENT_NOT_SET_UP,
  notFound: 'Quote not found.',
  notApproved: 'This quote is not approved: there is no deposit to pay yet.',
  noDeposit: 'This quote asks for no deposit.',
  paid: 'The deposit is paid: there is nothing left to pay.',
  tooSmall: (company: string) =>
    `Deposits under ${formatCents(STRIPE_MINIMUM_CENTS)} cannot be paid by card. Please pay ${company} directly.`,
  unavailable: 'The deposit payment could not be started. Please try again in a few minutes.',
} as const

/** What the office reads on a deposit payment that needs a look (payments.flag). */
export const QUOTE_DEPOSIT_FLAGS = {
  amountDiffers: (paidCents: number, dueCents: number, numberLabel: string) =>
    `Card deposit of ${formatCents(paidCents)} differs from the ${formatCents(dueCents)} deposit due on ${numberLabel}.`,
  /** Paid after the deposit was already paid (two pages both paid, a check recorded meanwhile): to give back. */
  alreadyPaid: (paidCents: number, numberLabel: string) =>
    `${REFUND_DUE_PREFIX} ${formatCents(paidCents)} arrived after the deposit on ${numberLabel} was already paid; it is account credit until refunded.`,
} as const

/** Why a signed deposit payment was acknowledged but not recorded ("Needs attention" on the billing page). */
export const QUOTE_DEPOSIT_ATTENTION = {
  unknownQuote: 'Names no quote of this company: not recorded as a deposit.',
  otherCompany: (numberLabel: string) =>
    `Names ${numberLabel} with another company or customer in its metadata: not recorded as a deposit.`,
} as const

export type QuoteDepositPayment = {
  paymentId: string
  amountCents: number
  refundedCents: number
  receivedOn: string
  method: 'cash' | 'check' | 'card' | 'bank-transfer'
}

export type QuoteDepositState = {
  /** The deposit the approval asked for (kept on the decision). */
  depositCents: number
  /** What the quote's deposit payments (not voided) add up to. Refunds do not make a deposit due again. */
  paidCents: number
  dueCents: number
  payments: QuoteDepositPayment[]
}

type Reader = Pick<Database, 'select'>

/** The deposit payments of a quote (not voided), oldest first. */
async function depositPaymentsOf(reader: Reader, companyId: string, quoteId: string) {
  return reader
    .select({
      paymentId: payments.id,
      amountCents: payments.amountCents,
      refundedCents: refundedCentsOf(payments.id),
      receivedOn: payments.receivedOn,
      method: payments.method,
    })
    .from(quoteDeposits)
    .innerJoin(payments, and(eq(payments.companyId, quoteDeposits.companyId), eq(payments.id, quoteDeposits.paymentId)))
    .where(and(eq(quoteDeposits.companyId, companyId), eq(quoteDeposits.quoteId, quoteId), notVoidedSql(payments.id)))
    .orderBy(payments.receivedOn, payments.createdAt)
    .limit(DEPOSIT_PAYMENTS_SHOWN)
}

function stateOf(depositCents: number, paid: QuoteDepositPayment[]): QuoteDepositState {
  const paidCents = paid.reduce((sum, p) => sum + p.amountCents, 0)
  return { depositCents, paidCents, dueCents: Math.max(0, depositCents - paidCents), payments: paid }
}

/**
 * The deposit of an approved quote: asked, paid (each payment, with what was refunded of it) and still due. Null
 * when the quote is not approved or asks for no deposit and none was paid.
 */
export async function getQuoteDepositState(companyId: string, quoteId: string): Promise<QuoteDepositState | null> {
  if (!isUuid(quoteId)) return null
  const [decision] = await db()
    .select({ depositCents: quoteDecisions.depositCents })
    .from(quoteDecisions)
    .where(
      and(
        eq(quoteDecisions.companyId, companyId),
        eq(quoteDecisions.quoteId, quoteId),
        eq(quoteDecisions.decision, 'approved'),
      ),
    )
  if (!decision) return null
  const paid = await depositPaymentsOf(db(), companyId, quoteId)
  if (decision.depositCents === 0 && paid.length === 0) return null
  return stateOf(decision.depositCents, paid)
}

/**
 * "Pay deposit" (and "Approve" when the approval asks for a deposit and Stripe is set): a Checkout session for what
 * is still due of the customer's own approved quote; its URL to send them to. Only the customer's own quote (the
 * caller passes the company and customer the portal's guard found): another customer's is 'not-found'.
 */
export async function startQuoteDepositCheckout({
  companyId,
  customerId,
  quoteId,
}: {
  companyId: string
  customerId: string
  quoteId: string
}): Promise<Result<{ url: string; dueCents: number }>> {
  if (!isUuid(quoteId)) return failure('not-found', QUOTE_DEPOSIT_MESSAGES.notFound)
  const [quote] = await db()
    .select({
      number: quotes.number,
      state: quotes.state,
      versionId: quoteDecisions.versionId,
      decision: quoteDecisions.decision,
      depositCents: quoteDecisions.depositCents,
      email: customers.email,
      stripeCustomerId: customers.stripeCustomerId,
      companyName: companies.name,
    })
    .from(quotes)
    .innerJoin(customers, and(eq(customers.companyId, quotes.companyId), eq(customers.id, quotes.customerId)))
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .leftJoin(
      quoteDecisions,
      and(eq(quoteDecisions.companyId, quotes.companyId), eq(quoteDecisions.quoteId, quotes.id)),
    )
    .where(and(eq(quotes.companyId, companyId), eq(quotes.customerId, customerId), eq(quotes.id, quoteId)))
  // A quote never sent is not the customer's to see, so not to pay either.
  if (!quote || quote.state === 'draft') return failure('not-found', QUOTE_DEPOSIT_MESSAGES.notFound)
  const stripe = configuredStripe()
  if (!stripe) return failure('unavailable', QUOTE_DEPOSIT_MESSAGES.notSetUp)
  if (quote.state !== 'approved' || quote.decision !== 'approved' || !quote.versionId) {
    return failure('conflict', QUOTE_DEPOSIT_MESSAGES.notApproved)
  }
  if (!quote.depositCents) return failure('conflict', QUOTE_DEPOSIT_MESSAGES.noDeposit)
  const { dueCents } = stateOf(quote.depositCents, await depositPaymentsOf(db(), companyId, quoteId))
  if (dueCents === 0) return failure('conflict', QUOTE_DEPOSIT_MESSAGES.paid)
  if (dueCents < STRIPE_MINIMUM_CENTS) return failure('conflict', QUOTE_DEPOSIT_MESSAGES.tooSmall(quote.companyName))
  const numberLabel = quoteNumberLabel(quote.number)
  const back = `${env().APP_URL}${portalQuotePath(customerId, quoteId)}`
  const session = await createCheckoutSession(stripe.client, {
    mode: 'quote-deposit',
    quoteId,
    quoteVersionId: quote.versionId,
    customerId,
    companyId,
    amountCents: dueCents,
    description: `${quote.companyName} quote ${numberLabel}: deposit`,
    stripeCustomerId: quote.stripeCustomerId,
    email: quote.email,
    // The page says the payment is on its way until the webhook records it (usually within seconds).
    successUrl: `${back}?deposit=done`,
    cancelUrl: back,
    // The version approved never changes and the amount is what is still due: pressed twice (or from two tabs), the
    // same key, so Stripe answers its first session again; once something was paid the amount, and so the key, moves.
    idempotencyKey: `quote-deposit:${quoteId}:${quote.versionId}:${dueCents}`,
  })
  if (!session.ok) {
    logger.error({ quote: quoteId, reason: session.message }, 'Stripe Checkout session for a deposit not created')
    return failure('unavailable', QUOTE_DEPOSIT_MESSAGES.unavailable)
  }
  return success({ url: session.url, dueCents })
}

/** What recording a deposit did, in card-payment.server.ts's terms. */
export type QuoteDepositEffect =
  | { status: 'applied' | 'ignored' }
  | { status: 'attention'; reason: string; companyId: string | null; objectId: string }

export type PaidQuoteDeposit = {
  metadata: Record<string, string> | null | undefined
  amountCents: number
  /** The Checkout session's id: unique per customer, so recorded once. */
  reference: string
  paymentIntentId: string | null
  paidAt: Date
  /** Why the payment's money itself may not be recorded (currency, amount), screened by the caller. */
  moneyRefusal: string | null
}

/**
 * Records a paid deposit in the caller's transaction (the webhook's, with the event's id): a card payment to no
 * invoice dated the day it was paid (the company's day) and its quote_deposits row. The quote's row is locked, so two
 * deposits of one quote at once see each other's payment (the second is flagged as already paid). The same session
 * again (another event about it, or a replay) changes nothing.
 */
export async function recordQuoteDeposit(tx: Database, paid: PaidQuoteDeposit): Promise<QuoteDepositEffect> {
  const quoteId = paid.metadata?.quote_id
  const named = paid.metadata?.company_id
  const [quote] =
    quoteId && isUuid(quoteId)
      ? await tx
          .select({
            id: quotes.id,
            companyId: quotes.companyId,
            customerId: quotes.customerId,
            number: quotes.number,
            timezone: companies.timezone,
          })
          .from(quotes)
          .innerJoin(companies, eq(companies.id, quotes.companyId))
          .where(eq(quotes.id, quoteId))
          .for('update', { of: quotes })
      : []
  const [namedCompany] =
    !quote && named && isUuid(named)
      ? await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, named))
      : []
  const attention = (reason: string): QuoteDepositEffect => ({
    status: 'attention',
    reason,
    companyId: quote?.companyId ?? namedCompany?.id ?? null,
    objectId: paid.reference,
  })
  if (paid.moneyRefusal) return attention(paid.moneyRefusal)
  if (!quote) return attention(QUOTE_DEPOSIT_ATTENTION.unknownQuote)
  const numberLabel = quoteNumberLabel(quote.number)
  const customer = paid.metadata?.customer_id
  if (named !== quote.companyId || (customer && customer !== quote.customerId)) {
    return attention(QUOTE_DEPOSIT_ATTENTION.otherCompany(numberLabel))
  }
  const [decision] = await tx
    .select({ depositCents: quoteDecisions.depositCents, versionId: quoteDecisions.versionId })
    .from(quoteDecisions)
    .where(
      and(
        eq(quoteDecisions.companyId, quote.companyId),
        eq(quoteDecisions.quoteId, quote.id),
        eq(quoteDecisions.decision, 'approved'),
      ),
    )
  const { dueCents, paidCents } = stateOf(
    decision?.depositCents ?? 0,
    await depositPaymentsOf(tx, quote.companyId, quote.id),
  )
  const flag =
    paidCents > 0 && dueCents === 0
      ? QUOTE_DEPOSIT_FLAGS.alreadyPaid(paid.amountCents, numberLabel)
      : paid.amountCents !== dueCents
        ? QUOTE_DEPOSIT_FLAGS.amountDiffers(paid.amountCents, dueCents, numberLabel)
        : null
  const recorded = await recordPayment(
    {
      companyId: quote.companyId,
      customerId: quote.customerId,
      invoiceId: null,
      amountCents: paid.amountCents,
      receivedOn: localDateAt(paid.paidAt, quote.timezone),
      method: 'card',
      reference: paid.reference,
      recordedBy: null,
      flag,
      stripePaymentIntentId: paid.paymentIntentId,
      now: paid.paidAt,
    },
    tx,
  )
  // Already recorded (the same session's reference): the deposit row went in with it, once.
  if (!recorded.ok && recorded.code === 'conflict') return { status: 'applied' }
  if (!recorded.ok) {
    logger.warn({ quote: quote.id, reason: recorded.message }, 'card deposit not recorded')
    return { status: 'ignored' }
  }
  await tx
    .insert(quoteDeposits)
    .values({ companyId: quote.companyId, quoteId: quote.id, paymentId: recorded.paymentId })
    .onConflictDoNothing()
  logger.info({ quote: quote.id, payment: recorded.paymentId }, 'quote deposit recorded')
  return { status: 'applied' }
}
