// The customer record's billing (docs/product.md "Easy to get wrong", issue #21): the balance in the header, "Invoices"
// and "Payments" for the office (dispatchers read them), "Record payment" for owners and admins — to the oldest open
// invoice by default, to another open one, or as account credit. Technicians never open the record.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { invoices, payments } from '~/db/schema'
import { ACCOUNT_CREDIT, PAYMENT_FORM_MESSAGES } from '~/features/billing/payment-form'
import { createInvoices } from '~/models/invoice-create.server'
import { sendInvoices } from '~/models/invoice-send.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import {
  addBillableCustomer,
  addBillingCompany,
  addCompletedVisits,
  type BillableCustomer,
} from '../../../tests/helpers/billing'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './customer'

const today = () => localDateAt(new Date(), 'America/New_York')

type RecordPage = Awaited<ReturnType<typeof loader>>

async function record(cookie: string, customerId: string, search = '') {
  return (await loader(
    routeArgs(pageRequest(`/app/customers/${customerId}${search}`, cookie), { customerId }),
  )) as RecordPage
}

const post = (cookie: string, customerId: string, fields: Record<string, string>) =>
  formRequest(`/app/customers/${customerId}`, fields, cookie)

const payment = (fields: Record<string, string>) => ({
  intent: 'record-payment',
  receivedOn: today(),
  method: 'cash',
  idempotencyKey: crypto.randomUUID(),
  ...fields,
})

async function recorded(cookie: string, customerId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, customerId, fields), { customerId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/customers/${customerId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

let ledger: string
let owner: string
let sage: BillableCustomer
let other: BillableCustomer
let july: string
let august: string
let othersInvoice: string

beforeAll(async () => {
  await useDemoData()
  ledger = await addBillingCompany('Ledger Record Pools', 'owner@ledger-record.test')
  // Sage owes for July ($40) and August ($80): two open invoices.
  sage = await addBillableCustomer(ledger, { name: 'Sage Shore', month: '2026-07-01', completed: 1 })
  await addCompletedVisits(ledger, sage, '2026-08-01', 2)
  other = await addBillableCustomer(ledger, { name: 'Toby Tide', month: '2026-07-01', completed: 1 })
  for (const month of ['2026-07-01', '2026-08-01']) {
    await createInvoices({ companyId: ledger, period: monthOf(month) })
    await sendInvoices({ companyId: ledger, period: monthOf(month) })
  }
  const rows = await db()
    .select({ id: invoices.id, customerId: invoices.customerId, periodStart: invoices.periodStart })
    .from(invoices)
    .where(eq(invoices.companyId, ledger))
  const of = (customerId: string, start: string) =>
    rows.find((row) => row.customerId === customerId && row.periodStart === start)?.id ?? ''
  july = of(sage.id, '2026-07-01')
  august = of(sage.id, '2026-08-01')
  othersInvoice = of(other.id, '2026-07-01')
  owner = await signInAs('owner@ledger-record.test')
})

describe('the record’s billing, read', () => {
  it('shows a dispatcher the balance, invoices and payments, but nothing to record or open', async () => {
    const dispatcher = await signInAs('dispatch@bluelagoon.test')
    const dana = await findTestCustomer('Dana Whitfield')
    const page = await record(dispatcher, dana.id)
    expect(page.customer.balanceDue).toBe('$240.00')
    expect(page.billing).toMatchObject({
      canManage: false,
      invoiceCount: 1,
      invoices: [{ period: 'Opening balance', status: 'Past due', total: '$240.00', amountDue: '$240.00' }],
      payments: [],
      recordPayment: null,
    })
    const { thrown } = await settle(
      action(
        routeArgs(post(dispatcher, dana.id, payment({ appliesTo: ACCOUNT_CREDIT, amount: '10' })), {
          customerId: dana.id,
        }),
      ),
    )
    expect(statusOf(thrown)).toBe(403)
    expect(await db().select().from(payments).where(eq(payments.customerId, dana.id))).toEqual([])
  })

  it('turns technicians away from the record (and so from its billing)', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const { thrown } = await settle(record(await signInAs('tech@bluelagoon.test'), dana.id))
    expect(statusOf(thrown)).toBe(403)
  })

  it('shows the owner the invoices newest first and offers the oldest open one for "Record payment"', async () => {
    const page = await record(owner, sage.id, '?add=payment')
    expect(page.customer.balanceDue).toBe('$120.00')
    expect(page.open.add).toBe('payment')
    expect(page.billing?.invoices.map((invoice) => [invoice.period, invoice.status, invoice.amountDue])).toEqual([
      ['August 2026', 'Sent', '$80.00'],
      ['July 2026', 'Sent', '$40.00'],
    ])
    expect(page.billing?.recordPayment).toMatchObject({
      today: today(),
      openInvoices: [
        { id: july, label: 'INV-0001 (July 2026)', amountDue: '$40.00', dueDollars: '40.00' },
        { id: august, label: 'INV-0003 (August 2026)', amountDue: '$80.00', dueDollars: '80.00' },
      ],
    })
  })
})

describe('"Record payment" on the record', () => {
  it('pays the invoice chosen, and only that one', async () => {
    expect(await recorded(owner, sage.id, payment({ appliesTo: july, amount: '40' }))).toBe(
      'Payment of $40.00 recorded.',
    )
    const page = await record(owner, sage.id)
    expect(page.customer.balanceDue).toBe('$80.00')
    expect(page.billing?.invoices.map((invoice) => invoice.status)).toEqual(['Sent', 'Paid'])
    expect(page.billing?.payments).toMatchObject([
      { method: 'Cash', amount: '$40.00', invoice: { id: july, numberLabel: 'INV-0001' } },
    ])
    // Only August is left to pay.
    expect(page.billing?.recordPayment?.openInvoices.map((invoice) => invoice.id)).toEqual([august])
  })

  it('records money as account credit, which the balance counts', async () => {
    expect(
      await recorded(owner, sage.id, payment({ appliesTo: ACCOUNT_CREDIT, amount: '100', reference: 'Deposit' })),
    ).toBe('Payment of $100.00 recorded.')
    const page = await record(owner, sage.id)
    expect(page.customer.balanceDue).toBe('$20.00 credit')
    expect(page.billing?.payments[0]).toMatchObject({ amount: '$100.00', reference: 'Deposit', invoice: null })
  })

  it('refuses an invoice that is not this customer’s, or no choice at all, on "Apply to"', async () => {
    const theirs = (await action(
      routeArgs(post(owner, sage.id, payment({ appliesTo: othersInvoice, amount: '5' })), { customerId: sage.id }),
    )) as { data: { intent: string; result: { error: Record<string, string[]> } }; init: { status: number } }
    expect(theirs.init.status).toBe(404)
    expect(theirs.data).toMatchObject({
      intent: 'record-payment',
      result: { error: { appliesTo: ['Invoice not found.'] } },
    })
    const none = (await action(
      routeArgs(post(owner, sage.id, payment({ appliesTo: 'INV-0002', amount: '5' })), { customerId: sage.id }),
    )) as {
      data: { result: { error: Record<string, string[]> } }
      init: { status: number }
    }
    expect(none.init.status).toBe(400)
    expect(none.data.result.error.appliesTo).toEqual([PAYMENT_FORM_MESSAGES.appliesTo])
    expect(await db().select().from(payments).where(eq(payments.customerId, sage.id))).toHaveLength(2)
    expect(await db().select().from(payments).where(eq(payments.customerId, other.id))).toHaveLength(0)
  })

  it('is a 404 for another company’s customer, before anything is recorded', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const { thrown } = await settle(
      action(
        routeArgs(post(owner, dana.id, payment({ appliesTo: ACCOUNT_CREDIT, amount: '5' })), { customerId: dana.id }),
      ),
    )
    expect(statusOf(thrown)).toBe(404)
    expect(await db().select().from(payments).where(eq(payments.customerId, dana.id))).toEqual([])
  })
})
