// A local server that speaks the part of Stripe's API card payments use, for tests of the adapter, the routes and the
// autopay worker (STRIPE_API_BASE points the official client here): POST /v1/checkout/sessions (and …/:id/expire),
// POST /v1/customers, GET /v1/setup_intents/:id (expand payment_method), POST and GET /v1/payment_intents, POST
// /v1/refunds (a charge's amount_refunded grows with each; `chargeOf` gives the charge a charge.refunded event
// carries). It checks what Stripe checks —
// Bearer auth with the secret key, form-encoded bodies with Stripe's bracket notation, required parameters — keeps
// idempotency keys as Stripe does (the same key and body answer the first answer again; the same key with another
// body is a 400), and answers errors in Stripe's shape (402 card_declined). A test decides each charge, completes
// Checkout sessions as a customer would, and builds the signed webhook events that follow.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

export const FAKE_SECRET_KEY = `sk_test_${'f'.repeat(24)}`
export const FAKE_WEBHOOK_SECRET = `whsec_${'e'.repeat(32)}`

type Json = Record<string, unknown>
type Form = { [key: string]: string | Form | Form[] | string[] }

export type FakeCheckoutSession = {
  id: string
  object: 'checkout.session'
  mode: 'payment' | 'setup'
  url: string
  status: 'open' | 'complete' | 'expired'
  /** When Stripe closes the session unpaid: 24 hours after it was made. */
  expires_at: number
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  amount_total: number | null
  currency: string | null
  customer: string | null
  customer_email: string | null
  client_reference_id: string | null
  metadata: Record<string, string>
  payment_intent: string | null
  setup_intent: string | null
  success_url: string
  cancel_url: string
  created: number
  /** What the request asked for (line items, payment_intent_data …), for assertions. */
  request: Form
}

export type FakePaymentIntent = {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  customer: string | null
  payment_method: string | null
  status: 'succeeded' | 'requires_payment_method' | 'processing'
  metadata: Record<string, string>
  latest_charge: string | null
  /** What refunds gave back so far (the latest charge's amount_refunded). */
  amount_refunded: number
  created: number
}

export type FakeRefund = {
  id: string
  object: 'refund'
  amount: number
  payment_intent: string
  charge: string
  currency: string
  status: 'succeeded'
  metadata: Record<string, string>
  created: number
}

/** How the fake answers a charge: succeed, decline (402) or fail without deciding (500). */
export type ChargeAnswer = 'succeed' | 'decline' | 'processing' | { status: 500 } | 'hang'

export type FakeStripe = {
  /** http://127.0.0.1:port — STRIPE_API_BASE. */
  url: string
  secretKey: string
  webhookSecret: string
  /** Every request that reached the server, authorized or not. */
  calls: { method: string; path: string; idempotencyKey: string | null }[]
  sessions: FakeCheckoutSession[]
  customers: { id: string; email: string | null; name: string | null; metadata: Record<string, string> }[]
  /** PaymentIntents created, in order (Checkout's and off-session charges). */
  paymentIntents: FakePaymentIntent[]
  /** Refunds made (POST /v1/refunds that were not idempotent replays), in order. */
  refunds: FakeRefund[]
  /** The charge of a PaymentIntent as a charge.refunded event carries it (amount_refunded is the running total). */
  chargeOf: (paymentIntentId: string) => Record<string, unknown>
  /** Decides each off-session charge (1-based count of charge requests that were not idempotent replays). */
  answer: (charge: number, intent: FakePaymentIntent) => ChargeAnswer
  /** The customer pays (or saves a card) on Checkout's page: the session as Stripe then holds it. */
  completeCheckout: (
    sessionId: string,
    options?: { amountTotal?: number; card?: { brand: string; last4: string } },
  ) => FakeCheckoutSession
  /** A card saved on a Stripe customer (as a completed setup leaves it): its PaymentMethod id. */
  addCard: (card?: { brand: string; last4: string }) => string
  /** An event as Stripe sends it to a webhook, and the body and Stripe-Signature header to post it with. */
  event: (type: string, object: unknown, options?: { created?: number; secret?: string }) => SignedEvent
  /** The environment that points the app at this server. */
  env: () => Record<'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE', string>
  close: () => Promise<void>
}

export type SignedEvent = { id: string; payload: string; signature: string }

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`
const nowSeconds = () => Math.floor(Date.now() / 1000)

export async function startFakeStripe({
  secretKey = FAKE_SECRET_KEY,
  webhookSecret = FAKE_WEBHOOK_SECRET,
} = {}): Promise<FakeStripe> {
  const setupIntents = new Map<string, { id: string; customer: string | null; payment_method: string }>()
  const paymentMethods = new Map<string, { id: string; card: { brand: string; last4: string } }>()
  const idempotent = new Map<string, { body: string; status: number; answer: Json }>()
  let charges = 0

  const fake: FakeStripe = {
    url: '',
    secretKey,
    webhookSecret,
    calls: [],
    sessions: [],
    customers: [],
    paymentIntents: [],
    refunds: [],
    chargeOf(paymentIntentId) {
      const intent = fake.paymentIntents.find((p) => p.id === paymentIntentId)
      if (!intent) throw new Error(`no payment intent ${paymentIntentId}`)
      return {
        id: intent.latest_charge,
        object: 'charge',
        amount: intent.amount_received,
        amount_refunded: intent.amount_refunded,
        currency: intent.currency,
        payment_intent: intent.id,
        refunded: intent.amount_refunded === intent.amount_received,
        metadata: intent.metadata,
      }
    },
    answer: () => 'succeed',
    completeCheckout(sessionId, options = {}) {
      const session = fake.sessions.find((s) => s.id === sessionId)
      if (!session) throw new Error(`no session ${sessionId}`)
      session.status = 'complete'
      if (session.mode === 'payment') {
        const amount = options.amountTotal ?? session.amount_total ?? 0
        const paymentData = (session.request.payment_intent_data ?? {}) as Form
        const intent: FakePaymentIntent = {
          id: id('pi'),
          object: 'payment_intent',
          amount,
          amount_received: amount,
          currency: 'usd',
          customer: session.customer,
          payment_method: id('pm'),
          status: 'succeeded',
          metadata: { ...((paymentData.metadata ?? {}) as Record<string, string>) },
          latest_charge: id('ch'),
          amount_refunded: 0,
          created: nowSeconds(),
        }
        fake.paymentIntents.push(intent)
        session.amount_total = amount
        session.payment_status = 'paid'
        session.payment_intent = intent.id
      } else {
        const card = options.card ?? { brand: 'visa', last4: '4242' }
        const method = { id: id('pm'), card }
        paymentMethods.set(method.id, method)
        const intent = { id: id('seti'), customer: session.customer, payment_method: method.id }
        setupIntents.set(intent.id, intent)
        session.payment_status = 'no_payment_required'
        session.setup_intent = intent.id
      }
      return { ...session }
    },
    addCard(card = { brand: 'visa', last4: '4242' }) {
      const method = { id: id('pm'), card }
      paymentMethods.set(method.id, method)
      return method.id
    },
    event(type, object, options = {}) {
      const eventId = id('evt')
      const body = {
        id: eventId,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: options.created ?? nowSeconds(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      }
      const payload = JSON.stringify(body, null, 2)
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? webhookSecret })
      return { id: eventId, payload, signature }
    },
    env: () => ({ STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE: fake.url }),
    close: async () => {},
  }

  function route(method: string, path: string, form: Form): [number, Json] | 'hang' {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(form)
    const expire = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/)
    if (method === 'POST' && expire) {
      const session = fake.sessions.find((s) => s.id === expire[1])
      if (!session) return missing('checkout.session', expire[1])
      if (session.status !== 'open') {
        return invalid('session', 'Only Checkout Sessions with a status of open can be expired.')
      }
      session.status = 'expired'
      const { request: _request, ...answer } = session
      return [200, answer]
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(form)
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        email: str(form.email),
        name: str(form.name),
        metadata: (form.metadata ?? {}) as Record<string, string>,
      }
      fake.customers.push(customer)
      return [200, { object: 'customer', ...customer }]
    }
    const setup = path.match(/^\/v1\/setup_intents\/([^/]+)$/)
    if (method === 'GET' && setup) {
      const intent = setupIntents.get(setup[1] ?? '')
      if (!intent) return missing('setup_intent', setup[1])
      const expand = Object.values((form.expand ?? {}) as Record<string, string>)
      const pm = paymentMethods.get(intent.payment_method)
      return [
        200,
        {
          object: 'setup_intent',
          id: intent.id,
          status: 'succeeded',
          customer: intent.customer,
          payment_method:
            expand.includes('payment_method') && pm
              ? { object: 'payment_method', type: 'card', ...pm }
              : intent.payment_method,
        },
      ]
    }
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(form)
    const pi = path.match(/^\/v1\/payment_intents\/([^/]+)$/)
    if (method === 'GET' && pi) {
      const intent = fake.paymentIntents.find((p) => p.id === pi[1])
      return intent ? [200, intent] : missing('payment_intent', pi[1])
    }
    return [404, stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`)]
  }

  function createSession(form: Form): [number, Json] {
    const mode = str(form.mode)
    if (mode !== 'payment' && mode !== 'setup') return invalid('mode', 'Invalid mode: must be payment or setup')
    for (const name of ['success_url', 'cancel_url']) {
      if (!str(form[name])?.startsWith('http')) return invalid(name, `Missing required param: ${name}.`)
    }
    if (form.customer && form.customer_email) {
      return invalid('customer_email', 'You may only specify one of these parameters: customer, customer_email.')
    }
    let amount: number | null = null
    if (mode === 'payment') {
      const items = Object.values((form.line_items ?? {}) as Record<string, Form>)
      if (items.length === 0) return invalid('line_items', 'line_items is required in payment mode.')
      amount = 0
      for (const item of items) {
        const price = (item.price_data ?? {}) as Form
        const unit = Number(str(price.unit_amount))
        if (!Number.isInteger(unit) || unit < 50) {
          return invalid('line_items[0][price_data][unit_amount]', 'Amount must be at least $0.50 usd')
        }
        if (str(price.currency) !== 'usd') return invalid('currency', 'Invalid currency')
        amount += unit * Number(str(item.quantity) ?? '1')
      }
    } else {
      if (!form.customer) return invalid('customer', 'A customer is required to save a card in setup mode.')
      if (str(form.currency) !== 'usd') return invalid('currency', 'currency is required in setup mode.')
    }
    const sessionId = id('cs')
    const session: FakeCheckoutSession = {
      id: sessionId,
      object: 'checkout.session',
      mode,
      url: `${fake.url}/c/pay/${sessionId}`,
      status: 'open',
      expires_at: nowSeconds() + 24 * 60 * 60,
      payment_status: 'unpaid',
      amount_total: amount,
      currency: 'usd',
      customer: str(form.customer),
      customer_email: str(form.customer_email),
      client_reference_id: str(form.client_reference_id),
      metadata: (form.metadata ?? {}) as Record<string, string>,
      payment_intent: null,
      setup_intent: null,
      success_url: str(form.success_url) ?? '',
      cancel_url: str(form.cancel_url) ?? '',
      created: nowSeconds(),
      request: form,
    }
    fake.sessions.push(session)
    const { request: _request, ...answer } = session
    return [200, answer]
  }

  function createRefund(form: Form): [number, Json] {
    const intentId = str(form.payment_intent) ?? str(form.charge)
    const intent = fake.paymentIntents.find((p) => p.id === intentId || p.latest_charge === intentId)
    if (!intent) {
      return [
        400,
        stripeError('invalid_request_error', `No such payment_intent: '${intentId}'`, { code: 'resource_missing' }),
      ]
    }
    if (intent.status !== 'succeeded' || !intent.latest_charge) {
      return invalid('payment_intent', 'This PaymentIntent does not have a successful charge to refund.')
    }
    const left = intent.amount_received - intent.amount_refunded
    const amount = form.amount === undefined ? left : Number(str(form.amount))
    if (!Number.isInteger(amount) || amount <= 0) return invalid('amount', 'Invalid positive integer')
    if (amount > left) {
      return [
        400,
        stripeError(
          'invalid_request_error',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
          { code: 'amount_too_large', param: 'amount' },
        ),
      ]
    }
    intent.amount_refunded += amount
    const refund: FakeRefund = {
      id: id('re'),
      object: 'refund',
      amount,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      currency: intent.currency,
      status: 'succeeded',
      metadata: (form.metadata ?? {}) as Record<string, string>,
      created: nowSeconds(),
    }
    fake.refunds.push(refund)
    return [200, refund]
  }

  function createPaymentIntent(form: Form): [number, Json] | 'hang' {
    const amount = Number(str(form.amount))
    if (!Number.isInteger(amount) || amount < 50) return invalid('amount', 'Amount must be at least $0.50 usd')
    if (str(form.currency) !== 'usd') return invalid('currency', 'Invalid currency')
    const customer = str(form.customer)
    const method = str(form.payment_method)
    if (str(form.off_session) === 'true' && (!customer || !method)) {
      return invalid('payment_method', 'An off-session payment needs a customer and a payment_method.')
    }
    // Stripe answers an unknown id given as a parameter with 400 (a GET of one is a 404).
    if (method && !paymentMethods.has(method)) {
      return [
        400,
        stripeError('invalid_request_error', `No such PaymentMethod: '${method}'`, { code: 'resource_missing' }),
      ]
    }
    charges += 1
    const intent: FakePaymentIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: 'usd',
      customer,
      payment_method: method,
      status: 'requires_payment_method',
      metadata: (form.metadata ?? {}) as Record<string, string>,
      latest_charge: null,
      amount_refunded: 0,
      created: nowSeconds(),
    }
    const answer = fake.answer(charges, intent)
    if (answer === 'hang') return 'hang'
    if (typeof answer === 'object') return [500, stripeError('api_error', 'An unknown error occurred')]
    fake.paymentIntents.push(intent)
    intent.latest_charge = id('ch')
    if (answer === 'decline') {
      return [
        402,
        {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
            charge: intent.latest_charge,
            payment_intent: intent,
          },
        },
      ]
    }
    intent.status = answer === 'processing' ? 'processing' : 'succeeded'
    intent.amount_received = answer === 'processing' ? 0 : amount
    return [200, intent]
  }

  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) ?? null
    fake.calls.push({ method: request.method ?? '', path: url.pathname, idempotencyKey })
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    // Checkout's own page, where the portal's redirect lands (the e2e test reads it).
    if (request.method === 'GET' && url.pathname.startsWith('/c/pay/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(`<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1>`)
      return
    }
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided.'))
    }
    if (
      request.method === 'POST' &&
      !request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
    ) {
      return send(response, 400, stripeError('invalid_request_error', 'Expected a form-encoded body.'))
    }
    const form = parseForm(request.method === 'GET' ? url.search.slice(1) : raw)
    // Stripe's idempotency: the same key answers the first answer again; another body with it is refused.
    const remembered = request.method === 'POST' && idempotencyKey ? idempotent.get(idempotencyKey) : undefined
    if (remembered) {
      if (remembered.body !== raw) {
        return send(
          response,
          400,
          stripeError(
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          ),
        )
      }
      return send(response, remembered.status, remembered.answer, { 'idempotent-replayed': 'true' })
    }
    const answered = route(request.method ?? '', url.pathname, form)
    if (answered === 'hang') return // the client's timeout ends it; close() cuts the connection
    const [status, answer] = answered
    // Stripe remembers every answer but its own 5xx failures (those may be retried with the same key).
    if (request.method === 'POST' && idempotencyKey && status < 500) {
      idempotent.set(idempotencyKey, { body: raw, status, answer })
    }
    send(response, status, answer)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}

function send(response: http.ServerResponse, status: number, body: Json, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers })
  response.end(JSON.stringify(body))
}

function stripeError(type: string, message: string, extra: Json = {}): Json {
  return { error: { type, message, ...extra } }
}

function invalid(param: string, message: string): [number, Json] {
  return [400, stripeError('invalid_request_error', message, { param })]
}

function missing(kind: string, objectId: string | undefined): [number, Json] {
  return [404, stripeError('invalid_request_error', `No such ${kind}: '${objectId}'`, { code: 'resource_missing' })]
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}

/** Stripe's form encoding: `a[b][0][c]=v` nests; list indices become object keys ("0", "1" …). */
export function parseForm(raw: string): Form {
  const root: Form = {}
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '')
    let node = root
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value
      else {
        node[part] ??= {}
        node = node[part] as Form
      }
    })
  }
  return root
}
