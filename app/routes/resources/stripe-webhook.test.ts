// Stripe's webhook against the database, with events signed by the `stripe` package as Stripe signs them: a payment
// delivered three times (and twice at once) is recorded once; a bad or missing signature is a 400 that changes
// nothing; an amount other than the one due is recorded and flagged; a refund or dispute that arrives before its
// payment is answered 500 (Stripe delivers it again) and applied once the payment is there; a saved card is kept.
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCheckoutSession, stripeClient } from '~/billing/stripe.server'
import { type StripeConfig, stripeConfig } from '~/billing/stripe-config.server'
import { customers, stripeEvents } from '~/db/schema'
import { ATTENTION_REASONS, CARD_PAYMENT_FLAGS, listStripeAttention } from '~/models/card-payment.server'
import { db } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import {
  addBillingCompany,
  addCardCustomer,
  addSentInvoice,
  invoiceMoney,
  paymentsOf,
} from '../../../tests/helpers/card-payments'
import { type FakeStripe, type SignedEvent, startFakeStripe } from '../../../tests/helpers/fake-stripe'
import { routeArgs, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { action, STRIPE_WEBHOOK_PATH } from './stripe-webhook'

let fake: FakeStripe
let config: StripeConfig
let companyId: string

function deliver(event: SignedEvent, signature: string | null = event.signature) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
  if (signature !== null) headers['Stripe-Signature'] = signature
  const request = new Request(`${TEST_ORIGIN}${STRIPE_WEBHOOK_PATH}`, { method: 'POST', headers, body: event.payload })
  return action(routeArgs(request)) as Promise<Response>
}

async function eventsStored() {
  const [row] = await db().select({ n: count() }).from(stripeEvents)
  return row?.n ?? 0
}

/** A customer with a sent invoice, and a Checkout session for it that the customer then pays (on the fake). */
async function paidCheckout(name: string, totalCents: number, paidCents = totalCents) {
  const customer = await addCardCustomer(companyId, name, `${name.toLowerCase().replace(/\W/g, '')}@example.com`)
  const invoice = await addSentInvoice(companyId, customer.id, totalCents)
  const created = await createCheckoutSession(stripeClient(config), {
    mode: 'payment',
    invoiceId: invoice.id,
    customerId: customer.id,
    companyId,
    amountCents: totalCents,
    description: `Webhook Pools invoice ${invoice.number}`,
    stripeCustomerId: null,
    email: null,
    successUrl: `${TEST_ORIGIN}/done`,
    cancelUrl: `${TEST_ORIGIN}/cancel`,
  })
  if (!created.ok) throw new Error(created.message)
  const session = fake.completeCheckout(created.id, { amountTotal: paidCents })
  return { customer, invoice, session }
}

beforeAll(async () => {
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
  config = stripeConfig() as StripeConfig
  companyId = await addBillingCompany('Webhook Pools')
})
afterAll(async () => {
  for (const name of Object.keys(fake.env())) delete process.env[name]
  await fake.close()
})

describe('POST /webhooks/stripe', () => {
  it('records a paid Checkout session once, however often Stripe delivers it', async () => {
    const { customer, invoice, session } = await paidCheckout('Paula Once', 12_000)
    const completed = fake.event('checkout.session.completed', session)
    const before = await eventsStored()
    const answers = await Promise.all([deliver(completed), deliver(completed)])
    answers.push(await deliver(completed))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect((await Promise.all(answers.map((answer) => answer.json()))).map((body) => body.outcome).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
    ])
    expect(await paymentsOf(customer.id)).toEqual([
      {
        invoiceId: invoice.id,
        amountCents: 12_000,
        refundedCents: 0,
        method: 'card',
        reference: session.id,
        flag: null,
        stripePaymentIntentId: session.payment_intent,
        receivedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    ])
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 12_000 })
    expect(await eventsStored()).toBe(before + 1)
  })

  it('refuses a bad or missing signature with 400, and changes nothing', async () => {
    const { customer, session } = await paidCheckout('Sam Forged', 5_000)
    const genuine = fake.event('checkout.session.completed', session)
    const forged = fake.event('checkout.session.completed', session, { secret: 'whsec_not_ours' })
    const before = await eventsStored()
    expect((await deliver(forged)).status).toBe(400)
    expect((await deliver(genuine, null)).status).toBe(400)
    expect((await deliver(genuine, 't=1,v1=deadbeef')).status).toBe(400)
    // Signed for another body: the amount changed on the way.
    const tampered = { ...genuine, payload: genuine.payload.replace('"amount_total": 5000', '"amount_total": 50') }
    expect(tampered.payload).not.toBe(genuine.payload)
    expect((await deliver(tampered)).status).toBe(400)
    expect(await paymentsOf(customer.id)).toEqual([])
    expect(await eventsStored()).toBe(before)
  })

  it('answers 400 to a signature header that does not parse, without an error in the logs (N3)', async () => {
    const { customer, session } = await paidCheckout('Hank Header', 5_000)
    const genuine = fake.event('checkout.session.completed', session)
    const now = Math.floor(Date.now() / 1000)
    const errors = vi.spyOn(logger, 'error')
    try {
      for (const header of [
        `t=${now},v1=`,
        't=,v1=',
        'garbage',
        '',
        `t=${now},v1=${'z'.repeat(64)}`,
        `t=${now},v0=${'a'.repeat(64)}`,
        `t=${'9'.repeat(40)},v1=${'a'.repeat(64)}`,
        `${genuine.signature},${'x'.repeat(5000)}`,
      ]) {
        const answer = await deliver(genuine, header)
        expect(answer.status, header.slice(0, 40)).toBe(400)
      }
      expect(errors).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
    }
    expect(await paymentsOf(customer.id)).toEqual([])
  })

  it('records an amount other than the one due, and flags it for the office', async () => {
    const { customer, invoice, session } = await paidCheckout('Olga Over', 8_000, 9_500)
    expect((await deliver(fake.event('checkout.session.completed', session))).status).toBe(200)
    const [payment] = await paymentsOf(customer.id)
    expect(payment).toMatchObject({ amountCents: 9_500, flag: CARD_PAYMENT_FLAGS.amountDiffers(9_500, 8_000) })
    expect(payment?.flag).toBe('Card payment of $95.00 differs from the $80.00 that was due.')
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 9_500 })
  })

  it('waits for the payment when a refund or dispute arrives first, then applies each once', async () => {
    const { customer, invoice, session } = await paidCheckout('Rita Reorder', 10_000)
    const intent = session.payment_intent as string
    const charge = (refunded: number) => ({
      id: 'ch_test_r',
      object: 'charge',
      payment_intent: intent,
      amount: 10_000,
      amount_refunded: refunded,
    })
    const partialRefund = fake.event('charge.refunded', charge(2_500))
    const fullRefund = fake.event('charge.refunded', charge(4_000))
    const dispute = fake.event('charge.dispute.created', {
      id: 'dp_test_1',
      object: 'dispute',
      payment_intent: intent,
      amount: 6_000,
      reason: 'product_not_received',
    })
    const paid = fake.event('checkout.session.completed', session)
    const before = await eventsStored()
    // Stripe's order here: the later refund, the dispute, then the payment, then the earlier refund.
    expect((await deliver(fullRefund)).status).toBe(500)
    expect((await deliver(dispute)).status).toBe(500)
    expect(await eventsStored()).toBe(before)
    expect(await paymentsOf(customer.id)).toEqual([])
    expect((await deliver(paid)).status).toBe(200)
    // Stripe's retries, each delivered twice.
    for (const event of [fullRefund, dispute, partialRefund, fullRefund, dispute, partialRefund]) {
      expect((await deliver(event)).status).toBe(200)
    }
    const [payment] = await paymentsOf(customer.id)
    expect(payment).toMatchObject({
      amountCents: 10_000,
      refundedCents: 4_000,
      flag: "Disputed: the card holder's bank opened a dispute for $60.00 (product not received).",
    })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 6_000 })
    expect(await eventsStored()).toBe(before + 4)
  })

  it('acknowledges a signed payment in yen, of 2^31 cents, for another company or no invoice, and lists it under "Needs attention" without recording it (I-1)', async () => {
    const otherCompany = await addBillingCompany('Other Pools')
    const errors = vi.spyOn(logger, 'error')
    const cases: {
      name: string
      change: (session: Record<string, unknown>) => Record<string, unknown>
      reason: string
      listedFor: string
    }[] = [
      {
        name: 'Yuki Yen',
        change: (s) => ({ ...s, currency: 'jpy' }),
        reason: ATTENTION_REASONS.currency('jpy'),
        listedFor: companyId,
      },
      {
        name: 'Bea Big',
        change: (s) => ({ ...s, amount_total: 2 ** 31 }),
        reason: ATTENTION_REASONS.amount(2 ** 31),
        listedFor: companyId,
      },
      {
        name: 'Zed Zero',
        change: (s) => ({ ...s, amount_total: 0 }),
        reason: ATTENTION_REASONS.amount(0),
        listedFor: companyId,
      },
      {
        name: 'Fay Foreign',
        change: (s) => ({ ...s, metadata: { ...(s.metadata as object), company_id: otherCompany } }),
        reason: 'with another company or customer in its metadata',
        listedFor: companyId,
      },
      {
        name: 'Una Unknown',
        change: (s) => ({
          ...s,
          client_reference_id: null,
          metadata: {
            ...(s.metadata as object),
            invoice_id: '00000000-0000-4000-8000-000000000000',
            company_id: otherCompany,
          },
        }),
        reason: ATTENTION_REASONS.unknownInvoice,
        listedFor: otherCompany,
      },
    ]
    try {
      for (const { name, change, reason, listedFor } of cases) {
        const { customer, invoice, session } = await paidCheckout(name, 9_300)
        const event = fake.event('checkout.session.completed', change(session as never))
        // Delivered twice: acknowledged both times (Stripe stops retrying), listed once.
        for (const _ of [1, 2]) {
          const answer = await deliver(event)
          expect(answer.status, name).toBe(200)
        }
        expect(await paymentsOf(customer.id), name).toEqual([])
        expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 0 })
        const listed = (await listStripeAttention({ companyId: listedFor, limit: 50 })).filter(
          (row) => row.eventId === event.id,
        )
        expect(listed, name).toEqual([
          expect.objectContaining({
            type: 'checkout.session.completed',
            objectId: session.id,
            reason: expect.stringContaining(reason),
          }),
        ])
      }
      // An autopay intent in yen is no payment either.
      const customer = await addCardCustomer(companyId, 'Ivan Intent', 'ivan@example.com')
      const invoice = await addSentInvoice(companyId, customer.id, 4_200)
      const intent = {
        id: 'pi_test_yen_autopay',
        object: 'payment_intent',
        amount_received: 4_200,
        currency: 'jpy',
        metadata: { invoice_id: invoice.id, customer_id: customer.id, company_id: companyId, autopay: '1' },
      }
      const answer = await deliver(fake.event('payment_intent.succeeded', intent))
      expect(await answer.json()).toEqual({ received: true, outcome: 'attention' })
      expect(await paymentsOf(customer.id)).toEqual([])
      expect(errors).not.toHaveBeenCalled()
    } finally {
      errors.mockRestore()
    }
  })

  it('leaves alone a refund of a charge that is not ours (another integration on the account)', async () => {
    const before = await eventsStored()
    const foreign = fake.event('charge.refunded', {
      id: 'ch_test_other',
      object: 'charge',
      payment_intent: 'pi_test_not_ours',
      amount: 1_000,
      amount_refunded: 1_000,
    })
    expect((await deliver(foreign)).status).toBe(200)
    expect((await deliver(foreign)).status).toBe(200)
    expect(await eventsStored()).toBe(before + 1)
  })

  it('keeps a card payment for an invoice voided meanwhile as credit, flagged', async () => {
    const { customer, invoice, session } = await paidCheckout('Vera Void', 7_000)
    const { voidInvoice } = await import('~/models/invoice.server')
    expect(await voidInvoice({ companyId, invoiceId: invoice.id })).toMatchObject({ ok: true })
    expect((await deliver(fake.event('checkout.session.completed', session))).status).toBe(200)
    expect(await paymentsOf(customer.id)).toMatchObject([
      { invoiceId: null, amountCents: 7_000, flag: expect.stringMatching(/^Paid by card after INV-\d{4} was void/) },
    ])
  })

  it('records an autopay charge from payment_intent.succeeded once (the worker may have died before writing it)', async () => {
    const customer = await addCardCustomer(companyId, 'Abe Autopay', 'abe@example.com')
    const invoice = await addSentInvoice(companyId, customer.id, 4_200)
    const intent = {
      id: 'pi_test_autopay_1',
      object: 'payment_intent',
      amount: 4_200,
      amount_received: 4_200,
      status: 'succeeded',
      currency: 'usd',
      metadata: { invoice_id: invoice.id, customer_id: customer.id, company_id: companyId, autopay: '1' },
    }
    // Two events about the same charge (Stripe's, and a resend from the dashboard): one payment.
    expect((await deliver(fake.event('payment_intent.succeeded', intent))).status).toBe(200)
    expect((await deliver(fake.event('payment_intent.succeeded', intent))).status).toBe(200)
    // Checkout's own intents (no autopay marker) are recorded from their session, never from here.
    const checkoutIntent = { ...intent, id: 'pi_test_checkout_1', metadata: { invoice_id: invoice.id } }
    expect((await deliver(fake.event('payment_intent.succeeded', checkoutIntent))).status).toBe(200)
    expect(await paymentsOf(customer.id)).toMatchObject([
      { invoiceId: invoice.id, amountCents: 4_200, reference: intent.id, stripePaymentIntentId: intent.id, flag: null },
    ])
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 4_200 })
  })

  it('saves the card of a completed setup on the customer, for autopay', async () => {
    const customer = await addCardCustomer(companyId, 'Carla Card', 'carla@example.com')
    const stripeCustomer = await stripeClient(config).customers.create({ name: 'Carla Card' })
    const created = await createCheckoutSession(stripeClient(config), {
      mode: 'setup',
      customerId: customer.id,
      companyId,
      stripeCustomerId: stripeCustomer.id,
      successUrl: `${TEST_ORIGIN}/done`,
      cancelUrl: `${TEST_ORIGIN}/cancel`,
    })
    if (!created.ok) throw new Error(created.message)
    const session = fake.completeCheckout(created.id, { card: { brand: 'visa', last4: '4242' } })
    expect((await deliver(fake.event('checkout.session.completed', session))).status).toBe(200)
    const [saved] = await db()
      .select({
        stripeCustomerId: customers.stripeCustomerId,
        paymentMethodId: customers.autopayPaymentMethodId,
        label: customers.autopayCardLabel,
      })
      .from(customers)
      .where(eq(customers.id, customer.id))
    expect(saved).toEqual({
      stripeCustomerId: stripeCustomer.id,
      paymentMethodId: expect.stringMatching(/^pm_/),
      label: 'Visa ending 4242',
    })
  })

  it('answers 200 to events it does not act on, and stores nothing for them', async () => {
    const before = await eventsStored()
    const other = fake.event('customer.created', { id: 'cus_test_x', object: 'customer' })
    expect((await deliver(other)).status).toBe(200)
    expect(await eventsStored()).toBe(before)
  })

  it('does not exist when card payments are off', async () => {
    const event = fake.event('checkout.session.completed', { id: 'cs_test_off' })
    for (const name of Object.keys(fake.env())) delete process.env[name]
    try {
      expect((await deliver(event)).status).toBe(404)
    } finally {
      Object.assign(process.env, fake.env())
    }
  })
})
