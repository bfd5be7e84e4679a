// "Download PDF" (issue 31 item 4): the office's /app/invoices/:id.pdf and the portal's
// /customer/:customerId/invoices/:id.pdf answer a real PDF (header, pages, the invoice's number and company in its
// text) as a private download — and only to those who may see the invoice: another company's owner, another
// customer, or a customer asking for a draft gets a 404.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { companies, invoiceLines, invoices } from '~/db/schema'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { readPdf } from '../../../tests/helpers/pdf'
import { pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as portalLoader } from '../portal/invoice-pdf'
import { loader as officeLoader } from './invoice-pdf'

const cookies: Record<string, string> = {}
async function cookieOf(email: string) {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

async function office(email: string, invoiceId: string) {
  const request = pageRequest(`/app/invoices/${invoiceId}.pdf`, await cookieOf(email))
  return settle(officeLoader(routeArgs(request, { invoiceId })))
}

async function portal(email: string, customerId: string, invoiceId: string) {
  const request = pageRequest(`/customer/${customerId}/invoices/${invoiceId}.pdf`, await cookieOf(email))
  return settle(portalLoader(routeArgs(request, { customerId, invoiceId })))
}

let blue: string
let danaId: string
let marcusId: string
let sent: string
let draft: string
let marcusInvoice: string

async function addInvoice(customerId: string, number: number, state: 'draft' | 'sent', month = '2026-10') {
  const [row] = await db()
    .insert(invoices)
    .values({
      companyId: blue,
      customerId,
      number,
      state,
      periodStart: `${month}-01`,
      periodEnd: `${month}-28`,
      issuedOn: state === 'sent' ? '2026-11-01' : null,
      dueOn: state === 'sent' ? '2026-11-16' : null,
      subtotalCents: 12_375,
      taxCents: 897,
      totalCents: 13_272,
    })
    .returning({ id: invoices.id })
  await db()
    .insert(invoiceLines)
    .values([
      {
        companyId: blue,
        invoiceId: row?.id ?? '',
        position: 1,
        kind: 'visits',
        description: 'Weekly pool service',
        quantity: '3',
        unitCents: 4125,
        amountCents: 12_375,
      },
      // Tax is a line of its own, one per rate (docs/billing.md "Tax").
      {
        companyId: blue,
        invoiceId: row?.id ?? '',
        position: 2,
        kind: 'tax',
        description: 'Sales tax 7.25 %',
        quantity: '1',
        unitCents: 897,
        amountCents: 897,
        taxMilliPercent: 7250,
      },
    ])
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
  sent = await addInvoice(danaId, 9301, 'sent')
  draft = await addInvoice(danaId, 9302, 'draft', '2026-09')
  marcusInvoice = await addInvoice(marcusId, 9303, 'sent')
})

async function expectInvoicePdf(response: Response, number: number) {
  expect(response.status).toBe(200)
  expect(response.headers.get('Content-Type')).toBe('application/pdf')
  expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="invoice-${number}.pdf"`)
  expect(response.headers.get('Cache-Control')).toBe('private, no-store')
  const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()))
  expect(pdf.header).toBe('%PDF-')
  expect(pdf.pages).toBe(1)
  expect(pdf.text).toContain(`Invoice ${invoiceNumberLabel(number)}`)
  expect(pdf.text).toContain('Blue Lagoon Pool Co.')
  expect(pdf.text).toContain('Weekly pool service')
  expect(pdf.text).toContain('October 2026')
  expect(pdf.text).toContain('Sales tax 7.25 %')
  expect(pdf.text).toContain('$8.97')
  expect(pdf.text).toContain('$132.72')
  return pdf
}

describe('Download PDF in the office', () => {
  it('gives the owner the invoice as a PDF download, drafts included', async () => {
    const { returned } = await office('owner@bluelagoon.test', sent)
    const pdf = await expectInvoicePdf(returned as Response, 9301)
    expect(pdf.text).toContain('How to pay')
    const draftPdf = await office('owner@bluelagoon.test', draft)
    expect((draftPdf.returned as Response).status).toBe(200)
  })

  it("is a 404 for another company's owner and for an id that is no invoice; a technician is refused", async () => {
    expect(statusOf((await office('owner@sunsetpools.test', sent)).thrown)).toBe(404)
    expect(statusOf((await office('owner@bluelagoon.test', 'not-an-id')).thrown)).toBe(404)
    expect(statusOf((await office('tech@bluelagoon.test', sent)).thrown)).toBe(403)
  })
})

describe('Download PDF in the portal', () => {
  it('gives Dana her own sent invoice as a PDF', async () => {
    const { returned } = await portal('customer@bluelagoon.test', danaId, sent)
    await expectInvoicePdf(returned as Response, 9301)
  })

  it("is a 404 for her draft, for another customer's invoice", async () => {
    expect(statusOf((await portal('customer@bluelagoon.test', danaId, draft)).thrown)).toBe(404)
    expect(statusOf((await portal('customer@bluelagoon.test', danaId, marcusInvoice)).thrown)).toBe(404)
    expect(statusOf((await portal('customer@bluelagoon.test', marcusId, marcusInvoice)).thrown)).toBe(404)
    expect(statusOf((await portal('owner@sunsetpools.test', danaId, sent)).thrown)).toBe(404)
  })
})
