// The company's invoices as lists (docs/billing.md): a page of them by month, customer and status (the billing page,
// the portal), the month's figures for the billing page's header, and `outstandingSql`, the SQL twin of
// `outstandingCents` (app/billing/invoice-status.ts).
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import type { BillingPeriod } from '~/billing/invoice-draft'
import { type InvoiceStatus, invoiceStatus, outstandingCents } from '~/billing/invoice-status'
import { customers, invoices } from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { workOrderNumberSql } from './invoice.server'

export type InvoiceListFilter = 'all' | InvoiceStatus

/** SQL for "still owed on this invoice", matching `outstandingCents`. */
export const outstandingSql = sql<number>`(case when ${invoices.state} = 'sent'
  then greatest(0, ${invoices.totalCents} - ${invoices.paidCents} - ${invoices.creditAppliedCents}) else 0 end)`

function statusWhere(status: InvoiceListFilter, today: LocalDate): SQL | undefined {
  const owed = sql`${invoices.totalCents} - ${invoices.paidCents} - ${invoices.creditAppliedCents}`
  switch (status) {
    case 'all':
      return undefined
    case 'Draft':
      return eq(invoices.state, 'draft')
    case 'Void':
      return eq(invoices.state, 'void')
    case 'Paid':
      return and(eq(invoices.state, 'sent'), sql`${owed} <= 0`)
    case 'Past due':
      return and(eq(invoices.state, 'sent'), sql`${owed} > 0`, sql`${invoices.dueOn} < ${today}`)
    case 'Partially paid':
      return and(
        eq(invoices.state, 'sent'),
        sql`${owed} > 0`,
        sql`${invoices.dueOn} >= ${today}`,
        sql`${invoices.paidCents} + ${invoices.creditAppliedCents} > 0`,
      )
    case 'Sent':
      return and(
        eq(invoices.state, 'sent'),
        sql`${owed} > 0`,
        sql`${invoices.dueOn} >= ${today}`,
        sql`${invoices.paidCents} + ${invoices.creditAppliedCents} = 0`,
      )
  }
}

export const INVOICES_PER_PAGE = 50

/**
 * The invoices a billing month lists: those billing the month, and a work order's invoice (no period: the month's
 * own invoice may be live beside it, docs/work-orders.md) issued in it — or, while a draft, created in it.
 */
export function invoicesOfPeriod(period: BillingPeriod) {
  return or(
    eq(invoices.periodStart, period.start),
    sql`(${invoices.periodStart} is null and coalesce(${invoices.issuedOn},
      (${invoices.createdAt} at time zone (select c.timezone from companies c where c.id = ${invoices.companyId}))::date) between ${period.start} and ${period.end}
      and exists (select 1 from work_orders w where w.company_id = ${invoices.companyId} and w.invoice_id = ${invoices.id}))`,
  )
}

/** A page of invoices, newest number first: one statement (the count rides along as a window). */
export async function listInvoices({
  companyId,
  today,
  period,
  customerId,
  status = 'all',
  hideDrafts = false,
  page = 1,
  size = INVOICES_PER_PAGE,
}: {
  companyId: string
  today: LocalDate
  period?: BillingPeriod
  customerId?: string
  status?: InvoiceListFilter
  /** The portal: a draft is the office's work in progress, never the customer's to see. */
  hideDrafts?: boolean
  page?: number
  size?: number
}) {
  const rows = await db()
    .select({
      id: invoices.id,
      number: invoices.number,
      customerId: invoices.customerId,
      customerName: customers.customerName,
      periodStart: invoices.periodStart,
      periodEnd: invoices.periodEnd,
      state: invoices.state,
      issuedOn: invoices.issuedOn,
      dueOn: invoices.dueOn,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      delivery: invoices.delivery,
      workOrderNumber: workOrderNumberSql,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        period ? invoicesOfPeriod(period) : undefined,
        customerId ? eq(invoices.customerId, customerId) : undefined,
        hideDrafts ? sql`${invoices.state} <> 'draft'` : undefined,
        statusWhere(status, today),
      ),
    )
    .orderBy(desc(invoices.number))
    .limit(size)
    .offset((Math.max(1, page) - 1) * size)
  return {
    total: rows[0]?.total ?? 0,
    invoices: rows.map(({ total: _total, ...row }) => ({
      ...row,
      numberLabel: invoiceNumberLabel(row.number),
      status: invoiceStatus(row, today),
      outstandingCents: outstandingCents(row),
    })),
  }
}

/** The month's invoices in figures, for the billing page's header: one statement. */
export async function periodSummary({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const [row] = await db()
    .select({
      drafts: sql<number>`count(*) filter (where ${invoices.state} = 'draft')`.mapWith(Number),
      draftCents:
        sql<number>`coalesce(sum(${invoices.totalCents}) filter (where ${invoices.state} = 'draft'), 0)`.mapWith(
          Number,
        ),
      sent: sql<number>`count(*) filter (where ${invoices.state} = 'sent')`.mapWith(Number),
      sentCents:
        sql<number>`coalesce(sum(${invoices.totalCents}) filter (where ${invoices.state} = 'sent'), 0)`.mapWith(Number),
    })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), invoicesOfPeriod(period)))
  return row ?? { drafts: 0, draftCents: 0, sent: 0, sentCents: 0 }
}
