// POST /webhooks/stripe — Stripe's events (docs/billing.md): a paid Checkout session records the card payment, a
// completed setup saves the customer's card for autopay, refunds and disputes reach the payment. Only a body Stripe
// signed with STRIPE_WEBHOOK_SECRET counts: the signature is checked over the raw bytes before anything is parsed, and
// a bad or missing one is a 400 that changes nothing. Each event is applied once (app/models/stripe-event.server.ts);
// an event that came before the payment it is about is answered 500, so Stripe delivers it again later. A signed
// event whose data we cannot record (another currency, an amount out of bounds, no invoice of the company it names) is
// acknowledged with 200 and listed for the office under "Needs attention" (decision 032): data is never a 5xx.
import { isOurPaymentIntent, savedCardOf, stripeClient, verifiedEvent } from '~/billing/stripe.server'
import { stripeConfig } from '~/billing/stripe-config.server'
import { applyStripeEvent } from '~/models/stripe-event.server'
import { logger } from '~/utils/logger.server'
import type { Route } from './+types/stripe-webhook'

export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe'
/** Stripe's events are a few kilobytes; anything near this is not one of them. */
const MAX_BODY_CHARACTERS = 512 * 1024

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

export async function action({ request }: Route.ActionArgs) {
  const config = stripeConfig()
  // Without Stripe nothing could have signed an event: the webhook does not exist.
  if (!config) return plain(404, 'Not found')
  if (request.method !== 'POST') return plain(405, 'Method not allowed.')
  const raw = await request.text()
  if (raw.length > MAX_BODY_CHARACTERS) return plain(413, 'Too large.')
  const event = verifiedEvent(config, raw, request.headers.get('Stripe-Signature'))
  if (!event) {
    logger.warn('Stripe webhook refused: the signature does not match')
    return plain(400, 'Invalid signature.')
  }
  const client = stripeClient(config)
  const outcome = await applyStripeEvent(event, {
    savedCardOf: (setupIntentId) => savedCardOf(client, setupIntentId),
    isOurPaymentIntent: (paymentIntentId) => isOurPaymentIntent(client, paymentIntentId),
  })
  if (outcome.status === 'retry') {
    logger.warn({ reason: outcome.reason }, 'Stripe event not applied yet; Stripe will deliver it again')
    return plain(500, 'Not applied yet; please retry.')
  }
  return Response.json({ received: true, outcome: outcome.status })
}
