// Card payments through Stripe (docs/billing.md, decision 021): what Stripe's webhook events do to our records, each
// event once. The event's id goes into stripe_events in the same transaction as its effect, so a delivery repeated
// (Stripe retries until it hears 2xx), or two deliveries at once, apply it once: the second insert waits for the
// first transaction and then finds the id. Payments are also unique by their reference (the Checkout session's id,
// an autopay PaymentIntent's id), which keeps the webhook and the autopay worker from recording one charge twice.
//
// Order is not guaranteed: a refund or dispute can arrive before the payment it is about. Such an event is answered
// 500 without storing its id, so Stripe delivers it again later, by when the payment is there (decision 021).
//
// Data is never a 5xx (decision 032): a signed payment in another currency than the company's (USD), of an amount
// outside (0, $1,000,000], or whose metadata names no invoice of the company it names, is acknowledged and listed for
// the office under "Needs attention" (stripe_attention), never recorded as a payment. A refund is a new record
// (refunds), once per cumulative total the charge reports.
import { and, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { outstandingCents } from '~/billing/invoice-status'
import { ONLINE_PAYMENT_NOT_SET_UP } from '~/billing/online-payments.server'
import { REFUND_DUE_PREFIX } from '~/billing/payment-messages'
import { configuredStripe, createRefund, QUOTE_DEPOSIT_KIND, type SavedCard } from '~/billing/stripe.server'
import {
  checkoutSessions,
  companies,
  customers,
  invoices,
  payments,
  refunds,
  stripeAttention,
  stripeEvents,
} from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { failure, type Result, success } from '~/utils/result'
import { refundedCentsOf } from './balance.server'
import { movePaid, recordPayment } from './payment.server'
import { recordQuoteDeposit } from './quote-deposit.server'

/** What the office reads on a card payment that needs a look (payments.flag). */
export const CARD_PAYMENT_FLAGS = {
  amountDiffers: (paidCents: number, dueCents: number) =>
    `Card payment of ${formatCents(paidCents)} differs from the ${formatCents(dueCents)} that was due.`,
  voidInvoice: (numberLabel: string) => `Paid by card after ${numberLabel} was void: kept as account credit.`,
  disputed: (amountCents: number, reason: string) =>
    `Disputed: the card holder's bank opened a dispute for ${formatCents(amountCents)} (${reason.replaceAll('_', ' ')}).`,
  /** A payment for an invoice that was already paid (two Checkout pages both paid): credit to give back. */
  refundDue: (paidCents: number, numberLabel: string) =>
    `${REFUND_DUE} ${formatCents(paidCents)} arrived after ${numberLabel} was already paid; it is account credit until refunded.`,
} as const

/** How a payment's flag starts when its money should go back to the customer (the invoice page offers "Refund"). */
export const REFUND_DUE = REFUND_DUE_PREFIX

/** The largest card payment recorded: $1,000,000 (anything above is an error somewhere, never an invoice's). */
export const MAX_CARD_PAYMENT_CENTS = 100_000_000

/** Why a signed event was acknowledged but not recorded ("Needs attention" on the billing page). */
export const ATTENTION_REASONS = {
  currency: (currency: string) =>
    `Paid in ${currency.toUpperCase() || 'an unknown currency'}, not USD: not recorded as a payment.`,
  amount: (cents: number) =>
    `An amount of ${Number.isSafeInteger(cents) ? formatCents(cents) : 'an unreadable size'} is outside $0.01 to $1,000,000.00: not recorded as a payment.`,
  otherCompany: (numberLabel: string) =>
    `Names ${numberLabel} with another company or customer in its metadata: not recorded as a payment.`,
  unknownInvoice: 'Names no invoice of this company: not recorded as a payment.',
} as const

const Metadata = z.record(z.string(), z.string()).nullish()
/** Stripe sends an id, or the object when it was expanded. */
const IdOf = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullish()
  .transform((value) => (typeof value === 'string' ? value : (value?.id ?? null)))

const CheckoutSession = z.object({
  id: z.string().min(1),
  mode: z.string(),
  payment_status: z.string(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
  payment_intent: IdOf,
  setup_intent: IdOf,
  customer: IdOf,
})
const PaymentIntent = z.object({
  id: z.string().min(1),
  amount_received: z.number().int(),
  currency: z.string().nullish(),
  metadata: Metadata,
})
const Charge = z.object({ id: z.string().min(1), payment_intent: IdOf, amount_refunded: z.number().int() })
const Dispute = z.object({ id: z.string().min(1), payment_intent: IdOf, amount: z.number().int(), reason: z.string() })

const StripeEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string(),
  // Seconds since 1970; a value no date can hold is no event of Stripe's.
  created: z
    .number()
    .int()
    .min(0)
    .max(2 ** 33),
  data: z.object({ object: z.unknown() }),
})

/** The event types this webhook acts on; every other type is answered 200 and left alone. */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'payment_intent.succeeded',
  'charge.refunded',
  'charge.dispute.created',
] as const

export type WebhookOutcome =
  /** 'attention': acknowledged, not recorded, listed for the office (decision 032). */
  | { status: 'applied' | 'duplicate' | 'ignored' | 'attention' }
  /** Not applied and not stored: answer 500 so Stripe delivers it again. */
  | { status: 'retry'; reason: string }

/** What applying an event needs from Stripe's API, asked before the transaction (no request holds one open). */
export type StripeLookups = {
  savedCardOf: (setupIntentId: string) => Promise<{ ok: true; card: SavedCard } | { ok: false; message: string }>
  isOurPaymentIntent: (paymentIntentId: string) => Promise<boolean | 'unknown'>
}

type Effect =
  | { status: 'applied' | 'ignored' }
  | { status: 'unknown-intent'; paymentIntentId: string }
  | { status: 'attention'; reason: string; companyId: string | null; objectId: string }

class UnknownIntent extends Error {
  constructor(readonly paymentIntentId: string) {
    super(`no payment for ${paymentIntentId}`)
  }
}

/**
 * Applies one verified Stripe event, once. `event` is what `stripe.webhooks.constructEvent` returned for a body
 * whose signature checked out.
 */
export async function applyStripeEvent(raw: unknown, stripe: StripeLookups): Promise<WebhookOutcome> {
  const parsed = StripeEvent.safeParse(raw)
  if (!parsed.success) return { status: 'ignored' }
  const event = parsed.data
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { status: 'ignored' }

  let card: SavedCard | null = null
  const session = event.type.startsWith('checkout.session.') ? CheckoutSession.safeParse(event.data.object) : null
  if (session?.success && session.data.mode === 'setup' && event.type === 'checkout.session.completed') {
    if (!session.data.setup_intent) return { status: 'ignored' }
    const saved = await stripe.savedCardOf(session.data.setup_intent)
    if (!saved.ok) return { status: 'retry', reason: `the saved card could not be read: ${saved.message}` }
    card = saved.card
  }

  try {
    return await db().transaction(async (tx) => {
      const [fresh] = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id })
      if (!fresh) return { status: 'duplicate' as const }
      const effect = await effectOf(tx, event, card)
      // Rolls the event's id back with everything else: Stripe's next delivery tries again.
      if (effect.status === 'unknown-intent') throw new UnknownIntent(effect.paymentIntentId)
      if (effect.status === 'attention') {
        await tx.insert(stripeAttention).values({
          eventId: event.id,
          companyId: effect.companyId,
          type: event.type,
          reason: effect.reason,
          objectId: effect.objectId.slice(0, 255),
        })
        logger.warn({ event: event.id, type: event.type, reason: effect.reason }, 'Stripe event needs attention')
        return { status: 'attention' as const }
      }
      return effect
    })
  } catch (error) {
    if (!(error instanceof UnknownIntent)) throw error
    const ours = await stripe.isOurPaymentIntent(error.paymentIntentId)
    if (ours !== false) {
      return { status: 'retry', reason: `${event.type} for ${error.paymentIntentId} came before its payment` }
    }
    // Another integration's charge on the same Stripe account: nothing of ours to change, and nothing to retry.
    await db().insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing()
    logger.info({ event: event.id, type: event.type }, 'Stripe event about a payment that is not ours; ignored')
    return { status: 'ignored' }
  }
}

async function effectOf(tx: Database, event: z.infer<typeof StripeEvent>, card: SavedCard | null): Promise<Effect> {
  const paidAt = new Date(event.created * 1000)
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = CheckoutSession.safeParse(event.data.object)
      if (!session.success) return { status: 'ignored' }
      const { data } = session
      if (data.mode === 'setup') return card ? saveCard(tx, data, card) : { status: 'ignored' }
      // An unpaid completion (a delayed method) is followed by async_payment_succeeded, recorded then.
      if (data.mode !== 'payment' || data.payment_status !== 'paid' || data.amount_total == null) {
        return { status: 'ignored' }
      }
      // A quote's deposit (decision 062): no invoice yet; recorded against the quote its metadata names.
      if (data.metadata?.kind === QUOTE_DEPOSIT_KIND) {
        if (data.client_reference_id && data.client_reference_id !== data.metadata.quote_id) {
          logger.warn({ session: data.id }, 'paid deposit session whose reference is not its quote; not recorded')
          return { status: 'ignored' }
        }
        return recordQuoteDeposit(tx, {
          metadata: data.metadata,
          amountCents: data.amount_total,
          reference: data.id,
          paymentIntentId: data.payment_intent,
          paidAt,
          moneyRefusal: moneyRefusal(data.currency, data.amount_total),
        })
      }
      const invoiceId = data.metadata?.invoice_id
      if (!invoiceId || (data.client_reference_id && data.client_reference_id !== invoiceId)) {
        logger.warn({ session: data.id }, 'paid Checkout session without our invoice id; not recorded')
        return { status: 'ignored' }
      }
      // The session is paid: it is no longer the invoice's open one ("Pay invoice" makes a new one if still owed).
      await tx.update(checkoutSessions).set({ status: 'expired' }).where(eq(checkoutSessions.id, data.id))
      const screened = await screenCardPayment(tx, {
        invoiceId,
        metadata: data.metadata,
        currency: data.currency,
        amountCents: data.amount_total,
        objectId: data.id,
      })
      if (screened) return screened
      return recordCardPayment(tx, {
        invoiceId,
        amountCents: data.amount_total,
        reference: data.id,
        paymentIntentId: data.payment_intent,
        paidAt,
      })
    }
    case 'payment_intent.succeeded': {
      const intent = PaymentIntent.safeParse(event.data.object)
      // Checkout's own intents are recorded from their session (by the session's id); only autopay's come here.
      if (!intent.success || intent.data.metadata?.autopay !== '1' || !intent.data.metadata.invoice_id) {
        return { status: 'ignored' }
      }
      const screened = await screenCardPayment(tx, {
        invoiceId: intent.data.metadata.invoice_id,
        metadata: intent.data.metadata,
        currency: intent.data.currency,
        amountCents: intent.data.amount_received,
        objectId: intent.data.id,
      })
      if (screened) return screened
      return recordCardPayment(tx, {
        invoiceId: intent.data.metadata.invoice_id,
        amountCents: intent.data.amount_received,
        reference: intent.data.id,
        paymentIntentId: intent.data.id,
        paidAt,
      })
    }
    case 'charge.refunded': {
      const charge = Charge.safeParse(event.data.object)
      if (!charge.success || !charge.data.payment_intent) return { status: 'ignored' }
      return refund(tx, charge.data.payment_intent, charge.data.amount_refunded)
    }
    case 'charge.dispute.created': {
      const dispute = Dispute.safeParse(event.data.object)
      if (!dispute.success || !dispute.data.payment_intent) return { status: 'ignored' }
      return flagPayment(
        tx,
        dispute.data.payment_intent,
        CARD_PAYMENT_FLAGS.disputed(dispute.data.amount, dispute.data.reason),
      )
    }
    default:
      return { status: 'ignored' }
  }
}

/**
 * What a signed payment event must be before it is recorded (decision 032): in USD, of (0, $1,000,000], for an
 * invoice of the company (and customer) its metadata names. Anything else is for the office to look at: the invoice's
 * company sees it (or the metadata's, when no invoice matched; nobody's when neither is a company of ours).
 */
async function screenCardPayment(
  tx: Database,
  payment: {
    invoiceId: string
    metadata: Record<string, string> | null | undefined
    currency: string | null | undefined
    amountCents: number
    objectId: string
  },
): Promise<Effect | null> {
  const [invoice] = isUuid(payment.invoiceId)
    ? await tx
        .select({ companyId: invoices.companyId, customerId: invoices.customerId, number: invoices.number })
        .from(invoices)
        .where(eq(invoices.id, payment.invoiceId))
    : []
  const named = payment.metadata?.company_id
  const [namedCompany] =
    !invoice && named && isUuid(named)
      ? await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, named))
      : []
  const attention = (reason: string): Effect => ({
    status: 'attention',
    reason,
    companyId: invoice?.companyId ?? namedCompany?.id ?? null,
    objectId: payment.objectId,
  })
  const money = moneyRefusal(payment.currency, payment.amountCents)
  if (money) return attention(money)
  if (!invoice) return attention(ATTENTION_REASONS.unknownInvoice)
  const customer = payment.metadata?.customer_id
  if (named !== invoice.companyId || (customer && customer !== invoice.customerId)) {
    return attention(ATTENTION_REASONS.otherCompany(invoiceNumberLabel(invoice.number)))
  }
  return null
}

/** Why a paid amount may not be recorded whatever it pays for: not USD, or outside (0, $1,000,000]. */
function moneyRefusal(currency: string | null | undefined, amountCents: number): string | null {
  if ((currency ?? '').toLowerCase() !== 'usd') return ATTENTION_REASONS.currency(currency ?? '')
  if (amountCents <= 0 || amountCents > MAX_CARD_PAYMENT_CENTS) return ATTENTION_REASONS.amount(amountCents)
  return null
}

export type CardPayment = {
  invoiceId: string
  amountCents: number
  /** The Checkout session's id, or the autopay PaymentIntent's: unique per customer, so recorded once. */
  reference: string
  paymentIntentId: string | null
  paidAt: Date
}

/**
 * Records money Stripe took for an invoice, in the caller's transaction: a card payment dated the day it was paid
 * (the company's day), flagged when it is not what the invoice asked, and kept as credit when the invoice was voided
 * in the meantime. Already recorded (the same reference) counts as applied.
 */
export async function recordCardPayment(tx: Database, payment: CardPayment): Promise<Effect> {
  if (!isUuid(payment.invoiceId)) return { status: 'ignored' }
  const [invoice] = await tx
    .select({
      companyId: invoices.companyId,
      customerId: invoices.customerId,
      number: invoices.number,
      state: invoices.state,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      dueOn: invoices.dueOn,
      timezone: companies.timezone,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(eq(invoices.id, payment.invoiceId))
  if (!invoice) {
    logger.warn({ invoice: payment.invoiceId }, 'card payment for an invoice that no longer exists; not recorded')
    return { status: 'ignored' }
  }
  const due = outstandingCents(invoice)
  const live = invoice.state === 'sent'
  const flag = !live
    ? CARD_PAYMENT_FLAGS.voidInvoice(invoiceNumberLabel(invoice.number))
    : due === 0
      ? CARD_PAYMENT_FLAGS.refundDue(payment.amountCents, invoiceNumberLabel(invoice.number))
      : payment.amountCents !== due
        ? CARD_PAYMENT_FLAGS.amountDiffers(payment.amountCents, due)
        : null
  const recorded = await recordPayment(
    {
      companyId: invoice.companyId,
      customerId: invoice.customerId,
      invoiceId: live ? payment.invoiceId : null,
      amountCents: payment.amountCents,
      receivedOn: localDateAt(payment.paidAt, invoice.timezone),
      method: 'card',
      reference: payment.reference,
      recordedBy: null,
      flag,
      stripePaymentIntentId: payment.paymentIntentId,
      now: payment.paidAt,
    },
    tx,
  )
  if (!recorded.ok && recorded.code !== 'conflict') {
    logger.warn({ invoice: payment.invoiceId, reason: recorded.message }, 'card payment not recorded')
    return { status: 'ignored' }
  }
  return { status: 'applied' }
}

/**
 * A refund (charge.refunded carries the charge's refunded total so far): a new refunds row for what that total adds,
 * unique per payment and total, so the same event twice (or two at once: the payment row is locked) adds one. The
 * rows are the only record of what was refunded (docs/billing.md); the invoice's paid sum moves with them in this
 * transaction. An older refund event arriving after a newer one adds nothing, so any order ends in the same state.
 */
async function refund(tx: Database, paymentIntentId: string, refundedTotal: number): Promise<Effect> {
  const [payment] = await tx
    .select({
      id: payments.id,
      companyId: payments.companyId,
      customerId: payments.customerId,
      invoiceId: payments.invoiceId,
      amountCents: payments.amountCents,
    })
    .from(payments)
    .where(eq(payments.stripePaymentIntentId, paymentIntentId))
    .limit(1)
    .for('update')
  if (!payment) return { status: 'unknown-intent', paymentIntentId }
  // What is refunded so far is the sum of the payment's refund rows (read under the payment's lock): the only record.
  const [sofar] = await tx
    .select({ cents: refundedCentsOf(payments.id) })
    .from(payments)
    .where(eq(payments.id, payment.id))
  const refunded = Math.min(Math.max(refundedTotal, 0), payment.amountCents)
  const delta = refunded - (sofar?.cents ?? 0)
  if (delta <= 0) return { status: 'applied' }
  const [added] = await tx
    .insert(refunds)
    .values({
      companyId: payment.companyId,
      customerId: payment.customerId,
      paymentId: payment.id,
      amountCents: delta,
      refundedTotalCents: refunded,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id })
  if (!added) return { status: 'applied' }
  if (payment.invoiceId) await movePaid(tx, payment.companyId, payment.invoiceId, -delta)
  return { status: 'applied' }
}

/** Adds a note for the office to the payment Stripe's intent paid (a dispute), keeping any note it had. */
async function flagPayment(tx: Database, paymentIntentId: string, note: string): Promise<Effect> {
  const [payment] = await tx
    .update(payments)
    .set({ flag: sql`case when ${payments.flag} is null then ${note} else ${payments.flag} || ' ' || ${note} end` })
    .where(eq(payments.stripePaymentIntentId, paymentIntentId))
    .returning({ id: payments.id })
  return payment ? { status: 'applied' } : { status: 'unknown-intent', paymentIntentId }
}

/** A completed setup: the customer's card is saved for autopay ("Visa ending 4242"). */
async function saveCard(tx: Database, session: z.infer<typeof CheckoutSession>, card: SavedCard): Promise<Effect> {
  const companyId = session.metadata?.company_id
  const customerId = session.metadata?.customer_id
  if (!companyId || !customerId || !isUuid(companyId) || !isUuid(customerId)) return { status: 'ignored' }
  const stripeCustomerId = card.stripeCustomerId ?? session.customer
  const [saved] = await tx
    .update(customers)
    .set({
      autopayPaymentMethodId: card.paymentMethodId,
      autopayCardLabel: card.label,
      ...(stripeCustomerId ? { stripeCustomerId } : {}),
    })
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .returning({ id: customers.id })
  return saved ? { status: 'applied' } : { status: 'ignored' }
}

/** "Needs attention" on the billing page: the company's latest signed Stripe events acknowledged but not recorded. */
export async function listStripeAttention({ companyId, limit = 10 }: { companyId: string; limit?: number }) {
  return db()
    .select({
      eventId: stripeAttention.eventId,
      type: stripeAttention.type,
      reason: stripeAttention.reason,
      objectId: stripeAttention.objectId,
      createdAt: stripeAttention.createdAt,
    })
    .from(stripeAttention)
    .where(eq(stripeAttention.companyId, companyId))
    .orderBy(desc(stripeAttention.createdAt))
    .limit(limit)
}

export const REFUND_MESSAGES = {
  notFound: 'Payment not found.',
  notCard: 'Only card payments are refunded here; give other payments back outside Pool Bud.',
  nothingLeft: 'This payment is already refunded in full.',
  tooMuch: (leftCents: number) => `Refund at most ${formatCents(leftCents)}: that is what is left of this payment.`,
  unavailable: 'The refund could not be requested from Stripe. Please try again in a few minutes.',
  requested: (cents: number) =>
    `Refund of ${formatCents(cents)} requested. It shows here once Stripe confirms it (usually within a minute).`,
} as const

/**
 * "Refund" on the office's invoice page (decision 032): asks Stripe to give back `amountCents` of a card payment of
 * the invoice. Nothing is recorded here — the charge.refunded webhook records the refund once, as a new record. The
 * idempotency key is the payment, what was refunded so far and the amount: a double-submitted (or two tabs') "Refund"
 * is one refund at Stripe.
 */
export async function requestRefund({
  companyId,
  invoiceId,
  paymentId,
  amountCents,
  requestedBy,
}: {
  companyId: string
  invoiceId: string
  paymentId: string
  amountCents: number
  requestedBy: string
}): Promise<Result<{ message: string }>> {
  if (!isUuid(paymentId)) return failure('not-found', REFUND_MESSAGES.notFound)
  const [payment] = await db()
    .select({
      id: payments.id,
      customerId: payments.customerId,
      amountCents: payments.amountCents,
      refundedCents: refundedCentsOf(payments.id),
      method: payments.method,
      stripePaymentIntentId: payments.stripePaymentIntentId,
    })
    .from(payments)
    .where(and(eq(payments.companyId, companyId), eq(payments.invoiceId, invoiceId), eq(payments.id, paymentId)))
  if (!payment) return failure('not-found', REFUND_MESSAGES.notFound)
  if (payment.method !== 'card' || !payment.stripePaymentIntentId) return failure('conflict', REFUND_MESSAGES.notCard)
  const left = payment.amountCents - payment.refundedCents
  if (left <= 0) return failure('conflict', REFUND_MESSAGES.nothingLeft)
  if (amountCents > left) return failure('invalid', REFUND_MESSAGES.tooMuch(left), 'amount')
  const stripe = configuredStripe()
  if (!stripe) return failure('unavailable', ONLINE_PAYMENT_NOT_SET_UP)
  const made = await createRefund(stripe.client, {
    paymentIntentId: payment.stripePaymentIntentId,
    amountCents,
    idempotencyKey: `refund:${payment.id}:${payment.refundedCents}:${amountCents}`,
    metadata: { invoice_id: invoiceId, customer_id: payment.customerId, company_id: companyId },
  })
  if (!made.ok) {
    logger.warn({ payment: payment.id, by: requestedBy, reason: made.message }, 'refund not made by Stripe')
    return made.refused ? failure('conflict', made.message) : failure('unavailable', REFUND_MESSAGES.unavailable)
  }
  logger.info({ payment: payment.id, by: requestedBy, refund: made.id }, 'refund requested from Stripe')
  return success({ message: REFUND_MESSAGES.requested(amountCents) })
}
