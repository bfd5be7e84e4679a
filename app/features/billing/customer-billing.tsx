// The customer record's "Invoices" and "Payments" (docs/product.md "Easy to get wrong"), with "Record payment" for
// owners and admins. The form opens from a link (`?add=payment`), like the record's other forms: it works before
// JavaScript and survives a reload.
import type { SubmissionResult } from '@conform-to/react'
import { Link } from 'react-router'
import { ButtonLink, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import type { CustomerBillingData } from './customer-billing.server'
import { InvoiceStatusBadge } from './invoice-status-badge'
import { RecordPaymentForm } from './record-payment-form'

export const RECORD_PAYMENT_OPEN = 'payment'

const linkClass = cn('font-medium text-brand-700 hover:underline', textLinkTarget)

export function CustomerBilling({
  data,
  customerId,
  formOpen,
  lastResult,
}: {
  data: CustomerBillingData
  customerId: string
  /** `?add=payment`: "Record payment" is open. */
  formOpen: boolean
  lastResult: SubmissionResult<string[]> | undefined
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card aria-labelledby="invoices-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="invoices-heading" className="text-lg font-semibold">
            Invoices
          </h2>
          {data.canManage && data.invoiceCount > 0 ? (
            <Link to={`/app/billing?customer=${customerId}`} className={linkClass}>
              All invoices{data.invoiceCount > data.invoices.length ? ` (${data.invoiceCount})` : ''}
            </Link>
          ) : null}
        </div>
        {data.invoices.length === 0 ? (
          <p className="text-sm text-slate-600">No invoices yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {data.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    {data.canManage ? (
                      <Link to={`/app/invoices/${invoice.id}`} className={linkClass}>
                        {invoice.numberLabel}
                      </Link>
                    ) : (
                      <span className="font-medium">{invoice.numberLabel}</span>
                    )}
                    <InvoiceStatusBadge status={invoice.status} />
                  </p>
                  <p className="text-slate-600">
                    {invoice.period}
                    {invoice.dueOn ? ` · due ${invoice.dueOn}` : ''}
                  </p>
                </div>
                <div className="text-right">
                  <p className="font-semibold tabular-nums">{invoice.total}</p>
                  {invoice.amountDue ? <p className="text-slate-600">{invoice.amountDue} due</p> : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card aria-labelledby="payments-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="payments-heading" className="text-lg font-semibold">
            Payments
          </h2>
          {data.recordPayment && !formOpen ? (
            <ButtonLink to={`?add=${RECORD_PAYMENT_OPEN}`} variant="secondary" preventScrollReset>
              Record payment
            </ButtonLink>
          ) : null}
        </div>
        {data.recordPayment && formOpen ? (
          <div className="space-y-3 rounded-lg border border-slate-200 p-4">
            <h3 className="font-semibold">Record payment</h3>
            <RecordPaymentForm
              key={data.recordPayment.formKey}
              today={data.recordPayment.today}
              fullAmount=""
              openInvoices={data.recordPayment.openInvoices}
              idempotencyKey={data.recordPayment.idempotencyKey}
              lastResult={lastResult}
            />
            <Link to="." className={buttonClass('ghost')} preventScrollReset>
              Cancel
            </Link>
          </div>
        ) : null}
        {data.payments.length === 0 ? (
          <p className="text-sm text-slate-600">No payments yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {data.payments.map((payment) => (
              <li key={payment.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <div className="min-w-0">
                  <p className="font-medium">
                    {payment.receivedOn} · {payment.method}
                    {payment.reference ? (
                      <span className="font-normal text-slate-600"> · {payment.reference}</span>
                    ) : null}
                  </p>
                  <p className="text-slate-600">
                    {payment.invoice ? (
                      data.canManage ? (
                        <Link to={`/app/invoices/${payment.invoice.id}`} className={linkClass}>
                          {payment.invoice.numberLabel}
                        </Link>
                      ) : (
                        payment.invoice.numberLabel
                      )
                    ) : (
                      'Account credit'
                    )}
                    {payment.refunded ? ` · refunded ${payment.refunded}` : ''}
                  </p>
                </div>
                <p className="font-semibold tabular-nums">{payment.amount}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
