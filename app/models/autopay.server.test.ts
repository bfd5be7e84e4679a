// Autopay against the database and a local Stripe: a due invoice is charged once and recorded; a decline is retried on
// days 1, 3 and 7, then "Payment failed" goes to the office and the customer, once; two workers at once charge once;
// Stripe not deciding is asked again with the same idempotency key; nothing is charged without Stripe.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { companies, customers, emailOutbox } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addCardCustomer, addSentInvoice, invoiceMoney, paymentsOf } from '../../tests/helpers/card-payments'
import { type FakeStripe, startFakeStripe } from '../../tests/helpers/fake-stripe'
import { useDemoData } from '../../tests/helpers/test-database'
import { AUTOPAY_MAX_ATTEMPTS, AUTOPAY_RECHECK_MS, PAYMENT_FAILED_EVENT, runAutopay } from './autopay.server'
import { recordPayment } from './payment.server'

const DAY = 24 * 60 * 60_000
const T0 = new Date('2026-12-01T15:00:00Z')
const at = (days: number, minutes = 0) => new Date(T0.getTime() + days * DAY + minutes * 60_000)

let fake: FakeStripe
let blue: string
let n = 0

/** A Blue Lagoon customer with a saved card, and a sent invoice of theirs whose autopay is due at T0. */
async function dueInvoice(totalCents: number, { email = true } = {}) {
  n += 1
  const customer = await addCardCustomer(blue, `Autopay Customer ${n}`, email ? `autopay${n}@example.com` : null)
  await db()
    .update(customers)
    .set({
      stripeCustomerId: `cus_test_autopay_${n}`,
      autopayPaymentMethodId: fake.addCard(),
      autopayCardLabel: 'Visa ending 4242',
    })
    .where(eq(customers.id, customer.id))
  const invoice = await addSentInvoice(blue, customer.id, totalCents, { autopayNextAt: T0 })
  return { customer, invoice }
}

const chargesOf = (invoiceId: string) =>
  fake.paymentIntents.filter((intent) => intent.metadata.invoice_id === invoiceId)
const keysOf = (invoiceId: string) =>
  fake.calls
    .filter((call) => call.path === '/v1/payment_intents' && call.idempotencyKey?.includes(invoiceId))
    .map((call) => call.idempotencyKey)

async function failedNotices(invoiceId: string) {
  return db()
    .select({
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      customerId: emailOutbox.customerId,
      text: emailOutbox.text,
    })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.noticeEvent, PAYMENT_FAILED_EVENT), eq(emailOutbox.noticeSubject, invoiceId)))
    .orderBy(emailOutbox.to)
}

beforeAll(async () => {
  await useDemoData()
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
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
beforeEach(() => {
  fake.answer = () => 'succeed'
})

describe('autopay', () => {
  it('charges a due invoice off-session for what it owes, records the card payment and stops', async () => {
    const { customer, invoice } = await dueInvoice(11_000)
    await recordPayment({
      companyId: blue,
      customerId: customer.id,
      invoiceId: invoice.id,
      amountCents: 1_000,
      receivedOn: '2026-11-20',
      method: 'cash',
      reference: null,
      recordedBy: null,
    })
    expect(await runAutopay({ now: T0 })).toMatchObject({ charged: 1 })
    const [charge] = chargesOf(invoice.id)
    expect(chargesOf(invoice.id)).toHaveLength(1)
    expect(charge).toMatchObject({ amount: 10_000, status: 'succeeded', customer: `cus_test_autopay_${n}` })
    expect(keysOf(invoice.id)).toEqual([`autopay:${invoice.id}:1:10000`])
    const card = (await paymentsOf(customer.id)).find((payment) => payment.method === 'card')
    expect(card).toMatchObject({
      invoiceId: invoice.id,
      amountCents: 10_000,
      reference: charge?.id,
      stripePaymentIntentId: charge?.id,
      flag: null,
      receivedOn: '2026-12-01',
    })
    expect(await invoiceMoney(invoice.id)).toEqual({ paidCents: 11_000, autopayAttempts: 1, autopayNextAt: null })
    expect(await runAutopay({ now: at(30) })).toMatchObject({ charged: 0 })
    expect(chargesOf(invoice.id)).toHaveLength(1)
  })

  it('retries a declined card on days 1, 3 and 7, then tells the office and the customer "Payment failed" once', async () => {
    const { customer, invoice } = await dueInvoice(9_900)
    fake.answer = () => 'decline'
    expect(await runAutopay({ now: T0 })).toMatchObject({ declined: 1 })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ autopayAttempts: 1, autopayNextAt: at(1) })
    // Not due again before its day.
    expect(await runAutopay({ now: at(0, 60) })).toMatchObject({ declined: 0 })
    await runAutopay({ now: at(1) })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ autopayAttempts: 2, autopayNextAt: at(3) })
    await runAutopay({ now: at(3) })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ autopayAttempts: 3, autopayNextAt: at(7) })
    expect(await failedNotices(invoice.id)).toEqual([])
    expect(await runAutopay({ now: at(7) })).toMatchObject({ failed: 1 })
    expect(await invoiceMoney(invoice.id)).toEqual({ paidCents: 0, autopayAttempts: 4, autopayNextAt: null })
    expect(keysOf(invoice.id)).toEqual([1, 2, 3, 4].map((attempt) => `autopay:${invoice.id}:${attempt}:9900`))
    expect(AUTOPAY_MAX_ATTEMPTS).toBe(4)
    // Nothing more: no charge, no second notice.
    await runAutopay({ now: at(30) })
    expect(keysOf(invoice.id)).toHaveLength(4)
    const notices = await failedNotices(invoice.id)
    expect(notices.map((notice) => notice.to)).toEqual([
      `autopay${n}@example.com`,
      'office@bluelagoon.test',
      'owner@bluelagoon.test',
    ])
    const [toCustomer, toOffice] = notices
    expect(toCustomer).toMatchObject({ subject: 'Blue Lagoon Pool Co.: Payment failed', customerId: customer.id })
    expect(toCustomer?.text).toContain('Your card has insufficient funds.')
    expect(toCustomer?.text).toContain(`/customer/${customer.id}/invoices/${invoice.id}`)
    expect(toOffice?.subject).toMatch(/^Payment failed: INV-\d{4}, Autopay Customer \d+$/)
    expect(toOffice?.customerId).toBeNull()
    expect(toOffice?.text).toContain('The customer was emailed too.')
    expect(await paymentsOf(customer.id)).toEqual([])
  })

  it('tells the office to call a customer who cannot be emailed', async () => {
    const { invoice } = await dueInvoice(5_000, { email: false })
    fake.answer = () => 'decline'
    for (const day of [0, 1, 3, 7]) await runAutopay({ now: at(day) })
    const notices = await failedNotices(invoice.id)
    expect(notices.map((notice) => notice.to)).toEqual(['office@bluelagoon.test', 'owner@bluelagoon.test'])
    expect(notices[0]?.text).toContain('please contact them')
  })

  it('charges once when two workers run at the same moment', async () => {
    const { customer, invoice } = await dueInvoice(7_700)
    const runs = await Promise.all([runAutopay({ now: T0 }), runAutopay({ now: T0 })])
    expect(runs.map((run) => run.charged).sort()).toEqual([0, 1])
    expect(chargesOf(invoice.id)).toHaveLength(1)
    expect((await paymentsOf(customer.id)).filter((payment) => payment.method === 'card')).toHaveLength(1)
  })

  it('asks again soon, with the same key, when Stripe does not decide; a decided attempt is not repeated', async () => {
    const { invoice } = await dueInvoice(6_600)
    fake.answer = () => ({ status: 500 })
    expect(await runAutopay({ now: T0 })).toMatchObject({ rechecked: 1 })
    expect(await invoiceMoney(invoice.id)).toMatchObject({
      autopayAttempts: 0,
      autopayNextAt: new Date(T0.getTime() + AUTOPAY_RECHECK_MS),
    })
    fake.answer = () => 'succeed'
    await runAutopay({ now: at(0, 15) })
    // The SDK's own retries of the 500s and the recheck all carried the attempt's one key.
    expect(new Set(keysOf(invoice.id))).toEqual(new Set([`autopay:${invoice.id}:1:6600`]))
    expect(chargesOf(invoice.id)).toHaveLength(1)
    expect(await invoiceMoney(invoice.id)).toMatchObject({ paidCents: 6_600, autopayNextAt: null })
  })

  it('drops an invoice paid meanwhile or whose card was removed, and charges nothing without Stripe', async () => {
    const { customer, invoice } = await dueInvoice(4_400)
    await db().update(customers).set({ autopayPaymentMethodId: null }).where(eq(customers.id, customer.id))
    expect(await runAutopay({ now: T0 })).toMatchObject({ dropped: 1, charged: 0 })
    expect(await invoiceMoney(invoice.id)).toMatchObject({ autopayNextAt: null })
    const other = await dueInvoice(4_400)
    for (const name of Object.keys(fake.env())) delete process.env[name]
    try {
      expect(await runAutopay({ now: T0 })).toEqual({ charged: 0, declined: 0, failed: 0, rechecked: 0, dropped: 0 })
    } finally {
      Object.assign(process.env, fake.env())
    }
    expect(chargesOf(other.invoice.id)).toHaveLength(0)
  })
})
