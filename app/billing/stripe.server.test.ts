// The Stripe adapter against a local server that speaks Stripe's API (tests/helpers/fake-stripe.ts): what each call
// sends, what each answer becomes, and the settings that decide whether card payments are on at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeStripe, startFakeStripe } from '../../tests/helpers/fake-stripe'
import {
  cardLabel,
  chargeOffSession,
  createCheckoutSession,
  createStripeCustomer,
  isOurPaymentIntent,
  type OffSessionCharge,
  savedCardOf,
  stripeClient,
  verifiedEvent,
} from './stripe.server'
import { type StripeConfig, stripeConfig } from './stripe-config.server'

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }

describe('Stripe settings', () => {
  it('are off with neither secret, and on with both (Stripe itself unless STRIPE_API_BASE says otherwise)', () => {
    expect(stripeConfig({})).toBeUndefined()
    expect(stripeConfig({ STRIPE_SECRET_KEY: ' ', STRIPE_API_BASE: 'http://127.0.0.1:1' })).toBeUndefined()
    expect(stripeConfig(KEYS)).toEqual({ secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', apiBase: null })
    expect(stripeConfig({ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:4010/' })?.apiBase).toEqual({
      protocol: 'http',
      host: '127.0.0.1',
      port: 4010,
    })
    expect(stripeConfig({ ...KEYS, STRIPE_API_BASE: 'https://stripe.internal' })?.apiBase).toEqual({
      protocol: 'https',
      host: 'stripe.internal',
      port: 443,
    })
  })

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_abc123' }, 'missing: STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }, 'missing: STRIPE_SECRET_KEY'],
    [{ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_abc123' }, 'STRIPE_SECRET_KEY must be'],
    [{ ...KEYS, STRIPE_WEBHOOK_SECRET: 'abc123' }, 'STRIPE_WEBHOOK_SECRET must be'],
    [{ ...KEYS, STRIPE_API_BASE: 'ftp://127.0.0.1' }, 'STRIPE_API_BASE must be'],
    [{ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:4010/v1' }, 'STRIPE_API_BASE must be'],
  ])('stop the server when incomplete or wrong %#', (env, message) => {
    expect(() => stripeConfig(env)).toThrow(message)
    try {
      stripeConfig(env)
    } catch (error) {
      // server.mjs prints an EnvError's message and exits instead of starting half-configured.
      expect((error as Error).name).toBe('EnvError')
    }
  })
})

describe('the Stripe adapter', () => {
  let fake: FakeStripe
  let config: StripeConfig
  beforeAll(async () => {
    fake = await startFakeStripe()
    config = stripeConfig(fake.env()) as StripeConfig
  })
  afterAll(() => fake.close())

  it('keeps one client per process for the same settings', () => {
    expect(stripeClient(config)).toBe(stripeClient(config))
  })

  it("creates an invoice's Checkout Session: the amount due in usd, our invoice id twice, the way back", async () => {
    const created = await createCheckoutSession(stripeClient(config), {
      mode: 'payment',
      invoiceId: 'inv-1',
      customerId: 'cust-1',
      companyId: 'co-1',
      amountCents: 12_345,
      description: 'Blue Lagoon Pool Co. invoice INV-0007',
      stripeCustomerId: null,
      email: 'dana@example.com',
      successUrl: 'http://localhost:3999/customer/cust-1/invoices/inv-1?payment=done',
      cancelUrl: 'http://localhost:3999/customer/cust-1/invoices/inv-1',
    })
    expect(created).toEqual({
      ok: true,
      id: expect.stringMatching(/^cs_test_/),
      url: expect.stringContaining('/c/pay/'),
      expiresAt: new Date((fake.sessions.at(-1)?.expires_at ?? 0) * 1000),
    })
    const session = fake.sessions.at(-1)
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 12_345,
      currency: 'usd',
      client_reference_id: 'inv-1',
      customer_email: 'dana@example.com',
      metadata: { invoice_id: 'inv-1', customer_id: 'cust-1', company_id: 'co-1' },
      success_url: 'http://localhost:3999/customer/cust-1/invoices/inv-1?payment=done',
    })
    expect(session?.request).toMatchObject({
      allowed_payment_method_types: { 0: 'card' },
      payment_intent_data: { metadata: { invoice_id: 'inv-1' } },
    })
    // Stripe's secret key went as a Bearer token (the fake refuses anything else).
    expect(fake.calls.at(-1)).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' })
  })

  it('answers a refused request as a failure with Stripe’s reason, not an exception', async () => {
    const wrongKey = stripeClient({ ...config, secretKey: 'sk_test_wrong' })
    const refused = await createStripeCustomer(wrongKey, {
      customerId: 'c',
      companyId: 'co',
      name: 'Dana',
      email: null,
    })
    expect(refused).toEqual({ ok: false, message: expect.stringContaining('Invalid API Key') })
  })

  it('saves a card in setup mode and reads it back as "Visa ending 4242"', async () => {
    const client = stripeClient(config)
    const customer = await createStripeCustomer(client, {
      customerId: 'cust-2',
      companyId: 'co-1',
      name: 'Dana',
      email: 'dana@example.com',
    })
    if (!customer.ok) throw new Error(customer.message)
    // The same customer again (a double click): Stripe's idempotency makes it the same Stripe customer.
    const again = await createStripeCustomer(client, {
      customerId: 'cust-2',
      companyId: 'co-1',
      name: 'Dana',
      email: 'dana@example.com',
    })
    expect(again).toEqual(customer)
    expect(fake.customers.filter((c) => c.metadata.customer_id === 'cust-2')).toHaveLength(1)
    const created = await createCheckoutSession(client, {
      mode: 'setup',
      customerId: 'cust-2',
      companyId: 'co-1',
      stripeCustomerId: customer.id,
      successUrl: 'http://localhost:3999/customer/cust-2',
      cancelUrl: 'http://localhost:3999/customer/cust-2',
    })
    if (!created.ok) throw new Error(created.message)
    const completed = fake.completeCheckout(created.id, { card: { brand: 'mastercard', last4: '4444' } })
    const saved = await savedCardOf(client, completed.setup_intent ?? '')
    expect(saved).toEqual({
      ok: true,
      card: {
        paymentMethodId: expect.stringMatching(/^pm_/),
        stripeCustomerId: customer.id,
        label: 'Mastercard ending 4444',
      },
    })
  })

  it('names cards the way people say them', () => {
    expect(cardLabel('visa', '4242')).toBe('Visa ending 4242')
    expect(cardLabel('amex', '0005')).toBe('American Express ending 0005')
    expect(cardLabel('cartes_bancaires', '1001')).toBe('Cartes_bancaires ending 1001')
    expect(cardLabel('unknown', '0000')).toBe('Card ending 0000')
  })

  describe('charging a saved card off-session', () => {
    const charge = (over: Partial<OffSessionCharge> = {}): OffSessionCharge => ({
      stripeCustomerId: 'cus_test_1',
      paymentMethodId: fake.addCard(),
      amountCents: 9_000,
      invoiceId: 'inv-9',
      customerId: 'cust-9',
      companyId: 'co-1',
      description: 'INV-0009',
      idempotencyKey: `autopay:inv-9:1:9000:${Math.random()}`,
      ...over,
    })

    it('succeeds, and the same idempotency key charges once however often it is sent', async () => {
      fake.answer = () => 'succeed'
      const request = charge()
      const first = await chargeOffSession(stripeClient(config), request)
      expect(first).toEqual({ status: 'succeeded', paymentIntentId: expect.stringMatching(/^pi_/), amountCents: 9_000 })
      const before = fake.paymentIntents.length
      expect(await chargeOffSession(stripeClient(config), request)).toEqual(first)
      expect(fake.paymentIntents).toHaveLength(before)
      expect(fake.paymentIntents.at(-1)).toMatchObject({
        metadata: { invoice_id: 'inv-9', autopay: '1' },
        customer: 'cus_test_1',
      })
    })

    it('a decline is "declined" with the bank’s reason; a card that is gone is declined too', async () => {
      fake.answer = () => 'decline'
      expect(await chargeOffSession(stripeClient(config), charge())).toEqual({
        status: 'declined',
        message: 'Your card has insufficient funds.',
        code: 'insufficient_funds',
      })
      expect(await chargeOffSession(stripeClient(config), charge({ paymentMethodId: 'pm_gone' }))).toMatchObject({
        status: 'declined',
        code: 'resource_missing',
      })
    })

    it('Stripe failing to decide is "retry"', async () => {
      fake.answer = () => ({ status: 500 })
      const client = stripeClient({ ...config })
      expect(await chargeOffSession(client, charge())).toMatchObject({ status: 'retry' })
      fake.answer = () => 'succeed'
    })
  })

  it('tells our PaymentIntents (they carry our invoice id) from others', async () => {
    fake.answer = () => 'succeed'
    const ours = await chargeOffSession(stripeClient(config), {
      stripeCustomerId: 'cus_test_1',
      paymentMethodId: fake.addCard(),
      amountCents: 5_000,
      invoiceId: 'inv-ours',
      customerId: 'c',
      companyId: 'co',
      description: 'x',
      idempotencyKey: 'ours-1',
    })
    if (ours.status !== 'succeeded') throw new Error('expected a charge')
    expect(await isOurPaymentIntent(stripeClient(config), ours.paymentIntentId)).toBe(true)
    expect(await isOurPaymentIntent(stripeClient(config), 'pi_test_someone_else')).toBe(false)
  })

  it('believes only events signed with our webhook secret, over the exact raw body', () => {
    const event = fake.event('checkout.session.completed', { id: 'cs_test_1', object: 'checkout.session' })
    expect(verifiedEvent(config, event.payload, event.signature)).toMatchObject({ id: event.id })
    expect(verifiedEvent(config, event.payload, null)).toBeNull()
    expect(verifiedEvent(config, `${event.payload} `, event.signature)).toBeNull()
    expect(verifiedEvent(config, JSON.stringify(JSON.parse(event.payload)), event.signature)).toBeNull()
    const forged = fake.event('checkout.session.completed', { id: 'cs_test_1' }, { secret: 'whsec_other' })
    expect(verifiedEvent(config, forged.payload, forged.signature)).toBeNull()
    expect(verifiedEvent(config, event.payload, 't=1,v1=00')).toBeNull()
  })
})
