// /app/billing (docs/billing.md; docs/product.md "Easy to get wrong"): the month's figures, "Create invoices" (a
// preview that writes nothing, then "Create N invoices"), "Send invoices" (after "Send N invoices?"), and every invoice
// of the company, filtered by status or customer, a page at a time. What the page reads is in its address (`?month=`,
// `?preview=1`, `?confirm=send`, `?status=`, `?customer=`, `?page=`), so back, reload and a bookmark all show the same
// thing. A fixed number of statements: 3, plus 1 for a customer's invoices and 5 for the preview.
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { type CompanyMember, notFound } from '~/auth/guards.server'
import { invoiceSubjectLabel } from '~/billing/billing-fields'
import { type BillingPeriod, periodLabel } from '~/billing/invoice-draft'
import { INVOICE_STATUSES } from '~/billing/invoice-status'
import { listStripeAttention } from '~/models/card-payment.server'
import { getCustomer } from '~/models/customer.server'
import { createInvoices, previewInvoices } from '~/models/invoice-create.server'
import { INVOICES_PER_PAGE, type InvoiceListFilter, listInvoices, periodSummary } from '~/models/invoice-list.server'
import { draftCustomersWithoutEmail, sendInvoices } from '~/models/invoice-send.server'
import { localDateAt } from '~/schedule/local-date'
import { formatDateTime, formatLocalDate } from '~/utils/dates'
import { redirectWithFlash } from '~/utils/flash.server'
import { isUuid } from '~/utils/ids'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { billingMonth, MONTH_ACTION_MESSAGES, MonthActionSchema, monthParam, neighbors } from './billing-month'
import { statusSlug } from './invoice-status-badge'

function readStatus(value: string | null): InvoiceListFilter {
  return INVOICE_STATUSES.find((status) => statusSlug(status) === value) ?? 'all'
}

const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** "Sep 2026": the months either side, small enough for one row on a phone. */
function shortLabel(period: BillingPeriod) {
  return shortMonth.format(new Date(`${period.start}T12:00:00Z`))
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`)

export async function loadBillingPage(member: CompanyMember, url: URL, now = new Date()) {
  const { companyId, timezone } = member
  const today = localDateAt(now, timezone)
  const period = billingMonth(url.searchParams.get('month'), now, timezone) ?? notFound()
  const status = readStatus(url.searchParams.get('status'))
  const customerId = url.searchParams.get('customer')
  const page = readPage(url)
  const wantsPreview = url.searchParams.get('preview') === '1'
  // Not an id at all: no such customer (and no query is asked to compare a uuid column with it).
  if (customerId !== null && !isUuid(customerId)) notFound()
  const list = (onPage: number) =>
    listInvoices({ companyId, today, status, customerId: customerId ?? undefined, page: onPage })
  const [summary, firstTry, customer, preview, attention] = await Promise.all([
    periodSummary({ companyId, period }),
    list(page),
    customerId ? getCustomer({ companyId, customerId }) : null,
    wantsPreview ? previewInvoices({ companyId, period }) : null,
    // Signed Stripe events acknowledged but not recorded (decision 032): the office looks at them in Stripe.
    listStripeAttention({ companyId }),
  ])
  // Another company's customer (or a made-up id) does not exist here either.
  if (customerId && !customer) notFound()
  const pageCount = (total: number) => Math.max(1, Math.ceil(total / INVOICES_PER_PAGE))
  // A page past the end (an old link, after invoices left a filter) shows the last page instead. The count rides on
  // the rows, so an empty page knows none: the first page says how many there are.
  let invoices = firstTry
  let shownPage = page
  if (invoices.invoices.length === 0 && page > 1) {
    invoices = await list(1)
    shownPage = pageCount(invoices.total)
    if (shownPage > 1) invoices = await list(shownPage)
  }
  const { previous, next } = neighbors(period)
  return {
    month: {
      value: monthParam(period),
      label: periodLabel(period),
      previous: { value: monthParam(previous), label: periodLabel(previous), short: shortLabel(previous) },
      next: { value: monthParam(next), label: periodLabel(next), short: shortLabel(next) },
    },
    figures: {
      drafts: summary.drafts,
      draftTotal: formatCents(summary.draftCents),
      sent: summary.sent,
      sentTotal: formatCents(summary.sentCents),
    },
    preview: preview
      ? {
          count: preview.count,
          summary: `${plural(preview.count, 'invoice', 'invoices')}, ${formatCents(preview.totalCents)}`,
          alreadyInvoiced: preview.alreadyInvoiced,
          rows: preview.invoices.map(({ customerId: id, customerName, draft }) => ({
            customerId: id,
            customerName,
            lines: draft.lines.length,
            total: formatCents(draft.totalCents),
            creditApplied: draft.creditAppliedCents > 0 ? formatCents(draft.creditAppliedCents) : null,
          })),
        }
      : null,
    confirmSend: url.searchParams.get('confirm') === 'send' && summary.drafts > 0,
    // Named before sending (issue 31 item 4): their invoices are "Not emailed — print".
    noEmail:
      url.searchParams.get('confirm') === 'send' && summary.drafts > 0
        ? noEmailNotice(await draftCustomersWithoutEmail({ companyId, period }))
        : null,
    needsAttention: attention.map((row) => ({
      id: row.eventId,
      when: formatDateTime(row.createdAt, timezone),
      reason: row.reason,
      stripeObject: row.objectId,
    })),
    filter: {
      status: status === 'all' ? 'all' : statusSlug(status),
      customer: customer ? { id: customer.id, name: customer.customerName } : null,
    },
    list: {
      page: shownPage,
      pageCount: pageCount(invoices.total),
      total: invoices.total,
      rows: invoices.invoices.map((invoice) => ({
        id: invoice.id,
        numberLabel: invoice.numberLabel,
        customerId: invoice.customerId,
        customerName: invoice.customerName,
        period: invoiceSubjectLabel(
          invoice.periodStart ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' }) : null,
          invoice.workOrderNumber,
        ),
        status: invoice.status,
        total: formatCents(invoice.totalCents),
        // A draft owes nothing yet; "$0.00 due" would read as settled (docs/billing.md, drafts).
        amountDue: invoice.status === 'Draft' ? 'Not sent' : formatCents(invoice.outstandingCents),
        owes: invoice.outstandingCents > 0,
        // Sent on paper to a customer with no email address (decision 039): said in the list as on the invoice.
        notEmailed: invoice.state === 'sent' && invoice.delivery === 'print',
        dueOn: invoice.dueOn ? formatLocalDate(invoice.dueOn) : null,
      })),
    },
  }
}

/** What a refused billing form says (the page shows it above the month's actions). */
export type BillingRefusal = { intent: string | null; message: string }

/** "Create N invoices" and "Send invoices" for the month the form names (`MonthActionSchema`). */
export async function billingAction(member: CompanyMember, formData: FormData) {
  const submission = parseWithZod(formData, { schema: MonthActionSchema })
  if (submission.status !== 'success') {
    const unknown = Boolean(submission.error?.intent)
    const refusal: BillingRefusal = {
      intent: unknown ? null : String(submission.payload.intent),
      message: unknown ? MONTH_ACTION_MESSAGES.unknown : MONTH_ACTION_MESSAGES.month,
    }
    return data(refusal, 400)
  }
  const { intent, month: period } = submission.value
  const label = periodLabel(period)
  const back = `/app/billing?month=${monthParam(period)}`
  const { companyId } = member
  switch (intent) {
    case 'create': {
      // Under the company's lock, once: a second click (or a second office) creates nothing more.
      const { created } = await createInvoices({ companyId, period })
      return redirectWithFlash(
        back,
        created > 0
          ? `Created ${plural(created, 'invoice', 'invoices')}.`
          : { tone: 'info', text: `No new invoices for ${label}: every customer with billable work has one.` },
      )
    }
    case 'send': {
      const { sent, emailed, toPrint } = await sendInvoices({ companyId, period })
      return redirectWithFlash(
        back,
        sent > 0
          ? `Sent ${plural(sent, 'invoice', 'invoices')}: Emailed ${emailed} · To print ${toPrint}.`
          : { tone: 'info', text: `No draft invoices to send for ${label}.` },
      )
    }
  }
}

/** "12 customers have no email address: their invoices are ready to print", and who they are; null when none. */
function noEmailNotice(names: string[]) {
  if (names.length === 0) return null
  const who = names.length === 1 ? '1 customer has' : `${names.length} customers have`
  return { message: `${who} no email address: their invoices are ready to print`, names }
}
