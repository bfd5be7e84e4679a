// A customer's billing on their record (docs/billing.md; docs/product.md "Easy to get wrong"): the latest invoices, the
// invoices still owing (what "Record payment" may apply money to) and the latest payments. The record page already runs
// a dozen statements, so all three lists come back as JSON columns of ONE statement (each an index range of
// invoices_company_customer_idx or payments_company_customer_idx), whatever the number of invoices and payments the
// customer has.
import { sql } from 'drizzle-orm'
import {
  type InvoiceState,
  invoiceNumberLabel,
  invoiceSubjectLabel,
  type PaymentMethod,
} from '~/billing/billing-fields'
import { periodLabel } from '~/billing/invoice-draft'
import { invoiceStatus, outstandingCents } from '~/billing/invoice-status'
import type { LocalDate } from '~/schedule/local-date'
import { queryRows } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'

/** Invoices listed on the record; the rest are one link away (/app/billing?customer=…). */
export const RECORD_INVOICES_LIMIT = 10
/** Payments listed on the record, newest first. */
export const RECORD_PAYMENTS_LIMIT = 10
/** Open invoices offered to "Record payment" (a customer owing on more than this many is not a real case). */
const OPEN_INVOICES_LIMIT = 100

type InvoiceJson = {
  id: string
  number: number
  /** The work order it bills (docs/work-orders.md), if any. */
  workOrderNumber?: number | null
  periodStart: LocalDate | null
  periodEnd: LocalDate | null
  state: InvoiceState
  issuedOn: LocalDate | null
  dueOn: LocalDate | null
  totalCents: number
  paidCents: number
  creditAppliedCents: number
}

type PaymentJson = {
  id: string
  invoiceId: string | null
  invoiceNumber: number | null
  amountCents: number
  refundedCents: number
  receivedOn: LocalDate
  method: PaymentMethod
  reference: string | null
}

const invoiceObject = sql.raw(`json_build_object('id', i.id, 'number', i.number, 'periodStart', i.period_start,
  'periodEnd', i.period_end, 'state', i.state, 'issuedOn', i.issued_on, 'dueOn', i.due_on,
  'totalCents', i.total_cents, 'paidCents', i.paid_cents, 'creditAppliedCents', i.credit_applied_cents,
  'workOrderNumber', (select w.number from work_orders w where w.company_id = i.company_id and w.invoice_id = i.id))`)

/** The customer's invoices and payments as the record shows them; empty lists for another company's customer. */
export async function getCustomerBilling({
  companyId,
  customerId,
  today,
}: {
  companyId: string
  customerId: string
  today: LocalDate
}) {
  if (!isUuid(companyId) || !isUuid(customerId)) return null
  const ofCustomer = sql`i.company_id = ${companyId} and i.customer_id = ${customerId}`
  const [row] = await queryRows<{
    invoice_count: number
    payment_count: number
    latest: InvoiceJson[]
    open: InvoiceJson[]
    paid: PaymentJson[]
  }>(sql`
    select
      (select count(*)::int from invoices i where ${ofCustomer}) as invoice_count,
      (select count(*)::int from payments p where p.company_id = ${companyId} and p.customer_id = ${customerId})
        as payment_count,
      coalesce((select json_agg(x.o order by x.number desc) from (
        select i.number, ${invoiceObject} as o from invoices i where ${ofCustomer}
        order by i.number desc limit ${RECORD_INVOICES_LIMIT}) x), '[]'::json) as latest,
      coalesce((select json_agg(x.o order by x.number) from (
        select i.number, ${invoiceObject} as o from invoices i
        where ${ofCustomer} and i.state = 'sent' and i.total_cents - i.paid_cents - i.credit_applied_cents > 0
        order by i.number limit ${OPEN_INVOICES_LIMIT}) x), '[]'::json) as open,
      coalesce((select json_agg(x.o order by x.received_on desc, x.created_at desc, x.id desc) from (
        select p.received_on, p.created_at, p.id, json_build_object('id', p.id, 'invoiceId', p.invoice_id,
          'invoiceNumber', i.number, 'amountCents', p.amount_cents, 'refundedCents', (select coalesce(sum(r.amount_cents), 0) from refunds r where r.payment_id = p.id),
          'receivedOn', p.received_on, 'method', p.method, 'reference', p.reference) as o
        from payments p
        left join invoices i on i.company_id = p.company_id and i.id = p.invoice_id
        where p.company_id = ${companyId} and p.customer_id = ${customerId}
        order by p.received_on desc, p.created_at desc, p.id desc limit ${RECORD_PAYMENTS_LIMIT}) x), '[]'::json) as paid`)
  const describe = (invoice: InvoiceJson) => ({
    ...invoice,
    numberLabel: invoiceNumberLabel(invoice.number),
    periodLabel: invoiceSubjectLabel(
      invoice.periodStart ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' }) : null,
      invoice.workOrderNumber ?? null,
    ),
    status: invoiceStatus(invoice, today),
    outstandingCents: outstandingCents(invoice),
  })
  return {
    invoiceCount: row?.invoice_count ?? 0,
    paymentCount: row?.payment_count ?? 0,
    invoices: (row?.latest ?? []).map(describe),
    openInvoices: (row?.open ?? []).map(describe),
    payments: (row?.paid ?? []).map((payment) => ({
      ...payment,
      invoiceNumberLabel: payment.invoiceNumber === null ? null : invoiceNumberLabel(payment.invoiceNumber),
    })),
  }
}

export type CustomerBilling = NonNullable<Awaited<ReturnType<typeof getCustomerBilling>>>
