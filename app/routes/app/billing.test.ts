// /app/billing as the office uses it (issue #21): the month's figures, "Create invoices" previewed without writing,
// "Create N invoices" once however often it is pressed, "Send invoices", the list with its filters — for owners and
// admins only, and never another company's customer.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, invoices } from '~/db/schema'
import { lastMonth, monthParam } from '~/features/billing/billing-month'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { addBillableCustomer, addBillingCompany } from '../../../tests/helpers/billing'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './billing'

const AUGUST = '2026-08-01'

type Page = Awaited<ReturnType<typeof loader>>

async function page(cookie: string, search = '') {
  return (await loader(routeArgs(pageRequest(`/app/billing${search}`, cookie)))) as Page
}

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/billing', fields, cookie)

/** Runs an action that redirects with a message: where it went and what the message says. */
async function redirected(cookie: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, fields))))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response.status).toBe(302)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  const { flash } = await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))
  return { location: response.headers.get('Location'), flash }
}

async function invoiceCount(companyId: string) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(eq(invoices.companyId, companyId))
  return row?.n ?? 0
}

let ledger: string
let owner: string
const names = ['Avery Ash', 'Blake Birch', 'Casey Cedar']

beforeAll(async () => {
  await useDemoData()
  ledger = await addBillingCompany('Ledger Office Pools', 'owner@ledger-office.test')
  // Three customers with August work; a fourth whose visits were all skipped has nothing to bill.
  for (const [i, name] of names.entries()) {
    await addBillableCustomer(ledger, { name, month: AUGUST, completed: i + 1, email: `${i}@ledger-office.test` })
  }
  await addBillableCustomer(ledger, { name: 'Dale Dogwood', month: AUGUST, completed: 0 })
  owner = await signInAs('owner@ledger-office.test')
})

describe('the billing page', () => {
  it('shows last month in the company’s calendar by default, with its figures and an empty list', async () => {
    const data = await page(owner)
    expect(data.month.value).toBe(monthParam(lastMonth(localDateAt(new Date(), 'America/New_York'))))
    expect(data.figures).toEqual({ drafts: 0, draftTotal: '$0.00', sent: 0, sentTotal: '$0.00' })
    expect(data.preview).toBeNull()
    expect(data.list).toMatchObject({ total: 0, rows: [] })
    // An empty month is the usual month.
    expect((await page(owner, '?month=')).month.value).toBe(data.month.value)
    expect((await page(owner, '?month=2026-08')).month).toMatchObject({
      label: 'August 2026',
      previous: { value: '2026-07', label: 'July 2026' },
      next: { value: '2026-09', label: 'September 2026' },
    })
  })

  it('is a 404 for a month that cannot be, never a 500 or another month', async () => {
    for (const month of ['2026-13', '2026-00', 'November', '9999-12', '1999-12', '2026-02-30']) {
      const { thrown } = await settle(loader(routeArgs(pageRequest(`/app/billing?month=${month}`, owner))))
      expect((thrown as { init?: { status?: number } } | undefined)?.init?.status, month).toBe(404)
    }
  })

  it('previews the month’s invoices ("N invoices, $X") and writes nothing', async () => {
    const data = await page(owner, '?month=2026-08&preview=1')
    expect(data.preview).toMatchObject({ count: 3, summary: '3 invoices, $240.00', alreadyInvoiced: 0 })
    expect(data.preview?.rows).toEqual([
      { customerId: expect.any(String), customerName: 'Avery Ash', lines: 1, total: '$40.00', creditApplied: null },
      { customerId: expect.any(String), customerName: 'Blake Birch', lines: 1, total: '$80.00', creditApplied: null },
      { customerId: expect.any(String), customerName: 'Casey Cedar', lines: 1, total: '$120.00', creditApplied: null },
    ])
    expect(await invoiceCount(ledger)).toBe(0)
  })

  it('refuses a create or send that does not name its month, and an unknown action', async () => {
    const forms: Record<string, string>[] = [
      { intent: 'create' },
      { intent: 'send', month: 'August' },
      { intent: 'explode' },
    ]
    for (const fields of forms) {
      const result = (await action(routeArgs(post(owner, fields)))) as {
        data: { message: string }
        init: { status: number }
      }
      expect(result.init.status).toBe(400)
      expect(result.data.message).toMatch(/^(Choose a month\.|Unknown action\.)$/)
    }
    expect(await invoiceCount(ledger)).toBe(0)
  })

  it('creates the month’s drafts once: "Created 3 invoices.", then nothing more however often it is pressed', async () => {
    const [first, second] = await Promise.all([
      redirected(owner, { intent: 'create', month: '2026-08' }),
      redirected(owner, { intent: 'create', month: '2026-08' }),
    ])
    expect(first.location).toBe('/app/billing?month=2026-08')
    const messages = [first.flash?.text, second.flash?.text].sort()
    expect(messages).toEqual([
      'Created 3 invoices.',
      'No new invoices for August 2026: every customer with billable work has one.',
    ])
    expect(await invoiceCount(ledger)).toBe(3)
    const data = await page(owner, '?month=2026-08')
    expect(data.figures).toEqual({ drafts: 3, draftTotal: '$240.00', sent: 0, sentTotal: '$0.00' })
    expect(data.list.rows.map((row) => [row.numberLabel, row.customerName, row.status, row.period])).toEqual([
      ['INV-0003', 'Casey Cedar', 'Draft', 'August 2026'],
      ['INV-0002', 'Blake Birch', 'Draft', 'August 2026'],
      ['INV-0001', 'Avery Ash', 'Draft', 'August 2026'],
    ])
    // A draft owes nothing yet: its "Due" column says so rather than "$0.00", which would read as settled.
    expect(data.list.rows.map((row) => row.amountDue)).toEqual(['Not sent', 'Not sent', 'Not sent'])
    // The preview now has nothing left to create, and says why.
    expect((await page(owner, '?month=2026-08&preview=1')).preview).toMatchObject({ count: 0, alreadyInvoiced: 3 })
  })

  it('asks "Send N invoices?" only when there are drafts, then sends them with their emails: "Sent 3 invoices: Emailed 3 · To print 0."', async () => {
    expect((await page(owner, '?month=2026-08&confirm=send')).confirmSend).toBe(true)
    expect((await page(owner, '?month=2026-07&confirm=send')).confirmSend).toBe(false)
    const sent = await redirected(owner, { intent: 'send', month: '2026-08' })
    expect(sent).toMatchObject({
      location: '/app/billing?month=2026-08',
      flash: { text: 'Sent 3 invoices: Emailed 3 · To print 0.' },
    })
    const again = await redirected(owner, { intent: 'send', month: '2026-08' })
    expect(again.flash).toMatchObject({ tone: 'info', text: 'No draft invoices to send for August 2026.' })
    const notices = await db()
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, ledger), eq(emailOutbox.noticeEvent, 'invoice-sent')))
    expect(notices).toHaveLength(3)
    const data = await page(owner, '?month=2026-08')
    expect(data.figures).toMatchObject({ drafts: 0, sent: 3, sentTotal: '$240.00' })
    expect(data.confirmSend).toBe(false)
  })

  it('filters the list by status and by customer; another company’s customer is a 404', async () => {
    expect((await page(owner, '?status=sent')).list.total).toBe(3)
    expect((await page(owner, '?status=draft')).list.total).toBe(0)
    expect((await page(owner, '?status=past-due')).list.total).toBe(0)
    // An unknown status shows everything.
    expect((await page(owner, '?status=nonsense')).filter.status).toBe('all')
    const blake = await findTestCustomer('Blake Birch', ledger)
    const theirs = await page(owner, `?customer=${blake.id}`)
    expect(theirs.filter.customer).toEqual({ id: blake.id, name: 'Blake Birch' })
    expect(theirs.list.rows.map((row) => row.customerName)).toEqual(['Blake Birch'])
    const dana = await findTestCustomer('Dana Whitfield')
    for (const customer of [dana.id, 'not-an-id']) {
      const { thrown } = await settle(page(owner, `?customer=${customer}`))
      expect(statusOf(thrown), customer).toBe(404)
    }
  })

  it('shows the last page for a page past the end', async () => {
    const data = await page(owner, '?page=40')
    expect(data.list).toMatchObject({ page: 1, pageCount: 1, total: 3 })
  })
})

describe('who may use it', () => {
  it('is for owners and admins: dispatchers and technicians get the card, customers and the platform admin too', async () => {
    expect((await page(await signInAs('office@bluelagoon.test'))).month.value).toMatch(/^\d{4}-\d{2}$/)
    for (const email of [
      'dispatch@bluelagoon.test',
      'tech@bluelagoon.test',
      'customer@bluelagoon.test',
      'admin@poolbud.test',
    ]) {
      const cookie = await signInAs(email)
      expect(statusOf((await settle(page(cookie))).thrown), email).toBe(403)
      expect(
        statusOf((await settle(action(routeArgs(post(cookie, { intent: 'create', month: '2026-08' }))))).thrown),
      ).toBe(403)
    }
    expect(await invoiceCount(ledger)).toBe(3)
  })

  it('shows each company only its own invoices', async () => {
    const sunset = await page(await signInAs('owner@sunsetpools.test'), '?status=sent')
    expect(sunset.list.rows.some((row) => names.includes(row.customerName))).toBe(false)
  })
})
