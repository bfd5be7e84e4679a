// "Send invoices" and customers with no email (issue 31 item 4): the confirmation names exactly the customers whose
// drafts will go on paper ("1 customer has no email address: their invoices are ready to print"), the send counts
// say "Emailed 2 · To print 1", no email is queued for that customer, and their invoice says "Not emailed — print".
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, invoices } from '~/db/schema'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { addBillableCustomer, addBillingCompany } from '../../../tests/helpers/billing'
import { readPdf } from '../../../tests/helpers/pdf'
import { formRequest, pageRequest, routeArgs, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as printLoader } from '../resources/invoices-print'
import { action, loader } from './billing'
import { loader as invoiceLoader } from './invoice'

const AUGUST = '2026-08-01'

let company: string
let owner: string
let paperCustomer: string

beforeAll(async () => {
  await useDemoData()
  company = await addBillingCompany('Paper Trail Pools', 'owner@paper-trail.test')
  await addBillableCustomer(company, { name: 'Avery Inbox', month: AUGUST, completed: 1, email: 'avery@paper.test' })
  await addBillableCustomer(company, { name: 'Blake Inbox', month: AUGUST, completed: 2, email: 'blake@paper.test' })
  paperCustomer = (await addBillableCustomer(company, { name: 'Casey Paper', month: AUGUST, completed: 1 })).id
  owner = await signInAs('owner@paper-trail.test')
})

async function post(fields: Record<string, string>) {
  const { thrown } = await settle(action(routeArgs(formRequest('/app/billing', fields, owner))))
  const response = thrown as Response
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

describe('Send invoices to customers without email', () => {
  it('names them first, sends the rest by email, and marks theirs "Not emailed — print"', async () => {
    await post({ intent: 'create', month: '2026-08' })
    const confirm = (await loader(routeArgs(pageRequest('/app/billing?month=2026-08&confirm=send', owner)))) as {
      noEmail: { message: string; names: string[] } | null
    }
    expect(confirm.noEmail).toEqual({
      message: '1 customer has no email address: their invoices are ready to print',
      names: ['Casey Paper'],
    })

    expect(await post({ intent: 'send', month: '2026-08' })).toBe('Sent 3 invoices: Emailed 2 · To print 1.')
    const notices = await db()
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, company), eq(emailOutbox.noticeEvent, 'invoice-sent')))
    expect(notices.map((n) => n.to).sort()).toEqual(['avery@paper.test', 'blake@paper.test'])

    const rows = await db()
      .select({ id: invoices.id, customerId: invoices.customerId, delivery: invoices.delivery })
      .from(invoices)
      .where(eq(invoices.companyId, company))
    const paper = rows.find((row) => row.customerId === paperCustomer)
    expect(paper?.delivery).toBe('print')
    expect(rows.filter((row) => row.delivery === 'email')).toHaveLength(2)
    const invoicePage = (await invoiceLoader({
      request: pageRequest(`/app/invoices/${paper?.id}`, owner),
      params: { invoiceId: paper?.id ?? '' },
      context: {},
    } as never)) as { notEmailed: boolean }
    expect(invoicePage.notEmailed).toBe(true)
    const emailedPage = (await invoiceLoader({
      request: pageRequest(`/app/invoices/${rows.find((row) => row.delivery === 'email')?.id}`, owner),
      params: { invoiceId: rows.find((row) => row.delivery === 'email')?.id ?? '' },
      context: {},
    } as never)) as { notEmailed: boolean }
    expect(emailedPage.notEmailed).toBe(false)

    // The billing list says so too, on exactly that invoice.
    const list = (await loader(routeArgs(pageRequest('/app/billing?month=2026-08', owner)))) as {
      list: { rows: { id: string; notEmailed: boolean }[] }
    }
    const flagged = list.list.rows.filter((row) => row.notEmailed).map((row) => row.id)
    expect(flagged).toEqual([paper?.id])
  })

  it('prints exactly the invoices of customers with no email in one PDF', async () => {
    const response = (await printLoader({
      request: pageRequest('/app/billing/print.pdf?month=2026-08', owner),
      params: {},
      context: {},
    } as never)) as Response
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="invoices-to-print-2026-08.pdf"')
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()))
    expect(pdf.header).toBe('%PDF-')
    expect(pdf.pages).toBe(1)
    expect(pdf.text).toContain('Casey Paper')
    expect(pdf.text).toContain('Not emailed — print')
    expect(pdf.text).not.toContain('Avery Inbox')
    expect(pdf.text).not.toContain('Blake Inbox')
    const [paper] = await db()
      .select({ number: invoices.number })
      .from(invoices)
      .where(eq(invoices.customerId, paperCustomer))
    expect(pdf.text).toContain(`INV-${String(paper?.number).padStart(4, '0')}`)
  })
})
