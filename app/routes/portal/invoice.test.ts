// An invoice in the customer's portal (docs/billing.md, issue #21): the customer's own sent invoices only (never a
// draft, never another customer's), no staff-only fields, and "Pay invoice" — disabled with "Online payment is not
// set up" without Stripe, a form posting to the invoice's /pay route with it.
import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { companies, invoiceLines, invoices } from '~/db/schema'
import { recordPayment } from '~/models/payment.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import PortalInvoice, { loader } from './invoice'

type Page = Awaited<ReturnType<typeof loader>>

const cookies: Record<string, string> = {}
async function cookieOf(email: string) {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

async function invoicePage(email: string, customerId: string, invoiceId: string) {
  const request = pageRequest(`/customer/${customerId}/invoices/${invoiceId}`, await cookieOf(email))
  return (await loader(routeArgs(request, { customerId, invoiceId }))) as Page
}

/** The page's HTML for `loaderData`, rendered inside a router as React Router would. */
function render(loaderData: Page) {
  const router = createMemoryRouter(
    [{ path: '*', element: createElement(PortalInvoice, { loaderData, params: {}, matches: [] } as never) }],
    { initialEntries: ['/customer/x/invoices/y'] },
  )
  return renderToString(createElement(RouterProvider, { router })).replaceAll('<!-- -->', '')
}

let blue: string
let danaId: string
let marcusId: string
let opening: string
let draft: string
let marcusInvoice: string

async function addInvoice(customerId: string, number: number, state: 'draft' | 'sent') {
  const [row] = await db()
    .insert(invoices)
    .values({
      companyId: blue,
      customerId,
      number,
      state,
      issuedOn: state === 'sent' ? '2026-10-01' : null,
      dueOn: state === 'sent' ? '2026-10-16' : null,
      subtotalCents: 5000,
      totalCents: 5000,
    })
    .returning({ id: invoices.id })
  await db()
    .insert(invoiceLines)
    .values({
      companyId: blue,
      invoiceId: row?.id ?? '',
      position: 1,
      kind: 'visits',
      description: 'Pool service, extra visit',
      quantity: '1',
      unitCents: 5000,
      amountCents: 5000,
    })
  return row?.id ?? ''
}

beforeAll(async () => {
  await useDemoData()
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  danaId = (await findTestCustomer('Dana Whitfield', blue)).id
  marcusId = (await findTestCustomer('Marcus Bell', blue)).id
  const [row] = await db().select({ id: invoices.id }).from(invoices).where(eq(invoices.customerId, danaId))
  opening = row?.id ?? ''
  draft = await addInvoice(danaId, 9201, 'draft')
  marcusInvoice = await addInvoice(marcusId, 9202, 'sent')
  // Part of the opening balance was paid by check, recorded (and flagged) by the office.
  const paid = await recordPayment({
    companyId: blue,
    customerId: danaId,
    invoiceId: opening,
    amountCents: 4000,
    receivedOn: localDateAt(new Date(), 'America/New_York'),
    method: 'check',
    reference: '2211',
    recordedBy: null,
    flag: 'Looked at by the office',
  })
  expect(paid.ok).toBe(true)
})

afterEach(() => {
  delete process.env.STRIPE_SECRET_KEY
  delete process.env.STRIPE_WEBHOOK_SECRET
})

describe('the portal invoice page', () => {
  it('shows Dana her invoice, its payment and a disabled "Pay invoice" with "Online payment is not set up"', async () => {
    const data = await invoicePage('customer@bluelagoon.test', danaId, opening)
    expect(data.preview).toBe(false)
    expect(data.companyName).toBe('Blue Lagoon Pool Co.')
    expect(data.invoice).toMatchObject({
      status: 'Past due',
      period: null,
      lines: [{ description: 'Opening balance', amount: '$240.00' }],
      totals: { total: '$240.00', paid: '$40.00', amountDue: '$200.00' },
    })
    // What the office keeps for itself (who recorded it, its flags) never reaches the portal.
    expect(data.payments).toEqual([
      {
        id: expect.any(String),
        receivedOn: expect.any(String),
        method: 'Check',
        reference: '2211',
        amount: '$40.00',
        refunded: null,
        voided: false,
        deposit: false,
      },
    ])
    expect(JSON.stringify(data)).not.toContain('Looked at by the office')
    expect(data.pay).toEqual({
      enabled: false,
      action: `/customer/${danaId}/invoices/${opening}/pay`,
      notSetUp: 'Online payment is not set up',
      // The form's key (decision 031), fresh with each page.
      idempotencyKey: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    })
    const html = render(data)
    expect(html).toMatch(/<button[^>]*type="button"[^>]*disabled=""[^>]*>Pay invoice<\/button>/)
    expect(html).toContain('Online payment is not set up')
    expect(html).not.toContain('/pay"')
    expect(html).toMatch(/<h1[^>]*>Invoice INV-\d{4}<\/h1>/)
  })

  it('posts "Pay invoice" to the invoice’s /pay route when Stripe is set up', async () => {
    process.env.STRIPE_SECRET_KEY = 'sk_test_portal'
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_portal'
    const data = await invoicePage('customer@bluelagoon.test', danaId, opening)
    expect(data.pay?.enabled).toBe(true)
    const html = render(data)
    expect(html).toContain(`<form action="/customer/${danaId}/invoices/${opening}/pay" method="post">`)
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Pay invoice<\/button>/)
    expect(html).not.toContain('Online payment is not set up')
  })

  it('lets the office preview it, marked as a preview, with nothing to press', async () => {
    process.env.STRIPE_SECRET_KEY = 'sk_test_portal'
    process.env.STRIPE_WEBHOOK_SECRET = 'whsec_portal'
    for (const email of ['owner@bluelagoon.test', 'office@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      const data = await invoicePage(email, danaId, opening)
      expect(data.preview, email).toBe(true)
      const html = render(data)
      expect(html).toContain('Staff preview.')
      expect(html).toContain('Only the customer can pay from their portal.')
      expect(html).not.toContain('/pay"')
    }
  })

  it('is a 404 for a draft, another customer’s invoice, another company and technicians', async () => {
    const cases: Array<[string, string, string]> = [
      ['customer@bluelagoon.test', danaId, draft],
      ['owner@bluelagoon.test', danaId, draft],
      // Marcus's invoice through Dana's portal, by Dana and by the office.
      ['customer@bluelagoon.test', danaId, marcusInvoice],
      ['owner@bluelagoon.test', danaId, marcusInvoice],
      // Dana cannot open Marcus's portal at all.
      ['customer@bluelagoon.test', marcusId, marcusInvoice],
      ['owner@sunsetpools.test', danaId, opening],
      ['customer@sunsetpools.test', danaId, opening],
      ['tech@bluelagoon.test', danaId, opening],
      ['customer@bluelagoon.test', danaId, 'INV-0001'],
    ]
    for (const [email, customerId, invoiceId] of cases) {
      const { thrown } = await settle(invoicePage(email, customerId, invoiceId))
      expect(statusOf(thrown), `${email} ${customerId === danaId ? 'Dana' : 'Marcus'} ${invoiceId}`).toBe(404)
    }
  })

  it('has no "Pay invoice" once nothing is owed', async () => {
    const settled = await recordPayment({
      companyId: blue,
      customerId: marcusId,
      invoiceId: marcusInvoice,
      amountCents: 5000,
      receivedOn: '2026-10-05',
      method: 'cash',
      reference: null,
      recordedBy: null,
    })
    expect(settled.ok).toBe(true)
    const data = await invoicePage('owner@bluelagoon.test', marcusId, marcusInvoice)
    expect(data.invoice.status).toBe('Paid')
    expect(data.pay).toBeNull()
    expect(render(data)).not.toContain('Pay invoice')
  })
})
