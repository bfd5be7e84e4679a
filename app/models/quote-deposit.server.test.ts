// A quote's deposit paid by card (issue 33 item 3; docs/quotes.md "Deposit", decision 062), against the database and
// the local Stripe-speaking server: "Approve" records the decision, then one Checkout session per quote, version and
// amount (a double submit is one session) whose metadata names the quote; another customer's quote is not found.
// Stripe's signed webhook records the deposit exactly once — the same event twice, twice at once, and two events
// about one session at once — as a card payment to no invoice plus its quote_deposits row; an amount other than the
// deposit is flagged; a refund of the deposit follows charge.refunded with no invoice; and the balance (invoices −
// payments + refunds) stays exact to the cent with the deposit as credit (a fast-check property).
import { and, count, eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configuredStripe, createCheckoutSession } from '~/billing/stripe.server'
import { payments, quoteDeposits, taxRates } from '~/db/schema'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addBillingCompany, addCardCustomer, addSentInvoice, paymentsOf } from '../../tests/helpers/card-payments'
import { type FakeStripe, type SignedEvent, startFakeStripe } from '../../tests/helpers/fake-stripe'
import { routeArgs, TEST_ORIGIN } from '../../tests/helpers/requests'
import { STRIPE_WEBHOOK_PATH, action as webhook } from '../routes/resources/stripe-webhook'
import { balanceCentsOf } from './balance.server'
import { creditsByCustomer } from './customer-credit.server'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import { approveQuote } from './quote-decision.server'
import { getQuoteDepositState, QUOTE_DEPOSIT_MESSAGES, startQuoteDepositCheckout } from './quote-deposit.server'
import { addQuoteLine, setQuoteTerms } from './quote-edits.server'
import { sendQuote } from './quote-send.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)

let fake: FakeStripe
let companyId: string

function deliver(event: SignedEvent) {
  const request = new Request(`${TEST_ORIGIN}${STRIPE_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': event.signature },
    body: event.payload,
  })
  return webhook(routeArgs(request)) as Promise<Response>
}

async function outcomeOf(event: SignedEvent) {
  const answer = await deliver(event)
  expect(answer.status).toBe(200)
  return ((await answer.json()) as { outcome: string }).outcome
}

/**
 * A customer of their own with a sent quote of one $1,000.00 untaxed line (or `lineCents`) and a `percent` deposit,
 * approved in the portal: the deposit due is that percent of the total, half up.
 */
async function approvedQuote(name: string, { percent = 30, lineCents = 100_000 } = {}) {
  const customer = await addCardCustomer(companyId, name, `${name.toLowerCase().replace(/\W/g, '')}@example.test`)
  const created = await createQuote({ companyId, customerId: customer.id, today: today() })
  if (!created.ok) throw new Error(created.message)
  const quoteId = created.quote.id
  await addQuoteLine(companyId, quoteId, {
    description: 'Replace pump',
    quantityHundredths: 100,
    unitPriceCents: lineCents,
    priceBookItemId: null,
    optional: false,
    taxable: false,
  })
  const terms = await setQuoteTerms(companyId, quoteId, {
    deposit: { kind: 'percent', value: percent },
    validUntil: null,
    customerNote: null,
  })
  if (!terms.ok) throw new Error(terms.message)
  const sent = await sendQuote(companyId, quoteId)
  if (!sent.ok) throw new Error(sent.message)
  const quote = await getQuote({ companyId, quoteId, customerId: customer.id, today: today(), latestSent: true })
  const approved = await approveQuote({
    companyId,
    customerId: customer.id,
    quoteId,
    versionId: quote?.version.id ?? '',
    signerName: name,
    signaturePng: null,
    ipAddress: '203.0.113.9',
    tickedLineIds: [],
    today: today(),
  })
  if (!approved.ok) throw new Error(approved.message)
  return { customerId: customer.id, quoteId, versionId: quote?.version.id ?? '', depositCents: approved.depositCents }
}

/** The customer pays the deposit's Checkout page (on the fake), `paidCents` if given: the completed session. */
async function paidDeposit(name: string, options: { percent?: number; lineCents?: number; paidCents?: number } = {}) {
  const quote = await approvedQuote(name, options)
  const started = await startQuoteDepositCheckout({ companyId, customerId: quote.customerId, quoteId: quote.quoteId })
  if (!started.ok) throw new Error(started.message)
  const session = fake.sessions.find((s) => s.url === started.url)
  if (!session) throw new Error('no session')
  const completed = fake.completeCheckout(session.id, { amountTotal: options.paidCents })
  return { ...quote, session: completed }
}

async function depositRows(quoteId: string) {
  const [row] = await db().select({ n: count() }).from(quoteDeposits).where(eq(quoteDeposits.quoteId, quoteId))
  return row?.n ?? 0
}

async function balanceOf(customerId: string) {
  const [row] = await db()
    .select({ balance: balanceCentsOf(sql`${companyId}::uuid`, sql`${customerId}::uuid`) })
    .from(sql`(select 1) one`)
  return row?.balance ?? 0
}

beforeAll(async () => {
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
  companyId = await addBillingCompany('Deposit Pools')
  // A default tax rate the quotes' untaxed lines never use: the amounts stay the lines'.
  await db().insert(taxRates).values({ companyId, name: 'Sales tax', milliPercent: 7000, isDefault: true })
})
afterAll(async () => {
  for (const name of Object.keys(fake.env())) delete process.env[name]
  await fake.close()
})

describe('the deposit Checkout session', () => {
  it('is one session per quote, version and amount, naming the quote; another customer’s quote is not found', async () => {
    const quote = await approvedQuote('Dora Deposit')
    expect(quote.depositCents).toBe(30_000)
    expect(await getQuoteDepositState(companyId, quote.quoteId)).toEqual({
      depositCents: 30_000,
      paidCents: 0,
      dueCents: 30_000,
      payments: [],
    })
    const sessionsBefore = fake.sessions.length
    const ask = () => startQuoteDepositCheckout({ companyId, customerId: quote.customerId, quoteId: quote.quoteId })
    // A double submit, and the same button again: one session at Stripe.
    const answers = [...(await Promise.all([ask(), ask()])), await ask()]
    expect(answers.every((a) => a.ok)).toBe(true)
    expect(new Set(answers.map((a) => (a.ok ? a.url : '')))).toHaveProperty('size', 1)
    expect(fake.sessions.length).toBe(sessionsBefore + 1)
    const session = fake.sessions.at(-1)
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 30_000,
      client_reference_id: quote.quoteId,
      metadata: {
        kind: 'quote-deposit',
        company_id: companyId,
        customer_id: quote.customerId,
        quote_id: quote.quoteId,
        quote_version_id: quote.versionId,
      },
      success_url: expect.stringMatching(
        new RegExp(`/customer/${quote.customerId}/quotes/${quote.quoteId}\\?deposit=done$`),
      ),
    })
    expect(session?.metadata).not.toHaveProperty('invoice_id')
    const keys = fake.calls.filter((c) => c.path === '/v1/checkout/sessions').map((c) => c.idempotencyKey)
    expect(keys.at(-1)).toBe(`quote-deposit:${quote.quoteId}:${quote.versionId}:30000`)

    // Another customer (of the same company) asking for this quote, or another company: not found, no session.
    const other = await addCardCustomer(companyId, 'Otto Other')
    const otherCompany = await addBillingCompany('Elsewhere Pools')
    for (const who of [
      { companyId, customerId: other.id },
      { companyId: otherCompany, customerId: quote.customerId },
    ]) {
      expect(await startQuoteDepositCheckout({ ...who, quoteId: quote.quoteId })).toMatchObject({
        ok: false,
        code: 'not-found',
      })
    }
    expect(await startQuoteDepositCheckout({ companyId, customerId: other.id, quoteId: 'not-a-uuid' })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(fake.sessions.length).toBe(sessionsBefore + 1)
  })

  it('is refused for a quote not approved yet, with no deposit, or once the deposit is paid', async () => {
    const customer = await addCardCustomer(companyId, 'Nia NotYet', 'nia@example.test')
    const created = await createQuote({ companyId, customerId: customer.id, today: today() })
    if (!created.ok) throw new Error(created.message)
    // A draft is not the customer's to see: not found.
    expect(
      await startQuoteDepositCheckout({ companyId, customerId: customer.id, quoteId: created.quote.id }),
    ).toMatchObject({ ok: false, code: 'not-found' })
    await addQuoteLine(companyId, created.quote.id, {
      description: 'Filter',
      quantityHundredths: 100,
      unitPriceCents: 10_000,
      priceBookItemId: null,
      optional: false,
      taxable: false,
    })
    await sendQuote(companyId, created.quote.id)
    expect(
      await startQuoteDepositCheckout({ companyId, customerId: customer.id, quoteId: created.quote.id }),
    ).toMatchObject({ ok: false, message: QUOTE_DEPOSIT_MESSAGES.notApproved })

    const none = await approvedQuote('Ned NoDeposit', { percent: 0 })
    expect(none.depositCents).toBe(0)
    expect(await getQuoteDepositState(companyId, none.quoteId)).toBeNull()
    expect(
      await startQuoteDepositCheckout({ companyId, customerId: none.customerId, quoteId: none.quoteId }),
    ).toMatchObject({ ok: false, message: QUOTE_DEPOSIT_MESSAGES.noDeposit })

    const paid = await paidDeposit('Pia PaidUp')
    expect(await outcomeOf(fake.event('checkout.session.completed', paid.session))).toBe('applied')
    expect(
      await startQuoteDepositCheckout({ companyId, customerId: paid.customerId, quoteId: paid.quoteId }),
    ).toMatchObject({ ok: false, message: QUOTE_DEPOSIT_MESSAGES.paid })
  })
})

describe('the webhook records a deposit', () => {
  it('once, however often and however concurrently Stripe delivers it', async () => {
    const { customerId, quoteId, session } = await paidDeposit('Wendy Webhook')
    const completed = fake.event('checkout.session.completed', session)
    const outcomes = await Promise.all([outcomeOf(completed), outcomeOf(completed)])
    outcomes.push(await outcomeOf(completed))
    expect(outcomes.sort()).toEqual(['applied', 'duplicate', 'duplicate'])
    // Another event about the same session (async_payment_succeeded), twice at once with a fresh copy of the first.
    const again = fake.event('checkout.session.async_payment_succeeded', session)
    const replayed = fake.event('checkout.session.completed', session)
    expect((await Promise.all([outcomeOf(again), outcomeOf(replayed)])).sort()).toEqual(['applied', 'applied'])

    expect(await paymentsOf(customerId)).toEqual([
      {
        invoiceId: null,
        amountCents: 30_000,
        refundedCents: 0,
        method: 'card',
        reference: session.id,
        flag: null,
        stripePaymentIntentId: session.payment_intent,
        receivedOn: localDateAt(new Date(), TZ),
      },
    ])
    expect(await depositRows(quoteId)).toBe(1)
    expect(await getQuoteDepositState(companyId, quoteId)).toMatchObject({
      depositCents: 30_000,
      paidCents: 30_000,
      dueCents: 0,
      payments: [{ amountCents: 30_000, method: 'card', refundedCents: 0 }],
    })
    // The deposit is account credit until the work order's invoice takes it: the month's invoices never apply it.
    expect(await balanceOf(customerId)).toBe(-30_000)
    expect((await creditsByCustomer(db(), companyId, [customerId])).get(customerId)).toBeUndefined()
  })

  it('two distinct events about one session at the same moment record it once', async () => {
    const { customerId, quoteId, session } = await paidDeposit('Carl Concurrent')
    const events = [
      fake.event('checkout.session.completed', session),
      fake.event('checkout.session.completed', session),
      fake.event('checkout.session.async_payment_succeeded', session),
    ]
    expect(await Promise.all(events.map(outcomeOf))).toEqual(['applied', 'applied', 'applied'])
    expect(await paymentsOf(customerId)).toHaveLength(1)
    expect(await depositRows(quoteId)).toBe(1)
  })

  it('flags an amount other than the deposit due, and a second deposit paid after the first', async () => {
    const differs = await paidDeposit('Fay Flagged', { paidCents: 25_000 })
    expect(await outcomeOf(fake.event('checkout.session.completed', differs.session))).toBe('applied')
    const [payment] = await paymentsOf(differs.customerId)
    expect(payment).toMatchObject({ amountCents: 25_000, invoiceId: null })
    expect(payment?.flag).toMatch(/^Card deposit of \$250\.00 differs from the \$300\.00 deposit due on Q-\d{4}\.$/)
    // $50.00 is still due: "Pay deposit" asks for that (a new amount, so a new session).
    expect(await getQuoteDepositState(companyId, differs.quoteId)).toMatchObject({ paidCents: 25_000, dueCents: 5_000 })

    // Two sessions both paid (one made for another key — another amount, or a day later — paid as well): the
    // second is kept as credit and flagged "Refund due".
    const twice = await paidDeposit('Tess Twice')
    expect(await outcomeOf(fake.event('checkout.session.completed', twice.session))).toBe('applied')
    const stripe = configuredStripe()
    if (!stripe) throw new Error('no stripe')
    const other = await createCheckoutSession(stripe.client, {
      mode: 'quote-deposit',
      quoteId: twice.quoteId,
      quoteVersionId: twice.versionId,
      customerId: twice.customerId,
      companyId,
      amountCents: 30_000,
      description: 'Deposit again',
      stripeCustomerId: null,
      email: null,
      successUrl: `${TEST_ORIGIN}/done`,
      cancelUrl: `${TEST_ORIGIN}/cancel`,
      idempotencyKey: `another-${twice.quoteId}`,
    })
    if (!other.ok) throw new Error(other.message)
    const url = other.url
    const second = fake.sessions.find((s) => s.url === url)
    const secondPaid = fake.completeCheckout(second?.id ?? '')
    expect(await outcomeOf(fake.event('checkout.session.completed', secondPaid))).toBe('applied')
    const both = await paymentsOf(twice.customerId)
    expect(both.map((p) => p.flag)).toEqual([
      null,
      expect.stringMatching(/^Refund due: \$300\.00 arrived after the deposit on Q-\d{4} was already paid/),
    ])
    expect(await depositRows(twice.quoteId)).toBe(2)
  })

  it('lists a deposit that names another company’s quote under "Needs attention", recording nothing', async () => {
    const { customerId, quoteId, session } = await paidDeposit('Ivy Intruder')
    const otherCompany = await addBillingCompany('Intruder Pools')
    const forged = { ...session, metadata: { ...session.metadata, company_id: otherCompany } }
    expect(await outcomeOf(fake.event('checkout.session.completed', forged))).toBe('attention')
    const yen = { ...session, id: `${session.id}_yen`, currency: 'jpy' }
    expect(await outcomeOf(fake.event('checkout.session.completed', yen))).toBe('attention')
    expect(await paymentsOf(customerId)).toEqual([])
    expect(await depositRows(quoteId)).toBe(0)
  })

  it('records a refund of a deposit (no invoice) from charge.refunded, once, and the balance follows', async () => {
    const { customerId, session } = await paidDeposit('Rex Refund')
    const intent = session.payment_intent as string
    const charge = (refunded: number) => ({
      id: `ch_${intent}`,
      object: 'charge',
      payment_intent: intent,
      amount: 30_000,
      amount_refunded: refunded,
    })
    const partial = fake.event('charge.refunded', charge(10_000))
    // Before the payment: Stripe is asked to deliver it again (the intent is a deposit's: ours).
    expect((await deliver(partial)).status).toBe(500)
    expect(await outcomeOf(fake.event('checkout.session.completed', session))).toBe('applied')
    expect(await balanceOf(customerId)).toBe(-30_000)
    expect(await Promise.all([outcomeOf(partial), outcomeOf(partial)])).toEqual(
      expect.arrayContaining(['applied', 'duplicate']),
    )
    const full = fake.event('charge.refunded', charge(30_000))
    expect(await outcomeOf(full)).toBe('applied')
    expect(await outcomeOf(full)).toBe('duplicate')
    const [payment] = await paymentsOf(customerId)
    expect(payment).toMatchObject({ invoiceId: null, amountCents: 30_000, refundedCents: 30_000 })
    expect(await balanceOf(customerId)).toBe(0)
  })
})

describe('the balance with a deposit credit', () => {
  it('stays invoices − payments + refunds, to the cent (property)', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5_000, max: 2_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 500_000 }),
        fc.integer({ min: 0, max: 100 }),
        async (lineCents, percent, invoiceCents, refundPercent) => {
          n += 1
          const { customerId, depositCents, session } = await paidDeposit(`Prop ${n}`, { lineCents, percent })
          expect(depositCents).toBe(Math.floor((lineCents * percent * 2 + 100) / 200))
          if (invoiceCents > 0) await addSentInvoice(companyId, customerId, invoiceCents)
          expect(await outcomeOf(fake.event('checkout.session.completed', session))).toBe('applied')
          const refunded = Math.floor((depositCents * refundPercent) / 100)
          if (refunded > 0) {
            const charge = {
              id: `ch_${session.payment_intent}`,
              object: 'charge',
              payment_intent: session.payment_intent,
              amount: depositCents,
              amount_refunded: refunded,
            }
            expect(await outcomeOf(fake.event('charge.refunded', charge))).toBe('applied')
          }
          const [paid] = await db()
            .select({ n: count() })
            .from(payments)
            .where(and(eq(payments.companyId, companyId), eq(payments.customerId, customerId)))
          expect(paid?.n).toBe(1)
          expect(await balanceOf(customerId)).toBe(invoiceCents - depositCents + refunded)
        },
      ),
      { numRuns: 12 },
    )
  })
})
