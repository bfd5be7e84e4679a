// /app/invoices/:invoiceId as the office uses it (issue #21): the document, "Send invoice", "Record payment" with
// everything a person can type wrong refused next to its field (and nothing lost or written), one payment per form
// however often it is sent, and "Void invoice" — for owners and admins of the invoice's company only.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { PAYMENT_MESSAGES } from '~/billing/payment-messages'
import { invoices, payments } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { PAYMENT_FORM_MESSAGES } from '~/features/billing/payment-form'
import { getCustomer } from '~/models/customer.server'
import { KEY_REUSED } from '~/models/idempotency.server'
import { createInvoices } from '~/models/invoice-create.server'
import { sendInvoices } from '~/models/invoice-send.server'
import { addDays, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { UNKNOWN_INTENT } from '~/utils/result'
import { addBillableCustomer, addBillingCompany, type BillableCustomer } from '../../../tests/helpers/billing'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './invoice'

const AUGUST = '2026-08-01'
const today = () => localDateAt(new Date(), 'America/New_York')

type Page = Awaited<ReturnType<typeof loader>>

async function page(cookie: string, invoiceId: string, search = '') {
  return (await loader(routeArgs(pageRequest(`/app/invoices/${invoiceId}${search}`, cookie), { invoiceId }))) as Page
}

const post = (cookie: string, invoiceId: string, fields: Record<string, string>) =>
  formRequest(`/app/invoices/${invoiceId}`, fields, cookie)

type Reply = {
  data: {
    intent: string
    message: string | null
    result?: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> }
  }
  init: { status: number }
}

/** An action that answered the form: its status, message, errors by field and the values it gives back. */
async function answered(cookie: string, invoiceId: string, fields: Record<string, string>) {
  const value = (await action(routeArgs(post(cookie, invoiceId, fields), { invoiceId }))) as Reply
  return {
    status: value.init.status,
    message: value.data.message,
    errors: value.data.result?.error ?? {},
    values: value.data.result?.initialValue ?? {},
  }
}

/** An action that redirected back to the invoice with a message. */
async function redirected(cookie: string, invoiceId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, invoiceId, fields), { invoiceId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/invoices/${invoiceId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

async function paymentsOf(invoiceId: string) {
  return db().select().from(payments).where(eq(payments.invoiceId, invoiceId))
}

let ledger: string
let owner: string
let quinn: BillableCustomer
let sentId: string
let draftId: string

beforeAll(async () => {
  await useDemoData()
  ledger = await addBillingCompany('Ledger Invoice Pools', 'owner@ledger-invoice.test')
  quinn = await addBillableCustomer(ledger, { name: 'Quinn Quay', month: AUGUST, completed: 2 })
  await addBillableCustomer(ledger, { name: 'Reese Reef', month: AUGUST, completed: 1 })
  await createInvoices({ companyId: ledger, period: monthOf(AUGUST) })
  const rows = await db()
    .select({ id: invoices.id, customerId: invoices.customerId })
    .from(invoices)
    .where(eq(invoices.companyId, ledger))
  sentId = rows.find((row) => row.customerId === quinn.id)?.id ?? ''
  draftId = rows.find((row) => row.customerId !== quinn.id)?.id ?? ''
  await sendInvoices({ companyId: ledger, invoiceIds: [sentId] })
  owner = await signInAs('owner@ledger-invoice.test')
})

describe('the invoice page', () => {
  it('shows the number, customer, period, status, dates, lines, totals and what is due', async () => {
    const data = await page(owner, sentId)
    expect(data.invoice).toMatchObject({
      numberLabel: 'INV-0001',
      status: 'Sent',
      customerName: 'Quinn Quay',
      period: 'August 2026',
      owes: true,
      lines: [
        {
          description: 'Pool service, 1 Quinn Quay Way — 2 visits',
          quantity: '2',
          unit: '$40.00',
          amount: '$80.00',
        },
      ],
      totals: {
        subtotal: '$80.00',
        taxes: [],
        total: '$80.00',
        creditApplied: null,
        paid: '$0.00',
        amountDue: '$80.00',
      },
    })
    expect(data.invoice.issuedOn).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    expect(data.customerId).toBe(quinn.id)
    expect(data.payments).toEqual([])
    expect(data.portalPath).toBe(`/customer/${quinn.id}/invoices/${sentId}`)
    // "Record payment" is a link that opens the form; the form's amount is empty, "Pay in full" fills $80.00.
    expect(data.recordPayment).toMatchObject({
      today: today(),
      open: false,
      fullAmount: '80.00',
      formKey: 'payments-0',
    })
    expect((await page(owner, sentId, '?record=payment')).recordPayment).toMatchObject({ open: true })
    expect(data.confirmVoid).toBe(false)
    expect((await page(owner, sentId, '?confirm=void')).confirmVoid).toBe(true)
  })

  it('shows a draft as not sent yet, with no payment to record', async () => {
    const data = await page(owner, draftId)
    expect(data.invoice).toMatchObject({ numberLabel: 'INV-0002', status: 'Draft', issuedOn: null, dueOn: null })
    expect(data.recordPayment).toBeNull()
    expect(data.portalPath).toBeNull()
  })

  it('is a 404 for another company’s owner and for ids that are none; a 403 card for everyone else', async () => {
    const sunset = await signInAs('owner@sunsetpools.test')
    for (const [cookie, id] of [
      [sunset, sentId],
      [owner, 'INV-0001'],
      [owner, crypto.randomUUID()],
    ] as const) {
      expect(statusOf((await settle(page(cookie, id))).thrown), id).toBe(404)
    }
    expect(
      statusOf(
        (await settle(action(routeArgs(post(sunset, sentId, { intent: 'void' }), { invoiceId: sentId })))).thrown,
      ),
    ).toBe(404)
    for (const email of ['dispatch@bluelagoon.test', 'tech@bluelagoon.test', 'customer@bluelagoon.test']) {
      const cookie = await signInAs(email)
      expect(statusOf((await settle(page(cookie, sentId))).thrown), email).toBe(403)
      expect(
        statusOf(
          (await settle(action(routeArgs(post(cookie, sentId, { intent: 'void' }), { invoiceId: sentId })))).thrown,
        ),
      ).toBe(403)
    }
    expect((await page(owner, sentId)).invoice.status).toBe('Sent')
  })
})

const good = () => ({
  intent: 'record-payment',
  amount: '$50.00',
  receivedOn: today(),
  method: 'check',
  reference: '1042',
  idempotencyKey: crypto.randomUUID(),
})

describe('"Record payment"', () => {
  it('refuses what is typed wrong next to its field, keeps what was typed, and records nothing', async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ amount: '' }, 'amount', PAYMENT_FORM_MESSAGES.amountMissing],
      [{ amount: '12.345' }, 'amount', PAYMENT_FORM_MESSAGES.amountFormat],
      [{ amount: '-5' }, 'amount', PAYMENT_FORM_MESSAGES.amountFormat],
      [{ amount: 'fifty' }, 'amount', PAYMENT_FORM_MESSAGES.amountFormat],
      [{ amount: '0.00' }, 'amount', PAYMENT_MESSAGES.amount],
      [{ receivedOn: addDays(today(), 1) }, 'receivedOn', PAYMENT_MESSAGES.futureDate],
      [{ receivedOn: '30/11/2026' }, 'receivedOn', PAYMENT_FORM_MESSAGES.dateFormat],
      [{ method: 'bitcoin' }, 'method', PAYMENT_FORM_MESSAGES.method],
      [{ reference: 'x'.repeat(101) }, 'reference', PAYMENT_FORM_MESSAGES.referenceTooLong],
    ]
    for (const [change, field, message] of cases) {
      const fields = { ...good(), ...change }
      const reply = await answered(owner, sentId, fields)
      expect(reply.status, JSON.stringify(change)).toBe(400)
      expect(reply.errors[field], JSON.stringify(change)).toEqual([message])
      // Nothing lost: the form comes back with what was typed.
      expect(reply.values).toMatchObject({
        reference: fields.reference,
        method: fields.method,
        ...(fields.amount ? { amount: fields.amount } : {}),
      })
    }
    expect(await paymentsOf(sentId)).toHaveLength(0)
  })

  it('records a check ("$1,234.50" style amounts), once per form however often it is sent', async () => {
    const fields = good()
    expect(await redirected(owner, sentId, fields)).toBe('Payment of $50.00 recorded.')
    // The same form again (a double click, a retry after a lost answer): the same answer, no second payment.
    expect(await redirected(owner, sentId, fields)).toBe('Payment of $50.00 recorded.')
    expect(await paymentsOf(sentId)).toHaveLength(1)
    const data = await page(owner, sentId)
    expect(data.invoice).toMatchObject({ status: 'Partially paid', totals: { paid: '$50.00', amountDue: '$30.00' } })
    expect(data.payments).toEqual([
      {
        id: expect.any(String),
        receivedOn: expect.any(String),
        method: 'Check',
        reference: '1042',
        amount: '$50.00',
        refunded: null,
        recordedBy: 'Ledger Invoice Pools Owner',
        flag: null,
        // A check is given back outside Pool Bud: no "Refund" on it (card payments only, decision 032).
        refund: null,
        voided: false,
        // Not a quote's deposit (docs/work-orders.md).
        deposit: false,
        voidReason: null,
        voidable: true,
      },
    ])
    // A new form for the next payment; "Pay in full" now fills what is still owed.
    expect(data.recordPayment).toMatchObject({ fullAmount: '30.00', formKey: 'payments-1' })
  })

  it('answers a reference already recorded for the customer on the Reference field, keeping the form', async () => {
    const reply = await answered(owner, sentId, { ...good(), amount: '1,234.50' })
    expect(reply.status).toBe(409)
    expect(reply.errors.reference).toEqual([PAYMENT_MESSAGES.duplicateReference('1042')])
    expect(reply.values).toMatchObject({ amount: '1,234.50', reference: '1042' })
    expect(await paymentsOf(sentId)).toHaveLength(1)
  })

  it('is refused on a draft (send it first)', async () => {
    const reply = await answered(owner, draftId, { ...good(), reference: 'draft-1' })
    expect(reply).toMatchObject({ status: 409, errors: { '': [PAYMENT_MESSAGES.draftInvoice] } })
    expect(await paymentsOf(draftId)).toHaveLength(0)
  })

  it('takes an overpayment, leaving the rest as credit', async () => {
    expect(await redirected(owner, sentId, { ...good(), amount: '1,234.50', reference: '1043' })).toBe(
      'Payment of $1,234.50 recorded.',
    )
    expect((await page(owner, sentId)).invoice).toMatchObject({ status: 'Paid', totals: { amountDue: '$0.00' } })
    expect((await getCustomer({ companyId: ledger, customerId: quinn.id }))?.balanceDue).toBe(8000 - 5000 - 123450)
  })
})

describe('"Send invoice" and "Void invoice"', () => {
  it('sends a draft once: "Sent INV-0002."', async () => {
    expect(await redirected(owner, draftId, { intent: 'send' })).toBe('Sent INV-0002.')
    expect((await page(owner, draftId)).invoice.status).toBe('Sent')
    const again = await answered(owner, draftId, { intent: 'send' })
    expect(again).toMatchObject({ status: 409, message: 'Only a draft can be sent: this invoice is Sent.' })
  })

  it('voids an invoice, keeping its number; its payments become credit; a second void is refused', async () => {
    expect(await redirected(owner, sentId, { intent: 'void' })).toBe('Voided INV-0001.')
    const data = await page(owner, sentId)
    expect(data.invoice).toMatchObject({ numberLabel: 'INV-0001', status: 'Void', owes: false })
    expect(data.recordPayment).toBeNull()
    expect(data.portalPath).toBeNull()
    // Nothing billed any more; everything paid is the customer's credit.
    expect((await getCustomer({ companyId: ledger, customerId: quinn.id }))?.balanceDue).toBe(-(5000 + 123450))
    expect(await answered(owner, sentId, { intent: 'void' })).toMatchObject({
      status: 409,
      message: 'This invoice is already void.',
    })
    const refused = await answered(owner, sentId, { ...good(), reference: 'after-void' })
    expect(refused).toMatchObject({ status: 409, errors: { '': [PAYMENT_MESSAGES.voidInvoice] } })
  })

  it('answers an unknown action with the 400 "Unknown action."', async () => {
    for (const fields of [{ intent: 'write-off' }, {}] as Record<string, string>[]) {
      const { thrown } = await settle(action(routeArgs(post(owner, sentId, fields), { invoiceId: sentId })))
      expect(thrown).toMatchObject({ data: UNKNOWN_INTENT, init: { status: 400 } })
    }
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(and(eq(invoices.companyId, ledger), eq(invoices.state, 'void')))
    expect(count?.n).toBe(1)
  })

  it('voids a draft that was never sent (was a 500): it stays, void and never issued', async () => {
    const sage = await addBillableCustomer(ledger, { name: 'Sage Shoal', month: AUGUST, completed: 1 })
    // (Quinn's voided invoice leaves their month open too: a new draft is made for them as well.)
    await createInvoices({ companyId: ledger, period: monthOf(AUGUST) })
    const [draft] = await db()
      .select({ id: invoices.id, number: invoices.number })
      .from(invoices)
      .where(and(eq(invoices.companyId, ledger), eq(invoices.customerId, sage.id)))
    const draftOf = draft?.id ?? ''
    expect(await redirected(owner, draftOf, { intent: 'void' })).toBe(`Voided INV-000${draft?.number}.`)
    const data = await page(owner, draftOf)
    expect(data.invoice).toMatchObject({ status: 'Void', issuedOn: null, dueOn: null, owes: false })
    expect(await answered(owner, draftOf, { intent: 'void' })).toMatchObject({
      status: 409,
      message: 'This invoice is already void.',
    })
  })
})

describe('"Record payment": a key is bound to its user, its invoice and what was typed', () => {
  let company: string
  let keyOwner: string
  let admin: string
  let first: string
  let second: string
  const typed = (amount: string, key: string) => ({ ...good(), amount, reference: '', idempotencyKey: key })
  const paidOn = async (invoiceId: string) => (await paymentsOf(invoiceId)).map((row) => row.amountCents)

  beforeAll(async () => {
    company = await addBillingCompany('Key Binding Pools', 'owner@key-binding.test')
    await createDemoLogin(db(), {
      email: 'admin@key-binding.test',
      fullName: 'Key Admin',
      role: 'admin',
      companyId: company,
    })
    const customers = [
      await addBillableCustomer(company, { name: 'Kim Key', month: AUGUST, completed: 2 }),
      await addBillableCustomer(company, { name: 'Lee Lock', month: AUGUST, completed: 2 }),
    ]
    await createInvoices({ companyId: company, period: monthOf(AUGUST) })
    const rows = await db()
      .select({ id: invoices.id, customerId: invoices.customerId })
      .from(invoices)
      .where(eq(invoices.companyId, company))
    first = rows.find((row) => row.customerId === customers[0]?.id)?.id ?? ''
    second = rows.find((row) => row.customerId === customers[1]?.id)?.id ?? ''
    await sendInvoices({ companyId: company, invoiceIds: [first, second] })
    keyOwner = await signInAs('owner@key-binding.test')
    admin = await signInAs('admin@key-binding.test')
  })

  it('$11 then $7 with the same key: the $7 is refused (422) with its amount kept, and the invoice keeps $11', async () => {
    const key = crypto.randomUUID()
    expect(await redirected(keyOwner, first, typed('11.00', key))).toBe('Payment of $11.00 recorded.')
    const refused = await answered(keyOwner, first, typed('7.00', key))
    expect(refused).toMatchObject({ status: 422, errors: { '': [KEY_REUSED] }, values: { amount: '7.00' } })
    // The very same form again is a true copy: the first answer, still one payment.
    expect(await redirected(keyOwner, first, typed('11.00', key))).toBe('Payment of $11.00 recorded.')
    expect(await paidOn(first)).toEqual([1100])
    expect((await page(keyOwner, first)).invoice).toMatchObject({ totals: { paid: '$11.00' } })
  })

  it('the same key for another invoice, or sent by another user, is refused (422) and records nothing', async () => {
    const key = crypto.randomUUID()
    const before = await paidOn(second)
    expect(await redirected(keyOwner, first, typed('5.00', key))).toBe('Payment of $5.00 recorded.')
    expect(await answered(keyOwner, second, typed('5.00', key))).toMatchObject({
      status: 422,
      errors: { '': [KEY_REUSED] },
    })
    expect(await answered(admin, first, typed('5.00', key))).toMatchObject({
      status: 422,
      errors: { '': [KEY_REUSED] },
    })
    expect(await paidOn(second)).toEqual(before)
    expect((await paidOn(first)).filter((cents) => cents === 500)).toHaveLength(1)
  })

  it('copies sent at once record one payment; a different amount racing with the same key is refused', async () => {
    const key = crypto.randomUUID()
    const before = (await paidOn(second)).length
    const copies = await Promise.all(
      Array.from({ length: 4 }, () =>
        settle(action(routeArgs(post(admin, second, typed('3.00', key)), { invoiceId: second }))),
      ),
    )
    for (const { thrown } of copies) expect((thrown as Response).status).toBe(302)
    expect(await paidOn(second)).toHaveLength(before + 1)

    const racing = crypto.randomUUID()
    const raced = await Promise.all([
      settle(action(routeArgs(post(admin, second, typed('4.00', racing)), { invoiceId: second }))),
      settle(action(routeArgs(post(admin, second, typed('9.00', racing)), { invoiceId: second }))),
    ])
    const statuses = raced.map(({ thrown, returned }) => (thrown as Response)?.status ?? statusOf(returned)).sort()
    expect(statuses).toEqual([302, 422])
    expect(await paidOn(second)).toHaveLength(before + 2)
  })
})
