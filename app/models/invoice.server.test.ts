// Invoices against the database (issue #21): a month's drafts previewed without writing, created once however often
// and however concurrently, numbered without gaps; sent with their notice; paid, overpaid into a credit that the
// next month's invoice uses; voided with its number kept. The arithmetic itself is golden-tested in
// app/billing/invoice-draft.test.ts.
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { monthOf } from '~/billing/invoice-draft'
import { companies, emailOutbox, invoiceLines, invoices, payments, servicePlans, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { balanceCentsOf } from './balance.server'
import { getInvoice, voidInvoice } from './invoice.server'
import { createInvoices, previewInvoices } from './invoice-create.server'
import { listInvoices } from './invoice-list.server'
import { sendInvoice, sendInvoices } from './invoice-send.server'
import { PAYMENT_MESSAGES, recordPayment } from './payment.server'

const NOVEMBER = monthOf('2026-11-01')
const DECEMBER = monthOf('2026-12-01')
const NOW = new Date('2026-12-01T15:00:00Z')

let companyId: string
let customerIds: string[] = []

async function newCompany(name: string) {
  const [company] = await db().insert(companies).values({ name, timezone: 'America/New_York' }).returning()
  if (!company) throw new Error('no company')
  return company.id
}

/** A customer with a weekly Monday plan at $40 a visit and `completed` of November's visits done. */
async function customerWithVisits(company: string, n: number, completed: number, email: string | null = null) {
  const customer = await addTestCustomer(company, {
    customerName: `Invoice Test ${n}`,
    address: `${n} Ledger St, Tampa, FL 33606`,
    email,
  })
  const [plan] = await db()
    .insert(servicePlans)
    .values({
      companyId: company,
      locationId: customer.locationId,
      weekday: 1,
      startsOn: '2026-09-07',
      rateCents: 4000,
      rateType: 'per-visit',
    })
    .returning({ id: servicePlans.id })
  // November 2026's Mondays: the 2nd, 9th, 16th, 23rd and 30th.
  const mondays = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']
  await db()
    .insert(visits)
    .values(
      mondays.map((date, i) => ({
        companyId: company,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        planId: plan?.id ?? '',
        occurrenceDate: date,
        scheduledAt: new Date(`${date}T14:00:00Z`),
        completedAt: i < completed ? new Date(`${date}T15:00:00Z`) : null,
      })),
    )
  return customer
}

async function balanceOf(customerId: string) {
  const [row] = await db()
    .select({ balance: balanceCentsOf(sql`${companyId}::uuid`, sql`${customerId}::uuid`) })
    .from(sql`(select 1) one`)
  return row?.balance ?? 0
}

beforeAll(async () => {
  companyId = await newCompany('Ledger Pools')
  customerIds = []
  for (let n = 1; n <= 6; n += 1) {
    customerIds.push((await customerWithVisits(companyId, n, n === 6 ? 0 : 4, `ledger${n}@example.com`)).id)
  }
})

describe('creating a month of invoices', () => {
  it('previews the drafts without writing anything', async () => {
    const preview = await previewInvoices({ companyId, period: NOVEMBER })
    // The sixth customer had no completed visit: nothing to bill.
    expect(preview.count).toBe(5)
    expect(preview.totalCents).toBe(5 * 4 * 4000)
    const [written] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(eq(invoices.companyId, companyId))
    expect(written?.n).toBe(0)
  })

  it('creates each invoice once when two requests run at once, and again later', async () => {
    const [first, second] = await Promise.all([
      createInvoices({ companyId, period: NOVEMBER }),
      createInvoices({ companyId, period: NOVEMBER }),
    ])
    expect(first.created + second.created).toBe(5)
    const again = await createInvoices({ companyId, period: NOVEMBER })
    expect(again.created).toBe(0)
    const rows = await db()
      .select({ number: invoices.number })
      .from(invoices)
      .where(eq(invoices.companyId, companyId))
      .orderBy(invoices.number)
    expect(rows.map((row) => row.number)).toEqual([1, 2, 3, 4, 5])
    const [company] = await db().select().from(companies).where(eq(companies.id, companyId))
    expect(company?.nextInvoiceNumber).toBe(6)
    const lines = await db()
      .select({ description: invoiceLines.description, amount: invoiceLines.amountCents })
      .from(invoiceLines)
      .where(eq(invoiceLines.companyId, companyId))
    expect(lines).toHaveLength(5)
    expect(lines[0]).toEqual({ description: 'Pool service, 1 Ledger St — 4 visits', amount: 16000 })
  })

  it('sends the drafts with an "Invoice sent" email each, once', async () => {
    const sent = await sendInvoices({ companyId, period: NOVEMBER, now: NOW })
    expect(sent.sent).toBe(5)
    expect((await sendInvoices({ companyId, period: NOVEMBER, now: NOW })).sent).toBe(0)
    const notices = await db()
      .select({ to: emailOutbox.to, subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, 'invoice-sent')))
    expect(notices).toHaveLength(5)
    expect(notices[0]?.subject).toMatch(/^Ledger Pools: invoice INV-000\d for November 2026$/)
    const page = await listInvoices({ companyId, today: '2026-12-01', status: 'Sent' })
    expect(page.total).toBe(5)
    expect(page.invoices[0]?.dueOn).toBe('2026-12-16')
  })
})

describe('payments', () => {
  it('refuses zero, a future date and a repeated reference, writing nothing', async () => {
    const [invoice] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.customerId, customerIds[0] ?? ''))
    const base = {
      companyId,
      customerId: customerIds[0] ?? '',
      invoiceId: invoice?.id ?? '',
      amountCents: 16000,
      receivedOn: '2026-12-01',
      method: 'check' as const,
      reference: '1001',
      recordedBy: null,
      now: NOW,
    }
    expect(await recordPayment({ ...base, amountCents: 0 })).toMatchObject({
      ok: false,
      message: PAYMENT_MESSAGES.amount,
      field: 'amount',
    })
    expect(await recordPayment({ ...base, receivedOn: '2026-12-02' })).toMatchObject({
      ok: false,
      message: PAYMENT_MESSAGES.futureDate,
      field: 'receivedOn',
    })
    const results = await Promise.all([recordPayment(base), recordPayment(base)])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect(results.find((r) => !r.ok)).toMatchObject({ code: 'conflict', field: 'reference' })
    const detail = await getInvoice({ companyId, invoiceId: invoice?.id ?? '', today: '2026-12-01' })
    expect(detail?.status).toBe('Paid')
    expect(detail?.paidCents).toBe(16000)
    expect(await balanceOf(customerIds[0] ?? '')).toBe(0)
  })

  it('an overpayment is a credit the next invoice uses', async () => {
    const customerId = customerIds[1] ?? ''
    const [invoice] = await db().select().from(invoices).where(eq(invoices.customerId, customerId))
    const paid = await recordPayment({
      companyId,
      customerId,
      invoiceId: invoice?.id ?? '',
      amountCents: 20000,
      receivedOn: '2026-12-01',
      method: 'cash',
      reference: null,
      recordedBy: null,
      now: NOW,
    })
    expect(paid.ok).toBe(true)
    expect(await balanceOf(customerId)).toBe(-4000)
    // December: one visit done on the 7th.
    const [visit] = await db()
      .select()
      .from(visits)
      .where(and(eq(visits.customerId, customerId), eq(visits.occurrenceDate, '2026-11-02')))
    if (!visit) throw new Error('no visit')
    const { id: _id, createdAt: _createdAt, ...copy } = visit
    await db()
      .insert(visits)
      .values({
        ...copy,
        occurrenceDate: '2026-12-07',
        scheduledAt: new Date('2026-12-07T14:00:00Z'),
        completedAt: new Date('2026-12-07T15:00:00Z'),
      })
    const preview = await previewInvoices({ companyId, period: DECEMBER })
    const mine = preview.invoices.find((row) => row.customerId === customerId)
    expect(mine?.draft.totalCents).toBe(4000)
    expect(mine?.draft.creditAppliedCents).toBe(4000)
    expect(mine?.draft.amountDueCents).toBe(0)
  })

  it('a void invoice keeps its number and stops counting; its payments become credit', async () => {
    const customerId = customerIds[2] ?? ''
    const [invoice] = await db().select().from(invoices).where(eq(invoices.customerId, customerId))
    await recordPayment({
      companyId,
      customerId,
      invoiceId: invoice?.id ?? '',
      amountCents: 5000,
      receivedOn: '2026-12-01',
      method: 'check',
      reference: '2002',
      recordedBy: null,
      now: NOW,
    })
    expect(await balanceOf(customerId)).toBe(16000 - 5000)
    expect(await voidInvoice({ companyId, invoiceId: invoice?.id ?? '' })).toEqual({ ok: true })
    expect(await voidInvoice({ companyId, invoiceId: invoice?.id ?? '' })).toMatchObject({ code: 'conflict' })
    const detail = await getInvoice({ companyId, invoiceId: invoice?.id ?? '', today: '2026-12-01' })
    expect(detail).toMatchObject({ status: 'Void', numberLabel: `INV-000${invoice?.number}` })
    expect(await balanceOf(customerId)).toBe(-5000)
    // A payment against a void invoice is refused.
    const refused = await recordPayment({
      companyId,
      customerId,
      invoiceId: invoice?.id ?? '',
      amountCents: 100,
      receivedOn: '2026-12-01',
      method: 'cash',
      reference: null,
      recordedBy: null,
      now: NOW,
    })
    expect(refused).toMatchObject({ ok: false, message: PAYMENT_MESSAGES.voidInvoice })
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(payments)
      .where(eq(payments.customerId, customerId))
    expect(count?.n).toBe(1)
  })

  it('voiding a draft keeps it, numbered and never issued, and the month can be invoiced again', async () => {
    // A company of its own: its one draft is voided before it was ever sent.
    const company = await newCompany('Void Draft Pools')
    const customer = await customerWithVisits(company, 91, 2)
    expect((await createInvoices({ companyId: company, period: NOVEMBER })).created).toBe(1)
    const [draft] = await db()
      .select({ id: invoices.id, number: invoices.number, state: invoices.state })
      .from(invoices)
      .where(eq(invoices.companyId, company))
    expect(draft?.state).toBe('draft')
    const invoiceId = draft?.id ?? ''
    expect(await voidInvoice({ companyId: company, invoiceId, now: NOW })).toEqual({ ok: true })
    expect(await voidInvoice({ companyId: company, invoiceId, now: NOW })).toMatchObject({ code: 'conflict' })
    const detail = await getInvoice({ companyId: company, invoiceId, today: '2026-12-01' })
    expect(detail).toMatchObject({ status: 'Void', issuedOn: null, dueOn: null })
    const [row] = await db()
      .select({ state: invoices.state, voidedAt: invoices.voidedAt, number: invoices.number })
      .from(invoices)
      .where(eq(invoices.id, invoiceId))
    expect(row).toEqual({ state: 'void', voidedAt: NOW, number: draft?.number })
    // The void draft no longer holds the customer's month: a new invoice is made, with the next number.
    expect((await createInvoices({ companyId: company, period: NOVEMBER })).created).toBe(1)
    const live = await db()
      .select({ number: invoices.number, state: invoices.state })
      .from(invoices)
      .where(and(eq(invoices.companyId, company), eq(invoices.customerId, customer.id)))
      .orderBy(invoices.number)
    expect(live).toEqual([
      { number: draft?.number, state: 'void' },
      { number: (draft?.number ?? 0) + 1, state: 'draft' },
    ])
    // A void invoice is never sent.
    expect(await sendInvoice({ companyId: company, invoiceId, now: NOW })).toMatchObject({ code: 'conflict' })
  })

  it("another company's invoice is not found", async () => {
    const other = await newCompany('Other Pools')
    const [invoice] = await db().select().from(invoices).where(eq(invoices.companyId, companyId)).limit(1)
    expect(await getInvoice({ companyId: other, invoiceId: invoice?.id ?? '', today: '2026-12-01' })).toBeNull()
    expect(await voidInvoice({ companyId: other, invoiceId: invoice?.id ?? '' })).toMatchObject({ code: 'not-found' })
    expect(await sendInvoice({ companyId: other, invoiceId: invoice?.id ?? '' })).toMatchObject({ code: 'not-found' })
  })

  it('sends one draft once; a second send is told what the invoice now is', async () => {
    // A company of its own: the drafts of the other tests stay as they are.
    const company = await newCompany('Send One Pools')
    await customerWithVisits(company, 90, 2)
    expect((await createInvoices({ companyId: company, period: NOVEMBER })).created).toBe(1)
    const [draft] = await db().select({ id: invoices.id }).from(invoices).where(eq(invoices.companyId, company))
    const invoiceId = draft?.id ?? ''
    expect(await sendInvoice({ companyId: company, invoiceId, now: NOW })).toEqual({ ok: true })
    expect(await sendInvoice({ companyId: company, invoiceId, now: NOW })).toEqual({
      ok: false,
      code: 'conflict',
      message: 'Only a draft can be sent: this invoice is Sent.',
    })
    await voidInvoice({ companyId: company, invoiceId })
    expect(await sendInvoice({ companyId: company, invoiceId, now: NOW })).toMatchObject({
      code: 'conflict',
      message: 'Only a draft can be sent: this invoice is Void.',
    })
  })
})

describe('"Payment overdue"', () => {
  it('goes out 7 and then 14 days past due, once each, only while something is owed', async () => {
    const { queueOverdueNotices } = await import('./invoice-notice.server')
    const overdue = async () =>
      db()
        .select({ subject: emailOutbox.noticeSubject })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, 'payment-overdue')))
    // November's invoices were sent on Dec 1st and fall due on Dec 16th; customer 1 paid in full.
    const [paid] = await db()
      .select()
      .from(invoices)
      .where(eq(invoices.customerId, customerIds[0] ?? ''))
    const owing = await db()
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.companyId, companyId),
          eq(invoices.state, 'sent'),
          sql`${invoices.totalCents} > ${invoices.paidCents} + ${invoices.creditAppliedCents}`,
        ),
      )
    expect(owing.length).toBeGreaterThan(0)
    expect(await queueOverdueNotices(new Date('2026-12-22T15:00:00Z'))).toBe(0)
    // Dec 23rd: 7 days past due.
    expect(await queueOverdueNotices(new Date('2026-12-23T15:00:00Z'))).toBe(owing.length)
    expect(await queueOverdueNotices(new Date('2026-12-24T15:00:00Z'))).toBe(0)
    // Dec 30th: 14 days past due.
    expect(await queueOverdueNotices(new Date('2026-12-30T15:00:00Z'))).toBe(owing.length)
    const subjects = (await overdue()).map((row) => row.subject).sort()
    expect(subjects).toEqual(owing.flatMap(({ id }) => [`${id}:14`, `${id}:7`]).sort())
    expect(subjects.some((subject) => subject?.startsWith(paid?.id ?? 'none'))).toBe(false)

    // Reminders first sent when an invoice is already 20 days past due (as when a company turns them on late): the
    // "14 days" one alone, and no "7 days" one after it.
    await db()
      .delete(emailOutbox)
      .where(and(eq(emailOutbox.companyId, companyId), eq(emailOutbox.noticeEvent, 'payment-overdue')))
    expect(await queueOverdueNotices(new Date('2027-01-05T15:00:00Z'))).toBe(owing.length)
    expect(await queueOverdueNotices(new Date('2027-01-06T15:00:00Z'))).toBe(0)
    expect((await overdue()).map((row) => row.subject).sort()).toEqual(owing.map(({ id }) => `${id}:14`).sort())
  })
})
