// "Send invoices" and "Send invoice" (docs/billing.md): drafts become sent, issued today and due after the company's
// terms, each customer's "Invoice sent" queued in the same transaction; and the month's invoices on paper (docs/billing.md
// "Invoices on paper"): the customers "Send invoices" names before it sends, and the print batch.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { BillingPeriod } from '~/billing/invoice-draft'
import { invoiceStatus } from '~/billing/invoice-status'
import { companies, customers, invoices } from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { addDays, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { type InvoiceAction, invoiceMoneyColumns } from './invoice.server'
import { queueInvoiceNotice } from './invoice-notice.server'

/**
 * "Send invoices": the drafts of the month (or the ones named) become sent, issued today and due after the company's
 * terms, and each customer gets "Invoice sent" (email, and text when the company turns it on) — queued in the same
 * transaction, once per invoice by the notice's key. An invoice whose customer saved a card is due for autopay.
 */
export async function sendInvoices({
  companyId,
  period,
  invoiceIds,
  now = new Date(),
}: {
  companyId: string
  period?: BillingPeriod
  invoiceIds?: string[]
  now?: Date
}) {
  if (!period && !invoiceIds?.length) return { sent: 0, emailed: 0, toPrint: 0 }
  return db().transaction(async (tx) => {
    const [company] = await tx
      .select({ timezone: companies.timezone, terms: companies.paymentTermsDays })
      .from(companies)
      .where(eq(companies.id, companyId))
    if (!company) return { sent: 0, emailed: 0, toPrint: 0 }
    const today = localDateAt(now, company.timezone)
    const which = invoiceIds?.length
      ? inArray(invoices.id, invoiceIds.filter(isUuid))
      : eq(invoices.periodStart, period?.start ?? '')
    const sent = await tx
      .update(invoices)
      .set({
        state: 'sent',
        issuedOn: today,
        dueOn: addDays(today, company.terms),
        sentAt: now,
        // A customer with no email address gets the invoice on paper: "Not emailed — print" (decision 039).
        delivery: sql`case when exists (select 1 from customers c where c.company_id = ${invoices.companyId}
          and c.id = ${invoices.customerId} and coalesce(trim(c.email), '') <> '') then 'email' else 'print' end`,
        autopayNextAt: sql`case when exists (select 1 from customers c where c.company_id = ${invoices.companyId}
          and c.id = ${invoices.customerId} and c.autopay_payment_method_id is not null)
          and ${invoices.totalCents} > ${invoices.creditAppliedCents} then ${now.toISOString()}::timestamptz end`,
      })
      .where(and(eq(invoices.companyId, companyId), eq(invoices.state, 'draft'), which))
      .returning({ id: invoices.id, delivery: invoices.delivery })
    for (const { id } of sent) await queueInvoiceNotice(tx, { companyId, invoiceId: id, event: 'invoice-sent' })
    for (const { id } of sent) {
      await enqueue(tx, { kind: 'webhook', companyId, type: 'invoice.sent', data: { invoiceId: id } })
    }
    const toPrint = sent.filter((invoice) => invoice.delivery === 'print').length
    return { sent: sent.length, emailed: sent.length - toPrint, toPrint }
  })
}

/**
 * "Send invoice" for one invoice (the invoice page): sent as `sendInvoices` sends it, or refused — one the company
 * does not have is not found; one that is no longer a draft (sent meanwhile, or void) a conflict that says what it is.
 */
export async function sendInvoice({ companyId, invoiceId, now = new Date() }: InvoiceAction): Promise<Result> {
  if (!isUuid(invoiceId)) return failure('not-found', 'Invoice not found.')
  const { sent } = await sendInvoices({ companyId, invoiceIds: [invoiceId], now })
  if (sent === 1) return success({})
  const [invoice] = await db()
    .select({
      ...invoiceMoneyColumns,
      timezone: companies.timezone,
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)))
  if (!invoice) return failure('not-found', 'Invoice not found.')
  const status = invoiceStatus(invoice, localDateAt(now, invoice.timezone))
  return failure('conflict', `Only a draft can be sent: this invoice is ${status}.`)
}

/**
 * The customers with a draft invoice this month and no email address (issue 31 item 4): "Send invoices" names them
 * before it sends, since their invoices go on paper.
 */
export async function draftCustomersWithoutEmail({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const rows = await db()
    .select({ customerName: customers.customerName })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.state, 'draft'),
        eq(invoices.periodStart, period.start),
        sql`coalesce(trim(${customers.email}), '') = ''`,
      ),
    )
    .orderBy(asc(customers.customerName))
  return rows.map((row) => row.customerName)
}

/**
 * The print batch of a month (issue 31 item 4): its invoices, drafts and sent, whose customer has no email address —
 * the ones "Send invoices" puts on paper — by number. Void invoices are left out.
 */
export async function printBatchInvoiceIds({ companyId, period }: { companyId: string; period: BillingPeriod }) {
  const rows = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(customers, and(eq(customers.companyId, invoices.companyId), eq(customers.id, invoices.customerId)))
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.periodStart, period.start),
        sql`${invoices.state} <> 'void'`,
        sql`coalesce(trim(${customers.email}), '') = ''`,
      ),
    )
    .orderBy(asc(invoices.number))
  return rows.map((row) => row.id)
}
