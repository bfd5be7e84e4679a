// The one door to Stripe's API (docs/billing.md), through the official `stripe` package: one client per process, the
// calls card payments make, and Stripe's answers turned into our own small shapes, so the models never see the SDK's
// types or its error classes. STRIPE_API_BASE points the client at a server on this machine (tests/helpers/
// fake-stripe.ts): tests never reach the internet.
import Stripe from 'stripe'
import { logger } from '~/utils/logger.server'
import { type StripeConfig, stripeConfig } from './stripe-config.server'

/** A request waits this long: Stripe answers in a second or two; a hung connection must not hold a worker. */
export const STRIPE_TIMEOUT_MS = 20_000

declare global {
  var __poolBudStripe: { key: string; client: Stripe } | undefined
}

/** The process's client for these settings (a new one only when the settings change, as between test files). */
export function stripeClient(config: StripeConfig): Stripe {
  const key = JSON.stringify([config.secretKey, config.apiBase])
  const cached = globalThis.__poolBudStripe
  if (cached?.key === key) return cached.client
  const client = new Stripe(config.secretKey, {
    // Pinned: webhook payloads and answers keep the shape this code was written against, whatever the account's
    // default version becomes.
    apiVersion: Stripe.API_VERSION,
    // The SDK retries network failures and 409/5xx itself, with an idempotency key it adds, so a retry never
    // creates a second session or charge.
    maxNetworkRetries: 2,
    timeout: STRIPE_TIMEOUT_MS,
    telemetry: false,
    ...(config.apiBase
      ? { protocol: config.apiBase.protocol, host: config.apiBase.host, port: config.apiBase.port }
      : {}),
  })
  globalThis.__poolBudStripe = { key, client }
  return client
}

/** The configured client, or undefined when card payments are off. */
export function configuredStripe(): { config: StripeConfig; client: Stripe } | undefined {
  const config = stripeConfig()
  return config ? { config, client: stripeClient(config) } : undefined
}

/** Metadata we put on Stripe's objects, so a webhook can find our records. Stripe keeps only strings. */
export type OurMetadata = {
  invoice_id?: string
  customer_id?: string
  company_id?: string
  autopay?: '1'
  /** A quote's deposit (docs/quotes.md "Deposit"): no invoice yet, the quote and the version approved instead. */
  kind?: typeof QUOTE_DEPOSIT_KIND
  quote_id?: string
  quote_version_id?: string
}

/** `metadata.kind` of a Checkout session (and its PaymentIntent) that pays a quote's deposit. */
export const QUOTE_DEPOSIT_KIND = 'quote-deposit'

export type CheckoutRequest =
  | {
      mode: 'payment'
      invoiceId: string
      customerId: string
      companyId: string
      amountCents: number
      description: string
      /** Stripe's customer when they have one (then Checkout fills the email itself), else their email. */
      stripeCustomerId: string | null
      email: string | null
      successUrl: string
      cancelUrl: string
      /**
       * Stripe's Idempotency-Key for the creation (decision 032): two tabs asking for the same invoice, amount and
       * round get Stripe's first session again instead of a second one.
       */
      idempotencyKey?: string
    }
  | {
      /** A quote's deposit: a payment session at Stripe whose metadata names the quote, not an invoice. */
      mode: 'quote-deposit'
      quoteId: string
      quoteVersionId: string
      customerId: string
      companyId: string
      amountCents: number
      description: string
      stripeCustomerId: string | null
      email: string | null
      successUrl: string
      cancelUrl: string
      /** Per quote, version and amount (decision 062): a double submit makes one session. */
      idempotencyKey: string
    }
  | {
      mode: 'setup'
      customerId: string
      companyId: string
      stripeCustomerId: string
      successUrl: string
      cancelUrl: string
    }

/** Creates a Checkout Session: a card payment of one invoice or of a quote's deposit, or saving a card for autopay. */
export async function createCheckoutSession(
  client: Stripe,
  request: CheckoutRequest,
): Promise<{ ok: true; id: string; url: string; expiresAt: Date } | { ok: false; message: string }> {
  try {
    const session =
      request.mode === 'payment' || request.mode === 'quote-deposit'
        ? await client.checkout.sessions.create(
            {
              mode: 'payment',
              // Cards only: other methods settle days later, after Checkout has already said "paid" or not.
              allowed_payment_method_types: ['card'],
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: 'usd',
                    unit_amount: request.amountCents,
                    product_data: { name: request.description },
                  },
                },
              ],
              client_reference_id: request.mode === 'payment' ? request.invoiceId : request.quoteId,
              metadata: ourMetadata(request),
              // The PaymentIntent carries our ids too: refunds and disputes name the intent, not the session.
              payment_intent_data: { metadata: ourMetadata(request), description: request.description },
              ...(request.stripeCustomerId
                ? { customer: request.stripeCustomerId }
                : request.email
                  ? { customer_email: request.email }
                  : {}),
              success_url: request.successUrl,
              cancel_url: request.cancelUrl,
            },
            request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : undefined,
          )
        : await client.checkout.sessions.create({
            mode: 'setup',
            currency: 'usd',
            allowed_payment_method_types: ['card'],
            customer: request.stripeCustomerId,
            metadata: ourMetadata(request),
            setup_intent_data: { metadata: ourMetadata(request) },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          })
    if (!session.url) return { ok: false, message: 'Stripe answered a Checkout Session without a URL' }
    // Stripe closes an unpaid session after 24 hours unless told otherwise.
    const expiresAt = new Date((session.expires_at || Math.floor(Date.now() / 1000) + 24 * 60 * 60) * 1000)
    return { ok: true, id: session.id, url: session.url, expiresAt }
  } catch (error) {
    return { ok: false, message: stripeReason(error) }
  }
}

/**
 * Expires an open Checkout Session (Stripe's expire API), so it can no longer be paid. A session that is no longer
 * open (paid, or already expired) is answered 'closed': nothing to expire.
 */
export async function expireCheckoutSession(
  client: Stripe,
  sessionId: string,
): Promise<{ ok: true; status: 'expired' | 'closed' } | { ok: false; message: string }> {
  try {
    await client.checkout.sessions.expire(sessionId)
    return { ok: true, status: 'expired' }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
      return { ok: true, status: 'closed' }
    }
    return { ok: false, message: stripeReason(error) }
  }
}

/**
 * Gives money back on a card payment (Stripe's refund API): `amountCents` of the PaymentIntent's charge. Nothing is
 * recorded here: the charge.refunded webhook records it, once (decision 032). The idempotency key makes a
 * double-submitted "Refund" one refund.
 */
export async function createRefund(
  client: Stripe,
  refund: { paymentIntentId: string; amountCents: number; idempotencyKey: string; metadata: OurMetadata },
): Promise<{ ok: true; id: string } | { ok: false; message: string; refused: boolean }> {
  try {
    const created = await client.refunds.create(
      { payment_intent: refund.paymentIntentId, amount: refund.amountCents, metadata: refund.metadata },
      { idempotencyKey: refund.idempotencyKey },
    )
    return { ok: true, id: created.id }
  } catch (error) {
    // Stripe said no (more than is left to refund, a charge that cannot be refunded): its reason is the answer.
    const refused = error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400
    return { ok: false, message: refused ? (error as Error).message : stripeReason(error), refused }
  }
}

function ourMetadata(request: CheckoutRequest): Record<string, string> {
  const metadata: OurMetadata = { customer_id: request.customerId, company_id: request.companyId }
  if (request.mode === 'payment') metadata.invoice_id = request.invoiceId
  if (request.mode === 'quote-deposit') {
    metadata.kind = QUOTE_DEPOSIT_KIND
    metadata.quote_id = request.quoteId
    metadata.quote_version_id = request.quoteVersionId
  }
  return metadata
}

/** Stripe's customer for ours (saved cards belong to a Stripe customer). */
export async function createStripeCustomer(
  client: Stripe,
  customer: { customerId: string; companyId: string; name: string; email: string | null },
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  try {
    const created = await client.customers.create(
      {
        name: customer.name,
        ...(customer.email ? { email: customer.email } : {}),
        metadata: { customer_id: customer.customerId, company_id: customer.companyId },
      },
      // Two clicks at once (or a retry of a lost answer) make one Stripe customer, not two.
      { idempotencyKey: `customer:${customer.customerId}` },
    )
    return { ok: true, id: created.id }
  } catch (error) {
    return { ok: false, message: stripeReason(error) }
  }
}

export type SavedCard = { paymentMethodId: string; stripeCustomerId: string | null; label: string }

/** The card a completed setup saved, as "Visa ending 4242". */
export async function savedCardOf(
  client: Stripe,
  setupIntentId: string,
): Promise<{ ok: true; card: SavedCard } | { ok: false; message: string }> {
  try {
    const intent = await client.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] })
    const method = intent.payment_method
    if (!method || typeof method === 'string') return { ok: false, message: 'The setup saved no payment method' }
    const customer = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null)
    return {
      ok: true,
      card: {
        paymentMethodId: method.id,
        stripeCustomerId: customer,
        label: method.card ? cardLabel(method.card.brand, method.card.last4) : 'Saved payment method',
      },
    }
  } catch (error) {
    return { ok: false, message: stripeReason(error) }
  }
}

const BRANDS: Record<string, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  eftpos_au: 'eftpos',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
}

/** "Visa ending 4242": what the portal and the office show for a saved card. */
export function cardLabel(brand: string, last4: string) {
  const name = BRANDS[brand] ?? (brand && brand !== 'unknown' ? brand[0]?.toUpperCase() + brand.slice(1) : 'Card')
  return `${name} ending ${last4}`
}

export type OffSessionCharge = {
  stripeCustomerId: string
  paymentMethodId: string
  amountCents: number
  invoiceId: string
  customerId: string
  companyId: string
  description: string
  /** One per invoice, attempt and amount: a retried request (a lost answer, two servers) charges once. */
  idempotencyKey: string
}

export type ChargeOutcome =
  | { status: 'succeeded'; paymentIntentId: string; amountCents: number }
  /** Stripe took it but has not settled it (rare for cards): the payment_intent.succeeded webhook records it. */
  | { status: 'processing'; paymentIntentId: string }
  /** Refused for this attempt (declined, authentication needed, the card is gone): try again later, or give up. */
  | { status: 'declined'; message: string; code: string | null }
  /** Nothing was decided (network, Stripe's outage, our key refused): ask again soon with the same key. */
  | { status: 'retry'; message: string }

/** Charges a saved card without the customer present (autopay): a PaymentIntent confirmed off-session. */
export async function chargeOffSession(client: Stripe, charge: OffSessionCharge): Promise<ChargeOutcome> {
  try {
    const intent = await client.paymentIntents.create(
      {
        amount: charge.amountCents,
        currency: 'usd',
        customer: charge.stripeCustomerId,
        payment_method: charge.paymentMethodId,
        allowed_payment_method_types: ['card'],
        confirm: true,
        off_session: true,
        description: charge.description,
        metadata: {
          invoice_id: charge.invoiceId,
          customer_id: charge.customerId,
          company_id: charge.companyId,
          autopay: '1',
        } satisfies OurMetadata,
      },
      { idempotencyKey: charge.idempotencyKey },
    )
    if (intent.status === 'succeeded') {
      return { status: 'succeeded', paymentIntentId: intent.id, amountCents: intent.amount_received || intent.amount }
    }
    if (intent.status === 'processing') return { status: 'processing', paymentIntentId: intent.id }
    return { status: 'declined', message: `The payment needs the customer (${intent.status})`, code: intent.status }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      return { status: 'declined', message: error.message, code: error.decline_code ?? error.code ?? null }
    }
    // A saved card that was deleted or can no longer be used is refused the same way on every attempt.
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
      return { status: 'declined', message: error.message, code: error.code ?? null }
    }
    logger.warn({ err: stripeReason(error) }, 'autopay charge not decided; it is asked again')
    return { status: 'retry', message: stripeReason(error) }
  }
}

/**
 * Whether a PaymentIntent is one of ours (it carries our invoice id, or is a quote deposit's): a refund or dispute
 * for an intent we have no payment for is either early (the payment's own event is still to come) or not ours at all.
 * 'unknown' when Stripe could not be asked.
 */
export async function isOurPaymentIntent(client: Stripe, paymentIntentId: string): Promise<boolean | 'unknown'> {
  try {
    const intent = await client.paymentIntents.retrieve(paymentIntentId)
    return Boolean(intent.metadata?.invoice_id || intent.metadata?.kind === QUOTE_DEPOSIT_KIND)
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return false
    return 'unknown'
  }
}

/** `t=<seconds>` and at least one `v1=<64 hex digits>`: the only Stripe-Signature worth handing to the SDK. */
const SIGNATURE_HEADER = /^(?=.*(?:^|,)t=\d{1,12}(?:,|$))(?=.*(?:^|,)v1=[0-9a-f]{64}(?:,|$))[\w=,]{1,2048}$/

/**
 * The event Stripe signed, or null when the signature is missing, malformed, wrong or too old (replays older than
 * the SDK's five-minute tolerance are refused). `payload` must be the raw body: a re-serialized JSON never matches.
 * Nothing a sender puts in the header or body throws: a header the SDK cannot read (`t=,v1=` made it throw a plain
 * Error, answered 500) is refused before it gets there, and any failure of the check is a refusal (decision 032).
 */
export function verifiedEvent(config: StripeConfig, payload: string, signature: string | null): unknown | null {
  if (!signature || !SIGNATURE_HEADER.test(signature.trim())) return null
  try {
    return stripeClient(config).webhooks.constructEvent(payload, signature.trim(), config.webhookSecret)
  } catch {
    // A signature that does not match, a timestamp out of tolerance, or a signed body that is not JSON: nothing we
    // could apply, and nothing for the logs' errors.
    return null
  }
}

/** A Stripe error in one line for logs and the outbox, without the request's details. */
function stripeReason(error: unknown) {
  if (error instanceof Stripe.errors.StripeError) {
    return `Stripe ${error.type}${error.statusCode ? ` (HTTP ${error.statusCode})` : ''}: ${error.message}`
  }
  return error instanceof Error ? error.message : String(error)
}
