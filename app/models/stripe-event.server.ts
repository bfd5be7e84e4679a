// Stripe's webhook events (docs/billing.md, decision 021): what each one does to our records, once. The event's id
// goes into stripe_events in the same transaction as its effect, so a delivery repeated (Stripe retries until it hears
// 2xx), or two deliveries at once, apply it once: the second insert waits for the first transaction and then finds
// the id. A payment is screened and recorded by app/models/card-payment.server.ts; a refund is a new record
// (refunds), once per cumulative total the charge reports.
//
// Order is not guaranteed: a refund or dispute can arrive before the payment it is about. Such an event is answered
// 500 without storing its id, so Stripe delivers it again later, by when the payment is there (decision 021).
import { and, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { QUOTE_DEPOSIT_KIND, type SavedCard } from '~/billing/stripe.server'
import { checkoutSessions, customers, payments, refunds, stripeAttention, stripeEvents } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { refundedCentsOf } from './balance.server'
import {
  CARD_PAYMENT_FLAGS,
  type Effect,
  moneyRefusal,
  recordCardPayment,
  screenCardPayment,
} from './card-payment.server'
import { movePaid } from './payment.server'
import { recordQuoteDeposit } from './quote-deposit.server'

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
