// "Invoice sent" and "Payment overdue" (docs/product.md "Notices"; docs/billing.md): the customer notices about an
// invoice, through the same outbox and unique notice key as the visit notices — once per invoice, event, channel and
// recipient. An overdue notice's subject carries its day ("…:7", "…:14"), so each reminder is sent once too.
import { and, asc, eq, sql } from 'drizzle-orm'
import { invoiceNumberLabel } from '~/billing/billing-fields'
import { periodLabel } from '~/billing/invoice-draft'
import { outstandingCents } from '~/billing/invoice-status'
import { companies, customers, invoiceLines, invoices } from '~/db/schema'
import { addDays, localDateAt } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { formatCents } from '~/utils/money'
import { portalInvoicePath } from '~/utils/portal-paths'
import { noticeRecipientColumns, noticeSettingFor, queueCustomerNotice } from './notice.server'

type Executor = Pick<Database, 'select' | 'insert' | 'execute'>

export type InvoiceNotice = {
  companyId: string
  invoiceId: string
  event: 'invoice-sent' | 'payment-overdue'
  /** Days past due, for "Payment overdue" (7 or 14): part of the notice's key. */
  daysPastDue?: number
}

/** Queues the invoice's notice (`queueCustomerNotice`), in the caller's transaction; returns how many rows were new. */
export async function queueInvoiceNotice(executor: Executor, notice: InvoiceNotice) {
  const { companyId, invoiceId, event } = notice
  const [invoice] = await executor
    .select({
      ...noticeRecipientColumns,
      number: invoices.number,
      periodStart: invoices.periodStart,
      periodEnd: invoices.periodEnd,
      state: invoices.state,
      dueOn: invoices.dueOn,
      totalCents: invoices.totalCents,
      paidCents: invoices.paidCents,
      creditAppliedCents: invoices.creditAppliedCents,
      customerNote: invoices.customerNote,
    })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  if (invoice?.state !== 'sent' || !invoice.dueOn) return 0
  const dueOn = invoice.dueOn
  const link = `${env().APP_URL}${portalInvoicePath(invoice.customerId, invoiceId)}`
  return queueCustomerNotice(executor, {
    companyId,
    event,
    subject: notice.daysPastDue ? `${invoiceId}:${notice.daysPastDue}` : invoiceId,
    recipient: invoice,
    values: { customer: invoice.customerName, company: invoice.companyName, link },
    email: async ({ message, brand }) => {
      const lines = await executor
        .select({ description: invoiceLines.description, amountCents: invoiceLines.amountCents })
        .from(invoiceLines)
        .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId)))
        .orderBy(asc(invoiceLines.position))
      return {
        template: 'invoice',
        props: {
          companyName: invoice.companyName,
          numberLabel: invoiceNumberLabel(invoice.number),
          periodLabel: invoice.periodStart
            ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? invoice.periodStart })
            : null,
          message,
          lines: lines.map((line) => ({ description: line.description, amount: formatCents(line.amountCents) })),
          total: formatCents(invoice.totalCents),
          amountDue: formatCents(outstandingCents(invoice)),
          dueDate: formatLocalDate(dueOn),
          payUrl: link,
          note: invoice.customerNote,
          brand,
        },
      }
    },
  })
}

/** "Payment overdue" goes out this many days after the due date (docs/billing.md, issue #21). */
export const OVERDUE_NOTICE_DAYS = [7, 14] as const
const OVERDUE_PER_RUN = 2000

/**
 * Hourly on every server: each sent invoice still owed 7 (then 14) days after its due date gets "Payment overdue",
 * once per day mark by the notice's key, and only the latest mark it has reached. Returns how many were queued.
 */
export async function queueOverdueNotices(now = new Date()) {
  const all = await db()
    .select({ id: companies.id, timezone: companies.timezone, settings: companies.noticeSettings })
    .from(companies)
  let queued = 0
  for (const company of all) {
    const { channels } = noticeSettingFor(company.settings, 'payment-overdue')
    if (!channels.email && !channels.text) continue
    const today = localDateAt(now, company.timezone)
    for (const [mark, days] of OVERDUE_NOTICE_DAYS.entries()) {
      const dueBy = addDays(today, -days)
      // An invoice already past the next mark gets that one instead: a customer first reminded 20 days late hears
      // "14 days" once, not "7 days" and "14 days" in the same hour.
      const next = OVERDUE_NOTICE_DAYS[mark + 1]
      const owed = await db()
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          and(
            eq(invoices.companyId, company.id),
            eq(invoices.state, 'sent'),
            sql`${invoices.dueOn} <= ${dueBy}`,
            next === undefined ? undefined : sql`${invoices.dueOn} > ${addDays(today, -next)}`,
            sql`${invoices.totalCents} > ${invoices.paidCents} + ${invoices.creditAppliedCents}`,
            // Not already told at this mark (one indexed probe per invoice, not a notice each run).
            sql`not exists (select 1 from email_outbox o where o.company_id = ${invoices.companyId}
              and o.notice_event = 'payment-overdue' and o.notice_subject = ${invoices.id}::text || ':' || ${String(days)})`,
          ),
        )
        .limit(OVERDUE_PER_RUN)
      for (const invoice of owed) {
        queued += await queueInvoiceNotice(db(), {
          companyId: company.id,
          invoiceId: invoice.id,
          event: 'payment-overdue',
          daysPastDue: days,
        })
      }
    }
  }
  return queued
}
