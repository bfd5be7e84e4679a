// "Void payment" on the office's invoice page (issue 31, item 2; docs/decisions/037-payment-voids.md): "a $100
// payment typed by mistake could not be undone". A void is a new record with its reason: the payment stays listed as
// Void, the invoice's paid sum, status, the balance and "Outstanding" come back to the cent; twice (or at once) is
// once; another company's payment is a 404; a card payment taken through Stripe is refunded, never voided.
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { VOID_PAYMENT_MESSAGES } from '~/billing/payment-messages'
import { payments, paymentVoids } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { balanceCentsOf } from '~/models/balance.server'
import { getBillingFigures } from '~/models/billing-figures.server'
import { recordPayment, voidPayment } from '~/models/payment.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { addBillingCompany, addCardCustomer, addSentInvoice } from '../../../tests/helpers/card-payments'
import { formRequest, pageRequest, routeArgs, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './invoice'

const today = () => localDateAt(new Date(), 'America/New_York')
type Page = Awaited<ReturnType<typeof loader>>

async function page(cookie: string, invoiceId: string, search = '') {
  return (await loader(routeArgs(pageRequest(`/app/invoices/${invoiceId}${search}`, cookie), { invoiceId }))) as Page
}

function sendVoidForm(cookie: string, invoiceId: string, fields: Record<string, string>) {
  const request = formRequest(`/app/invoices/${invoiceId}`, { intent: 'void-payment', ...fields }, cookie)
  return action(routeArgs(request, { invoiceId }))
}

/** The flash of a redirect back to the invoice, or the refusal's status and message. */
async function voidOn(cookie: string, invoiceId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(sendVoidForm(cookie, invoiceId, fields))
  if (returned) {
    const reply = returned as { data: { message: string }; init: { status: number } }
    return { status: reply.init.status, message: reply.data.message }
  }
  const response = thrown as Response
  // A 404 is thrown as React Router's data() (its status in `init`).
  const notRedirect = (thrown as { init?: { status?: number } })?.init?.status
  if (notRedirect !== undefined) return { status: notRedirect, message: null }
  expect(response.headers.get('Location')).toBe(`/app/invoices/${invoiceId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  const flash = (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
  return { status: 302, message: flash ?? null }
}

async function balance(companyId: string, customerId: string) {
  const [row] = await db()
    .select({ balance: balanceCentsOf(sql`${companyId}::uuid`, sql`${customerId}::uuid`) })
    .from(sql`(select 1) as one`)
  return row?.balance
}

async function pay(companyId: string, customerId: string, invoiceId: string | null, amountCents: number) {
  const paid = await recordPayment({
    companyId,
    customerId,
    invoiceId,
    amountCents,
    receivedOn: today(),
    method: 'check',
    reference: null,
    recordedBy: null,
  })
  if (!paid.ok) throw new Error(paid.message)
  return paid.paymentId
}

let blue: string
let owner: string
let other: string
let otherOwner: string

beforeAll(async () => {
  await useDemoData()
  blue = await addBillingCompany('Void Payment Pools')
  await createDemoLogin(db(), {
    email: 'owner@void-payment.test',
    fullName: 'Vera Void',
    role: 'owner',
    companyId: blue,
  })
  other = await addBillingCompany('Other Void Pools')
  await createDemoLogin(db(), {
    email: 'owner@other-void.test',
    fullName: 'Otto Other',
    role: 'owner',
    companyId: other,
  })
  owner = await signInAs('owner@void-payment.test')
  otherOwner = await signInAs('owner@other-void.test')
})

describe('"Void payment"', () => {
  it('a $100 payment typed by mistake: voided with a reason, listed as Void, the invoice and balance back to the cent', async () => {
    const customer = await addCardCustomer(blue, 'Mia Mistake')
    const invoice = await addSentInvoice(blue, customer.id, 9_345)
    const right = await pay(blue, customer.id, invoice.id, 9_345)
    const mistake = await pay(blue, customer.id, invoice.id, 10_000)
    expect(await balance(blue, customer.id)).toBe(-10_000)
    const figuresBefore = await getBillingFigures({ companyId: blue, today: today() })

    // The confirmation asks first, naming the payment.
    const asking = await page(owner, invoice.id, `?void-payment=${mistake}`)
    expect(asking.confirmVoidPayment).toMatchObject({ paymentId: mistake, amount: '$100.00' })
    expect(await voidOn(owner, invoice.id, { paymentId: mistake, reason: '  ' })).toEqual({
      status: 400,
      message: VOID_PAYMENT_MESSAGES.reason,
    })
    expect(await voidOn(owner, invoice.id, { paymentId: mistake, reason: 'Typed $100 for the $93.45 check' })).toEqual({
      status: 302,
      message: 'Payment of $100.00 voided.',
    })

    const after = await page(owner, invoice.id)
    expect(after.invoice).toMatchObject({ status: 'Paid', totals: { paid: '$93.45', amountDue: '$0.00' } })
    expect(after.payments.map((row) => [row.amount, row.voided, row.voidReason, row.voidable])).toEqual([
      ['$93.45', false, null, true],
      ['$100.00', true, 'Typed $100 for the $93.45 check', false],
    ])
    expect(await balance(blue, customer.id)).toBe(0)
    const figuresAfter = await getBillingFigures({ companyId: blue, today: today() })
    expect(figuresBefore.collectedThisMonthCents - figuresAfter.collectedThisMonthCents).toBe(10_000)

    // Voiding the right one too: the invoice owes all of it again (Paid → Past due), to the cent.
    expect(await voidOn(owner, invoice.id, { paymentId: right, reason: 'Check bounced' })).toMatchObject({
      status: 302,
    })
    expect((await page(owner, invoice.id)).invoice).toMatchObject({ totals: { paid: '$0.00', amountDue: '$93.45' } })
    expect((await page(owner, invoice.id)).invoice.status).not.toBe('Paid')
    expect(await balance(blue, customer.id)).toBe(9_345)
    // The payments themselves are untouched: corrections are new records.
    const rows = await db().select().from(payments).where(eq(payments.customerId, customer.id))
    expect(rows.map((row) => row.amountCents).sort()).toEqual([10_000, 9_345].sort())
  })

  it('twice — one after another or both at once — voids once', async () => {
    const customer = await addCardCustomer(blue, 'Dee Double')
    const invoice = await addSentInvoice(blue, customer.id, 5_000)
    const first = await pay(blue, customer.id, invoice.id, 2_000)
    const fields = { paymentId: first, reason: 'Entered twice' }
    expect(await voidOn(owner, invoice.id, fields)).toMatchObject({ status: 302 })
    expect(await voidOn(owner, invoice.id, fields)).toEqual({
      status: 409,
      message: VOID_PAYMENT_MESSAGES.alreadyVoid,
    })
    const second = await pay(blue, customer.id, invoice.id, 1_500)
    const both = await Promise.all(
      [1, 2].map(() =>
        voidPayment({ companyId: blue, invoiceId: invoice.id, paymentId: second, reason: 'Race', voidedBy: null }),
      ),
    )
    expect(both.filter((result) => result.ok)).toHaveLength(1)
    expect(await db().select().from(paymentVoids).where(eq(paymentVoids.paymentId, second))).toHaveLength(1)
    expect((await page(owner, invoice.id)).invoice.totals).toMatchObject({ paid: '$0.00', amountDue: '$50.00' })
    expect(await balance(blue, customer.id)).toBe(5_000)
  })

  it("another company's payment is a 404 and stays counted", async () => {
    const customer = await addCardCustomer(blue, 'Pat Private')
    const invoice = await addSentInvoice(blue, customer.id, 4_000)
    const paid = await pay(blue, customer.id, invoice.id, 4_000)
    const theirs = await addCardCustomer(other, 'Tom Theirs')
    const theirInvoice = await addSentInvoice(other, theirs.id, 4_000)
    // Through our invoice's page, or theirs naming our payment: not found either way.
    expect((await voidOn(otherOwner, invoice.id, { paymentId: paid, reason: 'x' })).status).toBe(404)
    expect((await voidOn(otherOwner, theirInvoice.id, { paymentId: paid, reason: 'x' })).status).toBe(404)
    expect((await voidOn(owner, invoice.id, { paymentId: 'not-an-id', reason: 'x' })).status).toBe(404)
    expect(await db().select().from(paymentVoids).where(eq(paymentVoids.paymentId, paid))).toHaveLength(0)
    expect(await balance(blue, customer.id)).toBe(0)
  })

  it('an account-credit payment voided: the credit is gone from the balance', async () => {
    const customer = await addCardCustomer(blue, 'Cal Credit')
    const credit = await pay(blue, customer.id, null, 2_500)
    expect(await balance(blue, customer.id)).toBe(-2_500)
    expect(
      await voidPayment({ companyId: blue, paymentId: credit, reason: 'Wrong customer', voidedBy: null }),
    ).toMatchObject({ ok: true, amountCents: 2_500 })
    expect(await balance(blue, customer.id)).toBe(0)
  })

  it('a card payment taken through Stripe is refunded, not voided', async () => {
    const customer = await addCardCustomer(blue, 'Cora Card')
    const invoice = await addSentInvoice(blue, customer.id, 3_000)
    const paid = await recordPayment({
      companyId: blue,
      customerId: customer.id,
      invoiceId: invoice.id,
      amountCents: 3_000,
      receivedOn: today(),
      method: 'card',
      reference: 'cs_test_void_card',
      recordedBy: null,
      stripePaymentIntentId: 'pi_test_void_card',
    })
    if (!paid.ok) throw new Error(paid.message)
    const listed = await page(owner, invoice.id, `?void-payment=${paid.paymentId}`)
    expect(listed.confirmVoidPayment).toBeNull()
    expect(listed.payments[0]).toMatchObject({ voidable: false, refund: { left: '$30.00' } })
    expect(await voidOn(owner, invoice.id, { paymentId: paid.paymentId, reason: 'No' })).toEqual({
      status: 409,
      message: VOID_PAYMENT_MESSAGES.card,
    })
    expect(await balance(blue, customer.id)).toBe(0)
  })
})
