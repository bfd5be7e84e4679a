// The portal's quote with a deposit (issue 33 item 3; docs/quotes.md "Deposit", decision 062), through the route's
// loader and action against the database and a local Stripe: "Approve" records the approval and sends the customer
// to Checkout for the deposit (a second "Approve" goes to the same session); back from Stripe the page says
// "Payment processing" until the webhook lands, then "your deposit of $X was received"; "Pay deposit" for another
// customer's quote is a 404, staff previewing may not pay; without Stripe, "Approve" alone and "Deposit due".
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { loadQuotePage } from '~/features/quotes/quote-page.server'
import { getQuote } from '~/models/quote.server'
import { createQuote } from '~/models/quote-create.server'
import { getQuoteDecision } from '~/models/quote-decision.server'
import { addQuoteLine, setQuoteTerms } from '~/models/quote-edits.server'
import { sendQuote } from '~/models/quote-send.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { type FakeStripe, startFakeStripe } from '../../../tests/helpers/fake-stripe'
import {
  answerOf,
  formRequest,
  pageRequest,
  routeArgs,
  SAME_ORIGIN,
  TEST_ORIGIN,
} from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as webhook } from '../resources/stripe-webhook'
import { action, loader } from './quote'

const DANA = 'customer@bluelagoon.test'
const SECOND = 'second-deposit-customer@bluelagoon.test'
const OWNER = 'owner@bluelagoon.test'

let fake: FakeStripe
let blue: string
let timezone: string
let danaId: string
let secondId: string
const cookies: Record<string, string> = {}

async function customerOf(email: string) {
  const [row] = await db()
    .select({ id: customers.id })
    .from(customers)
    .innerJoin(profiles, eq(profiles.id, customers.portalUserId))
    .where(eq(profiles.email, email))
  return row?.id ?? ''
}

/** A sent quote of Dana's: $1,234.56 untaxed, 30 % deposit ($370.37, half up). */
async function sentQuote() {
  const today = localDateAt(new Date(), timezone)
  const created = await createQuote({ companyId: blue, customerId: danaId, today })
  if (!created.ok) throw new Error(created.message)
  const quoteId = created.quote.id
  await addQuoteLine(blue, quoteId, {
    description: 'Heater install',
    quantityHundredths: 100,
    unitPriceCents: 123_456,
    priceBookItemId: null,
    optional: false,
    taxable: false,
  })
  await setQuoteTerms(blue, quoteId, { deposit: { kind: 'percent', value: 30 }, validUntil: null, customerNote: null })
  const sent = await sendQuote(blue, quoteId)
  if (!sent.ok) throw new Error(sent.message)
  const quote = await getQuote({ companyId: blue, quoteId, today, latestSent: true })
  return { quoteId, versionId: quote?.version.id ?? '' }
}

async function post(email: string, customerId: string, quoteId: string, fields: Record<string, string>) {
  cookies[email] ??= await signInAs(email)
  const request = formRequest(`/customer/${customerId}/quotes/${quoteId}`, fields, cookies[email], SAME_ORIGIN)
  const answer = await answerOf(action(routeArgs(request, { customerId, quoteId })))
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('Location') }
  return { status: (answer as { init?: { status?: number } })?.init?.status ?? 200, location: null }
}

async function page(email: string, customerId: string, quoteId: string, query = '') {
  cookies[email] ??= await signInAs(email)
  const request = pageRequest(`/customer/${customerId}/quotes/${quoteId}${query}`, cookies[email])
  return loader(routeArgs(request, { customerId, quoteId }))
}

const approve = (versionId: string) => ({ intent: 'approve', versionId, signerName: 'Dana Whitfield' })

beforeAll(async () => {
  await useDemoData()
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
  const [company] = await db()
    .select({ id: companies.id, timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  timezone = company?.timezone ?? 'America/New_York'
  danaId = await customerOf(DANA)
  // A second portal login in the same company: another customer's record.
  const [other] = await db()
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, blue), isNull(customers.portalUserId)))
    .limit(1)
  const userId = await createDemoLogin(db(), {
    email: SECOND,
    fullName: 'Second Customer',
    role: 'customer',
    companyId: blue,
  })
  await db()
    .update(customers)
    .set({ portalUserId: userId })
    .where(eq(customers.id, other?.id ?? ''))
  secondId = await customerOf(SECOND)
  expect(danaId).not.toBe('')
  expect(secondId).not.toBe('')
})
afterAll(async () => {
  for (const name of Object.keys(fake.env())) delete process.env[name]
  await fake.close()
})

describe('a quote with a deposit, Stripe set', () => {
  it('"Approve" records the approval and goes to Checkout; the page follows the webhook', async () => {
    const { quoteId, versionId } = await sentQuote()
    const before = await page(DANA, danaId, quoteId)
    expect(before.approveWithDeposit).toBe(true)
    expect(before.deposit).toBeNull()

    const sessions = fake.sessions.length
    const first = await post(DANA, danaId, quoteId, approve(versionId))
    expect(first.status).toBe(303)
    expect(first.location).toMatch(new RegExp(`^${fake.url}/c/pay/cs_`))
    // The approval is kept whatever happens on Stripe's page.
    expect(await getQuoteDecision(blue, quoteId)).toMatchObject({ decision: 'approved', depositCents: 37_037 })
    // "Approve" sent again (a double click without JavaScript), and "Pay deposit": the same session.
    expect(await post(DANA, danaId, quoteId, approve(versionId))).toEqual(first)
    expect(await post(DANA, danaId, quoteId, { intent: 'pay-deposit' })).toEqual(first)
    expect(fake.sessions.length).toBe(sessions + 1)
    const session = fake.sessions.at(-1)
    expect(session).toMatchObject({ amount_total: 37_037, metadata: { kind: 'quote-deposit', quote_id: quoteId } })

    // The office and the portal: "Deposit due" until paid.
    const office = await loadQuotePage({ id: 'x', companyId: blue, timezone }, quoteId, new URL(TEST_ORIGIN))
    expect(office.deposit).toEqual({ paidLines: [], paid: null, due: '$370.37' })
    const due = await page(DANA, danaId, quoteId)
    expect(due).toMatchObject({ deposit: { due: '$370.37' }, canPayDeposit: true, depositReturned: false })

    // Back from Stripe before the webhook: still due, "Payment processing".
    const paid = fake.completeCheckout(session?.id ?? '')
    const returned = await page(DANA, danaId, quoteId, '?deposit=done')
    expect(returned).toMatchObject({ deposit: { due: '$370.37' }, depositReturned: true })

    const event = fake.event('checkout.session.completed', paid)
    const request = new Request(`${TEST_ORIGIN}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature },
      body: event.payload,
    })
    expect(((await webhook(routeArgs(request))) as Response).status).toBe(200)

    const received = await page(DANA, danaId, quoteId, '?deposit=done')
    expect(received).toMatchObject({ deposit: { due: null, paid: '$370.37' }, canPayDeposit: false })
    const paidOffice = await loadQuotePage({ id: 'x', companyId: blue, timezone }, quoteId, new URL(TEST_ORIGIN))
    expect(paidOffice.deposit?.paidLines).toEqual([
      expect.stringMatching(/^Deposit paid \$370\.37 on [A-Z][a-z]{2} \d{1,2}, \d{4} \(card\)$/),
    ])
    expect(paidOffice.deposit?.due).toBeNull()
    // Paid: "Pay deposit" makes no new session.
    const again = await post(DANA, danaId, quoteId, { intent: 'pay-deposit' })
    expect(again.location).toBe(`/customer/${danaId}/quotes/${quoteId}`)
    expect(fake.sessions.length).toBe(sessions + 1)
  })

  it('"Pay deposit" on another customer’s quote is a 404; staff previewing the portal may not pay', async () => {
    const { quoteId, versionId } = await sentQuote()
    await post(DANA, danaId, quoteId, approve(versionId))
    const sessions = fake.sessions.length
    // The second customer, through their own portal address with Dana's quote, and through Dana's address.
    expect(await post(SECOND, secondId, quoteId, { intent: 'pay-deposit' })).toMatchObject({ status: 404 })
    expect(await post(SECOND, danaId, quoteId, { intent: 'pay-deposit' })).toMatchObject({ status: 404 })
    expect(await post(OWNER, danaId, quoteId, { intent: 'pay-deposit' })).toMatchObject({ status: 403 })
    const preview = await page(OWNER, danaId, quoteId)
    expect(preview).toMatchObject({ canPayDeposit: false, deposit: { due: '$370.37' } })
    expect(fake.sessions.length).toBe(sessions)
  })
})

describe('without Stripe', () => {
  it('"Approve" alone; the deposit shows as due, with nothing to pay here', async () => {
    const { quoteId, versionId } = await sentQuote()
    const saved = fake.env()
    for (const name of Object.keys(saved)) delete process.env[name]
    try {
      expect((await page(DANA, danaId, quoteId)).approveWithDeposit).toBe(false)
      const sessions = fake.sessions.length
      const approved = await post(DANA, danaId, quoteId, approve(versionId))
      expect(approved).toEqual({ status: 302, location: `/customer/${danaId}/quotes/${quoteId}` })
      expect(await page(DANA, danaId, quoteId)).toMatchObject({ deposit: { due: '$370.37' }, canPayDeposit: false })
      expect(await post(DANA, danaId, quoteId, { intent: 'pay-deposit' })).toEqual(approved)
      expect(fake.sessions.length).toBe(sessions)
    } finally {
      Object.assign(process.env, saved)
    }
  })
})
