// Starting card payments from the portal and the office, against the database and a local Stripe: "Pay invoice"
// opens Checkout for exactly what the customer's own sent invoice still owes; "Save card for automatic payments" opens
// Checkout in setup mode; the office emails the customer a link instead. Who may do what, and what happens when Stripe
// is off or failing.
import { and, eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ONLINE_PAYMENT_NOT_SET_UP } from '~/billing/online-payments.server'
import { companies, customers, emailOutbox, invoices, profiles } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { AutopaySection, type AutopayState } from '~/features/billing/autopay-section'
import { CARD_CHECKOUT_MESSAGES } from '~/models/card-checkout.server'
import { KEY_REUSED } from '~/models/idempotency.server'
import { recordPayment } from '~/models/payment.server'
import { action as officeAutopay } from '~/routes/app/customer-autopay'
import { db } from '~/utils/db.server'
import { addCardCustomer, addSentInvoice } from '../../../tests/helpers/card-payments'
import { type FakeStripe, startFakeStripe } from '../../../tests/helpers/fake-stripe'
import {
  answerOf,
  formRequest,
  pageRequest,
  routeArgs,
  SAME_ORIGIN,
  settle,
  TEST_ORIGIN,
} from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as autopay } from './autopay'
import { loader as portalLoader } from './customer'
import { action as pay } from './invoice-pay'

let fake: FakeStripe
let blue: string
let danaId: string
let danaEmail: string
const cookies: Record<string, string> = {}

async function post(
  handler: (args: never) => unknown,
  path: string,
  params: Record<string, string>,
  email: string,
): Promise<{ status: number; location: string | null; flash: boolean }> {
  cookies[email] ??= await signInAs(email)
  const answer = await answerOf(handler(routeArgs(formRequest(path, {}, cookies[email], SAME_ORIGIN), params)))
  if (answer instanceof Response) {
    return {
      status: answer.status,
      location: answer.headers.get('Location'),
      flash: (answer.headers.get('Set-Cookie') ?? '').includes('pb-flash='),
    }
  }
  return { status: (answer as { init?: { status?: number } })?.init?.status ?? 200, location: null, flash: false }
}

const payInvoice = (invoiceId: string, email = 'customer@bluelagoon.test', customerId = danaId) =>
  post(pay, `/customer/${customerId}/invoices/${invoiceId}/pay`, { customerId, invoiceId }, email)

beforeAll(async () => {
  await useDemoData()
  fake = await startFakeStripe()
  Object.assign(process.env, fake.env())
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const [dana] = await db()
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .innerJoin(profiles, eq(profiles.id, customers.portalUserId))
    .where(eq(profiles.email, 'customer@bluelagoon.test'))
  danaId = dana?.id ?? ''
  danaEmail = dana?.email ?? ''
  expect(danaEmail).not.toBe('')
})
afterAll(async () => {
  for (const name of Object.keys(fake.env())) delete process.env[name]
  await fake.close()
})

describe('"Pay invoice" in the portal', () => {
  it('sends the customer to Checkout for what the invoice still owes, with our invoice id on it', async () => {
    const invoice = await addSentInvoice(blue, danaId, 15_000)
    // $20 already paid in cash: the card pays the rest.
    await recordPayment({
      companyId: blue,
      customerId: danaId,
      invoiceId: invoice.id,
      amountCents: 2_000,
      receivedOn: '2026-11-05',
      method: 'cash',
      reference: null,
      recordedBy: null,
    })
    const answer = await payInvoice(invoice.id)
    const session = fake.sessions.at(-1)
    expect(answer).toEqual({ status: 303, location: session?.url, flash: false })
    const back = `${TEST_ORIGIN}/customer/${danaId}/invoices/${invoice.id}`
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 13_000,
      currency: 'usd',
      client_reference_id: invoice.id,
      metadata: { invoice_id: invoice.id, customer_id: danaId, company_id: blue },
      customer_email: danaEmail,
      success_url: `${back}?payment=done`,
      cancel_url: back,
    })
  })

  it('gives two tabs pressing "Pay invoice" the same Checkout session, made once at Stripe (N6)', async () => {
    const invoice = await addSentInvoice(blue, danaId, 9_300)
    const sessions = fake.sessions.length
    const [first, second] = await Promise.all([payInvoice(invoice.id), payInvoice(invoice.id)])
    expect(first.status).toBe(303)
    expect(second).toEqual(first)
    // A third press later (the same tab reloaded, another device) gets it again.
    expect(await payInvoice(invoice.id)).toEqual(first)
    const made = fake.sessions.slice(sessions)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatchObject({ url: first.location, status: 'open', amount_total: 9_300 })
    // The creation carried an idempotency key of ours (not only the SDK's retry key).
    const creations = fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions')
    expect(creations.at(-1)?.idempotencyKey).toMatch(new RegExp(`^checkout:${invoice.id}:0:9300$`))
  })

  it('expires the open session before making another when the amount owed changed (N6)', async () => {
    const invoice = await addSentInvoice(blue, danaId, 9_300)
    const first = await payInvoice(invoice.id)
    const old = fake.sessions.find((session) => session.url === first.location)
    expect(old?.status).toBe('open')
    await recordPayment({
      companyId: blue,
      customerId: danaId,
      invoiceId: invoice.id,
      amountCents: 1_000,
      receivedOn: '2026-11-05',
      method: 'cash',
      reference: null,
      recordedBy: null,
    })
    const callsBefore = fake.calls.length
    const second = await payInvoice(invoice.id)
    expect(second.status).toBe(303)
    expect(second.location).not.toBe(first.location)
    expect(old?.status).toBe('expired')
    expect(fake.sessions.find((session) => session.url === second.location)).toMatchObject({
      amount_total: 8_300,
      status: 'open',
    })
    // Stripe was asked to expire the old one first, then to make the new one.
    expect(
      fake.calls
        .slice(callsBefore)
        .filter((c) => c.method === 'POST')
        .map((c) => c.path),
    ).toEqual([`/v1/checkout/sessions/${old?.id}/expire`, '/v1/checkout/sessions'])
    // Only the new one is open: pressed again, it is the one.
    expect(await payInvoice(invoice.id)).toEqual(second)
  })

  it('has nothing to pay on a paid or void invoice: back to the invoice with the reason, no session', async () => {
    const paid = await addSentInvoice(blue, danaId, 3_000)
    await recordPayment({
      companyId: blue,
      customerId: danaId,
      invoiceId: paid.id,
      amountCents: 3_000,
      receivedOn: '2026-11-05',
      method: 'check',
      reference: `chk-${paid.id}`,
      recordedBy: null,
    })
    const voided = await addSentInvoice(blue, danaId, 3_000, { state: 'void' })
    const sessions = fake.sessions.length
    for (const invoice of [paid, voided]) {
      expect(await payInvoice(invoice.id)).toEqual({
        status: 302,
        location: `/customer/${danaId}/invoices/${invoice.id}`,
        flash: true,
      })
    }
    expect(fake.sessions).toHaveLength(sessions)
  })

  it("is a 404 for a draft, another customer's invoice or a made-up id; staff previewing may not pay", async () => {
    const draft = await addSentInvoice(blue, danaId, 4_000, { state: 'draft' })
    const neighbor = await addCardCustomer(blue, 'Nina Neighbor')
    const theirs = await addSentInvoice(blue, neighbor.id, 4_000)
    expect((await payInvoice(draft.id)).status).toBe(404)
    expect((await payInvoice('not-an-id')).status).toBe(404)
    // Dana's login with the neighbor's invoice under her own id, and under the neighbor's.
    expect((await payInvoice(theirs.id)).status).toBe(404)
    expect((await payInvoice(theirs.id, 'customer@bluelagoon.test', neighbor.id)).status).toBe(404)
    const mine = await addSentInvoice(blue, danaId, 4_000)
    expect((await payInvoice(mine.id, 'owner@bluelagoon.test')).status).toBe(403)
    expect((await payInvoice(mine.id, 'owner@sunsetpools.test')).status).toBe(404)
  })

  it('says "Online payment is not set up" without Stripe, and asks to try later when Stripe fails', async () => {
    const invoice = await addSentInvoice(blue, danaId, 6_000)
    const sessions = fake.sessions.length
    for (const name of Object.keys(fake.env())) delete process.env[name]
    try {
      expect(await payInvoice(invoice.id)).toMatchObject({ status: 302, flash: true })
    } finally {
      Object.assign(process.env, fake.env())
    }
    process.env.STRIPE_SECRET_KEY = 'sk_test_refused_by_stripe'
    try {
      expect(await payInvoice(invoice.id)).toMatchObject({ status: 302, flash: true })
    } finally {
      Object.assign(process.env, fake.env())
    }
    expect(fake.sessions).toHaveLength(sessions)
    expect(ONLINE_PAYMENT_NOT_SET_UP).toBe('Online payment is not set up')
  })
})

describe('"Save card for automatic payments"', () => {
  it('sends the customer to Checkout in setup mode, with one Stripe customer kept for them', async () => {
    const first = await post(autopay, `/customer/${danaId}/autopay`, { customerId: danaId }, 'customer@bluelagoon.test')
    const second = await post(
      autopay,
      `/customer/${danaId}/autopay`,
      { customerId: danaId },
      'customer@bluelagoon.test',
    )
    const [setupA, setupB] = fake.sessions.slice(-2)
    expect(first).toEqual({ status: 303, location: setupA?.url, flash: false })
    expect(second).toEqual({ status: 303, location: setupB?.url, flash: false })
    const [dana] = await db()
      .select({ stripeCustomerId: customers.stripeCustomerId })
      .from(customers)
      .where(eq(customers.id, danaId))
    expect(dana?.stripeCustomerId).toMatch(/^cus_/)
    for (const session of [setupA, setupB]) {
      expect(session).toMatchObject({
        mode: 'setup',
        customer: dana?.stripeCustomerId,
        metadata: { customer_id: danaId, company_id: blue },
        success_url: `${TEST_ORIGIN}/customer/${danaId}?card=saved`,
      })
    }
    expect(fake.customers.filter((c) => c.metadata.customer_id === danaId)).toHaveLength(1)
    // Staff previewing the portal do not save cards for the customer.
    expect(
      (await post(autopay, `/customer/${danaId}/autopay`, { customerId: danaId }, 'office@bluelagoon.test')).status,
    ).toBe(403)
  })

  it('the office emails the customer a link to save a card; dispatchers may not, other companies get a 404', async () => {
    const path = `/app/customers/${danaId}/autopay`
    const sent = await post(officeAutopay, path, { customerId: danaId }, 'office@bluelagoon.test')
    expect(sent).toEqual({ status: 302, location: `/app/customers/${danaId}`, flash: true })
    const [email] = await db()
      .select({ to: emailOutbox.to, subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.customerId, danaId),
          eq(emailOutbox.subject, 'Blue Lagoon Pool Co.: save a card for automatic payments'),
        ),
      )
    expect(email?.to).toBe(danaEmail)
    expect(email?.text).toContain(fake.sessions.at(-1)?.url)
    expect((await post(officeAutopay, path, { customerId: danaId }, 'dispatch@bluelagoon.test')).status).toBe(403)
    expect((await post(officeAutopay, path, { customerId: danaId }, 'owner@sunsetpools.test')).status).toBe(404)
    const noEmail = await addCardCustomer(blue, 'Ned Noemail')
    const refused = await post(
      officeAutopay,
      `/app/customers/${noEmail.id}/autopay`,
      { customerId: noEmail.id },
      'office@bluelagoon.test',
    )
    expect(refused).toMatchObject({ status: 302, flash: true })
    expect(CARD_CHECKOUT_MESSAGES.noEmail).toContain('email')
  })
})

describe('the portal\'s "Automatic payments" section', () => {
  function render(autopay: AutopayState, preview = false) {
    const router = createMemoryRouter(
      [{ path: '/', element: createElement(AutopaySection, { customerId: danaId, autopay, preview }) }],
      { initialEntries: ['/'] },
    )
    return renderToString(createElement(RouterProvider, { router })).replaceAll('<!-- -->', '')
  }
  const button = (html: string) => html.match(/<button[^>]*>Save card for automatic payments<\/button>/)?.[0] ?? ''
  const off = { enabled: false, cardLabel: null, justSaved: false, notSetUpText: ONLINE_PAYMENT_NOT_SET_UP }

  it('keeps "Save card for automatic payments" disabled with "Online payment is not set up" without Stripe', () => {
    const html = render(off)
    expect(button(html)).toContain('disabled=""')
    expect(button(html)).toContain('aria-describedby="autopay-note"')
    expect(html).toContain('<p id="autopay-note" class="text-sm text-slate-600">Online payment is not set up</p>')
  })

  it('posts to the autopay route when Stripe is on, and names the saved card', () => {
    const html = render({ ...off, enabled: true, cardLabel: 'Visa ending 4242' })
    expect(html).toContain(`action="/customer/${danaId}/autopay"`)
    expect(button(html)).not.toBe('')
    expect(button(html)).not.toContain('disabled=""')
    expect(html).toContain('Invoices are charged to your <strong>Visa ending 4242</strong> when they are sent.')
    // Staff previewing see it disabled.
    expect(button(render({ ...off, enabled: true }, true))).toContain('disabled=""')
  })

  it('comes with the portal page, read with one query', async () => {
    await db().update(customers).set({ autopayCardLabel: 'Visa ending 4242' }).where(eq(customers.id, danaId))
    cookies['customer@bluelagoon.test'] ??= await signInAs('customer@bluelagoon.test')
    const data = await portalLoader({
      request: pageRequest(`/customer/${danaId}?card=saved`, cookies['customer@bluelagoon.test']),
      params: { customerId: danaId },
      context: {},
    } as never)
    expect(data.autopay).toEqual({
      enabled: true,
      cardLabel: 'Visa ending 4242',
      justSaved: true,
      notSetUpText: 'Online payment is not set up',
    })
  })
})

describe('"Pay invoice": a key is bound to its login and its invoice', () => {
  /** The portal's form posted with its key; the status, where it leads and the message of a refusal. */
  async function payWithKey(invoiceId: string, key: string, email = 'customer@bluelagoon.test', customerId = danaId) {
    cookies[email] ??= await signInAs(email)
    const request = new Request(`${TEST_ORIGIN}/customer/${customerId}/invoices/${invoiceId}/pay`, {
      method: 'POST',
      headers: { cookie: cookies[email], origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ idempotencyKey: key }),
    })
    const { returned, thrown } = await settle(pay(routeArgs(request, { customerId, invoiceId })))
    const answer = (thrown ?? returned) as unknown
    if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('Location') }
    const value = answer as { data?: unknown; init?: { status?: number } }
    return { status: value.init?.status ?? 200, message: value.data }
  }
  const sessionsFor = (invoiceId: string) =>
    fake.sessions.filter((session) => session.client_reference_id === invoiceId)

  it('sent again with its key, it opens the same session once; for another invoice the key is refused (422)', async () => {
    const [a, b] = [await addSentInvoice(blue, danaId, 6_000), await addSentInvoice(blue, danaId, 7_000)]
    const key = crypto.randomUUID()
    const first = await payWithKey(a.id, key)
    expect(first.status).toBe(303)
    expect(await payWithKey(a.id, key)).toEqual(first)
    expect(sessionsFor(a.id)).toHaveLength(1)
    expect(await payWithKey(b.id, key)).toEqual({ status: 422, message: KEY_REUSED })
    expect(sessionsFor(b.id)).toHaveLength(0)
  })

  it("another customer's login sending the key is refused (422), even for their own invoice", async () => {
    const nina = await addCardCustomer(blue, 'Nina Key')
    const ninaLogin = await createDemoLogin(db(), {
      email: 'nina-key@example.test',
      fullName: 'Nina Key',
      role: 'customer',
      companyId: blue,
    })
    await db().update(customers).set({ portalUserId: ninaLogin }).where(eq(customers.id, nina.id))
    const [danas, ninas] = [await addSentInvoice(blue, danaId, 6_000), await addSentInvoice(blue, nina.id, 6_000)]
    const key = crypto.randomUUID()
    expect((await payWithKey(danas.id, key)).status).toBe(303)
    expect(await payWithKey(ninas.id, key, 'nina-key@example.test', nina.id)).toEqual({
      status: 422,
      message: KEY_REUSED,
    })
    expect(sessionsFor(ninas.id)).toHaveLength(0)
    // Her own key works.
    expect((await payWithKey(ninas.id, crypto.randomUUID(), 'nina-key@example.test', nina.id)).status).toBe(303)
  })

  it('copies sent at once open one session and all lead to it; a failed start lets the key be tried again', async () => {
    const invoice = await addSentInvoice(blue, danaId, 8_000)
    const key = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: 4 }, () => payWithKey(invoice.id, key)))
    expect(sessionsFor(invoice.id)).toHaveLength(1)
    for (const answer of answers) expect(answer).toEqual({ status: 303, location: sessionsFor(invoice.id)[0]?.url })

    // Nothing owed yet to start: refused with the reason and nothing kept, so the same key works once it is.
    const later = await addSentInvoice(blue, danaId, 30)
    const retried = crypto.randomUUID()
    expect((await payWithKey(later.id, retried)).status).toBe(302)
    await db().update(invoices).set({ totalCents: 9_000, subtotalCents: 9_000 }).where(eq(invoices.id, later.id))
    expect((await payWithKey(later.id, retried)).status).toBe(303)
    expect(sessionsFor(later.id)).toHaveLength(1)
  })
})
