// Card payments through Stripe (docs/billing.md, decisions 021 and 032): money Stripe took for an invoice, screened
// and then recorded once, the office's "Needs attention" list, and "Refund" asked of Stripe. Payments are unique by
// their reference (the Checkout session's id, an autopay PaymentIntent's id), which keeps the webhook
// (app/models/stripe-event.server.ts) and the autopay worker from recording one charge twice.
//
// Data is never a 5xx (decision 032): a signed payment in another currency than the company's (USD), of an amount
// outside (0, $1,000,000], or whose metadata names no invoice of the company it names, is acknowledged and listed for
// the office under "Needs attention" (stripe_attention), never recorded as a payment.
import { and, desc, eq } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { outstandingCents } from '~/billing/invoice-status'
import { ONLINE_PAYMENT_NOT_SET_UP } from '~/billing/online-payments.server'
import { REFUND_DUE_PREFIX } from '~/billing/payment-messages'
import { configuredStripe, createRefund } from '~/billing/stripe.server'
import { companies, invoices, payments, stripeAttention } from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { formatCents } from '~/utils/money'
import { failure, type Result, success } from '~/utils/result'
import { refundedCentsOf } from './balance.server'
import { invoiceMoneyColumns } from './invoice.server'
import { recordPayment } from './payment.server'

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

export type Effect =
  | { status: 'applied' | 'ignored' }
  | { status: 'unknown-intent'; paymentIntentId: string }
  | { status: 'attention'; reason: string; companyId: string | null; objectId: string }

/**
 * What a signed payment event must be before it is recorded (decision 032): in USD, of (0, $1,000,000], for an
 * invoice of the company (and customer) its metadata names. Anything else is for the office to look at: the invoice's
 * company sees it (or the metadata's, when no invoice matched; nobody's when neither is a company of ours).
 */
export async function screenCardPayment(
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
export function moneyRefusal(currency: string | null | undefined, amountCents: number): string | null {
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
      ...invoiceMoneyColumns,
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
