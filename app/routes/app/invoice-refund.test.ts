// A card payment that arrives for an invoice already paid (N6: two Checkout pages, both paid) and what the office does
// with it (decision 032): it is recorded as credit flagged "Refund due"; "Refund" (owners and admins, asked first)
// calls Stripe's refund API once however often it is pressed; charge.refunded, delivered twice and at once, records
// one refund as a new record; the balance comes back to the cent. Also the billing page's "Needs attention".
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCheckoutSession, stripeClient } from '~/billing/stripe.server'
import { type StripeConfig, stripeConfig } from '~/billing/stripe-config.server'
import { companies, customers, refunds } from '~/db/schema'
import { balanceCentsOf } from '~/models/balance.server'
import { ATTENTION_REASONS } from '~/models/card-payment.server'
import { STRIPE_WEBHOOK_PATH, action as stripeWebhook } from '~/routes/resources/stripe-webhook'
import { db, queryRows } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { addCardCustomer, addSentInvoice, invoiceMoney, paymentsOf } from '../../../tests/helpers/card-payments'
import { type FakeStripe, type SignedEvent, startFakeStripe } from '../../../tests/helpers/fake-stripe'
import { pageRequest, routeArgs, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as billingLoader } from './billing'
import { action, loader } from './invoice'

let fake: FakeStripe
let config: StripeConfig
let blue: string
const cookies: Record<string, string> = {}
const cookieOf = async (email: string) => {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

function deliver(event: SignedEvent) {
  const request = new Request(`${TEST_ORIGIN}${STRIPE_WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': event.signature },
    body: event.payload,
  })
  return stripeWebhook(routeArgs(request)) as Promise<Response>
}

async function invoicePage(email: string, invoiceId: string, search = '') {
  const request = pageRequest(`/app/invoices/${invoiceId}${search}`, await cookieOf(email))
  return loader(routeArgs(request, { invoiceId }))
}

async function postRefund(email: string, invoiceId: string, fields: Record<string, string>) {
  const request = new Request(`${TEST_ORIGIN}/app/invoices/${invoiceId}`, {
    method: 'POST',
    headers: { cookie: await cookieOf(email), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'refund', ...fields }),
  })
  const { returned, thrown } = await settle(action(routeArgs(request, { invoiceId })))
  const answer = (thrown ?? returned) as Response | { data: { message: string }; init: { status: number } }
  if (answer instanceof Response) {
    const cookie = (answer.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
    const flash = (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie } }))).flash?.text ?? null
    return { status: answer.status, message: flash }
  }
  return { status: answer.init.status, message: answer.data.message }
}

/** The customer's balance as the product sums it, and as invoices − payments + refunds from the refund records. */
async function balances(customerId: string) {
  const [row] = await db()
    .select({ balance: balanceCentsOf(sql`${blue}::uuid`, sql`${customerId}::uuid`) })
    .from(customers)
    .where(eq(customers.id, customerId))
  const [fromRecords] = await queryRows<{ cents: number }>(sql`
    select ((select coalesce(sum(total_cents), 0) from invoices where customer_id = ${customerId} and state = 'sent')
      - (select coalesce(sum(amount_cents), 0) from payments where customer_id = ${customerId})
      + (select coalesce(sum(amount_cents), 0) from refunds where customer_id = ${customerId}))::int as cents`)
  return { balance: row?.balance, fromRecords: fromRecords?.cents }
}

/** A Checkout session for the invoice made straight at Stripe (as a second tab did before decision 032), then paid. */
async function paidSession(invoiceId: string, customerId: string, amountCents: number) {
  const created = await createCheckoutSession(stripeClient(config), {
    mode: 'payment',
    invoiceId,
    customerId,
    companyId: blue,
    amountCents,
    description: 'Blue Lagoon invoice',
    stripeCustomerId: null,
    email: null,
    successUrl: `${TEST_ORIGIN}/done`,
    cancelUrl: `${TEST_ORIGIN}/cancel`,
  })
  if (!created.ok) throw new Error(created.message)
  return fake.completeCheckout(created.id)
}

beforeAll(async () => {
  await useDemoData()
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
  config = stripeConfig() as StripeConfig
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
})
afterAll(async () => {
  for (const name of Object.keys(fake.env())) delete process.env[name]
  await fake.close()
})

describe('a second card payment of a paid invoice, and "Refund"', () => {
  it('is credit flagged "Refund due"; Refund calls Stripe once; charge.refunded twice and at once records one refund', async () => {
    const customer = await addCardCustomer(blue, 'Tess Twotabs', 'tess@example.com')
    const invoice = await addSentInvoice(blue, customer.id, 9_300)
    const first = await paidSession(invoice.id, customer.id, 9_300)
    const second = await paidSession(invoice.id, customer.id, 9_300)
    for (const session of [first, second]) {
      expect((await deliver(fake.event('checkout.session.completed', session))).status).toBe(200)
    }
    const recorded = await paymentsOf(customer.id)
    expect(recorded).toMatchObject([
      { amountCents: 9_300, flag: null, reference: first.id },
      { amountCents: 9_300, reference: second.id, flag: expect.stringMatching(/^Refund due:/) },
    ])
    expect(recorded[1]?.flag).toMatch(/^Refund due: \$93\.00 arrived after INV-\d{4} was already paid/)
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 18_600 })
    expect(await balances(customer.id)).toEqual({ balance: -9_300, fromRecords: -9_300 })

    // The office sees it, with "Refund" on both card payments and "Refund due" on the second.
    const page = await invoicePage('owner@bluelagoon.test', invoice.id)
    const [paidOnce, paidTwice] = page.payments
    expect(paidOnce).toMatchObject({ refund: { left: '$93.00', due: false } })
    expect(paidTwice).toMatchObject({ refund: { left: '$93.00', due: true } })
    // Asked first: the confirmation names the payment and what is left.
    const asked = await invoicePage('owner@bluelagoon.test', invoice.id, `?refund=${paidTwice?.id}`)
    expect(asked.confirmRefund).toEqual({
      paymentId: paidTwice?.id,
      paid: '$93.00',
      left: '$93.00',
      defaultAmount: '93.00',
    })

    // More than is left is refused before Stripe is asked; a dispatcher may not refund; another company: 404.
    const fields = { paymentId: paidTwice?.id ?? '', amount: '93.00' }
    expect(await postRefund('owner@bluelagoon.test', invoice.id, { ...fields, amount: '93.01' })).toEqual({
      status: 400,
      message: 'Refund at most $93.00: that is what is left of this payment.',
    })
    expect((await postRefund('dispatch@bluelagoon.test', invoice.id, fields)).status).toBe(403)
    expect((await postRefund('owner@sunsetpools.test', invoice.id, fields)).status).toBe(404)
    expect(fake.refunds).toHaveLength(0)

    // "Yes, refund" pressed twice at once (two tabs, a double click): one refund at Stripe.
    const answers = await Promise.all([
      postRefund('owner@bluelagoon.test', invoice.id, fields),
      postRefund('office@bluelagoon.test', invoice.id, fields),
    ])
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 302,
        message: 'Refund of $93.00 requested. It shows here once Stripe confirms it (usually within a minute).',
      })
    }
    expect(fake.refunds).toEqual([
      expect.objectContaining({ amount: 9_300, payment_intent: second.payment_intent, status: 'succeeded' }),
    ])
    // Nothing is recorded until Stripe says so.
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 18_600 })

    // charge.refunded: the same event twice at once, and a second event about the same refund.
    const charge = fake.chargeOf(second.payment_intent as string)
    const refunded = fake.event('charge.refunded', charge)
    const again = fake.event('charge.refunded', charge)
    const delivered = await Promise.all([deliver(refunded), deliver(refunded), deliver(again)])
    expect(delivered.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(await deliver(refunded).then((answer) => answer.status)).toBe(200)

    const rows = await db()
      .select({ amountCents: refunds.amountCents, refundedTotalCents: refunds.refundedTotalCents })
      .from(refunds)
      .where(and(eq(refunds.companyId, blue), eq(refunds.customerId, customer.id)))
    expect(rows).toEqual([{ amountCents: 9_300, refundedTotalCents: 9_300 }])
    expect((await paymentsOf(customer.id))[1]).toMatchObject({ amountCents: 9_300, refundedCents: 9_300 })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 9_300 })
    expect(await balances(customer.id)).toEqual({ balance: 0, fromRecords: 0 })
    // Nothing is left to refund on it now; the page says what was refunded.
    const after = await invoicePage('owner@bluelagoon.test', invoice.id)
    expect(after.payments[1]).toMatchObject({ refunded: '$93.00', refund: null })
    expect(await postRefund('owner@bluelagoon.test', invoice.id, fields)).toMatchObject({ status: 409 })
  })

  it('refunds part of a payment, and the rest later: each a record of its own', async () => {
    const customer = await addCardCustomer(blue, 'Pat Partial', 'pat@example.com')
    const invoice = await addSentInvoice(blue, customer.id, 10_000)
    const session = await paidSession(invoice.id, customer.id, 10_000)
    await deliver(fake.event('checkout.session.completed', session))
    const [payment] = await paymentsOf(customer.id)
    const page = await invoicePage('owner@bluelagoon.test', invoice.id)
    const paymentId = page.payments[0]?.id ?? ''
    expect(payment).toMatchObject({ amountCents: 10_000 })
    for (const amount of ['25', '75.00']) {
      expect(await postRefund('owner@bluelagoon.test', invoice.id, { paymentId, amount })).toMatchObject({
        status: 302,
      })
      await deliver(fake.event('charge.refunded', fake.chargeOf(session.payment_intent as string)))
    }
    const rows = await db()
      .select({ amountCents: refunds.amountCents, refundedTotalCents: refunds.refundedTotalCents })
      .from(refunds)
      .where(eq(refunds.customerId, customer.id))
      .orderBy(refunds.refundedTotalCents)
    expect(rows).toEqual([
      { amountCents: 2_500, refundedTotalCents: 2_500 },
      { amountCents: 7_500, refundedTotalCents: 10_000 },
    ])
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 0 })
    expect(await balances(customer.id)).toEqual({ balance: 10_000, fromRecords: 10_000 })
  })
})

describe('"Needs attention" on the billing page', () => {
  it('lists a signed payment in yen for this company, with the reason; another company does not see it', async () => {
    const customer = await addCardCustomer(blue, 'Yoko Yen', 'yoko@example.com')
    const invoice = await addSentInvoice(blue, customer.id, 5_000)
    const session = await paidSession(invoice.id, customer.id, 5_000)
    expect((await deliver(fake.event('checkout.session.completed', { ...session, currency: 'jpy' }))).status).toBe(200)
    const billing = async (email: string) =>
      billingLoader({
        request: pageRequest('/app/billing', await cookieOf(email)),
        params: {},
        context: {},
      } as never)
    const listed = (await billing('owner@bluelagoon.test')).needsAttention
    expect(listed).toContainEqual(
      expect.objectContaining({ reason: ATTENTION_REASONS.currency('jpy'), stripeObject: session.id }),
    )
    expect(ATTENTION_REASONS.currency('jpy')).toBe('Paid in JPY, not USD: not recorded as a payment.')
    expect((await billing('owner@sunsetpools.test')).needsAttention).toEqual([])
    expect(await paymentsOf(customer.id)).toEqual([])
  })
})
