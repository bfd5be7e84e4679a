// The invoice itself, as the office and the customer both see it: who and when, the lines, the totals; and the
// payments received on it. Phone first: the lines table keeps two columns on a narrow screen (quantity and unit price
// go under the description), and prints in full.
import { Fragment, type ReactNode } from 'react'
import { Link } from 'react-router'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import type { InvoiceDocumentData, InvoicePaymentRow } from './invoice-view'

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-slate-900 wrap-anywhere">{children}</dd>
    </div>
  )
}

/** The heading facts, lines and totals. `customer` is the customer's name, a link for the office. */
export function InvoiceDocument({ invoice, customer }: { invoice: InvoiceDocumentData; customer: ReactNode }) {
  const { totals } = invoice
  return (
    <Card aria-labelledby="invoice-lines-heading" className="space-y-5 print:border-0 print:p-0 print:shadow-none">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Fact label="Customer">{customer}</Fact>
        <Fact label="Period">{invoice.period ?? 'Opening balance'}</Fact>
        <Fact label="Issued">{invoice.issuedOn ?? 'Not sent yet'}</Fact>
        <Fact label="Due">{invoice.dueOn ?? 'Set when sent'}</Fact>
      </dl>
      <div>
        <h2 id="invoice-lines-heading" className="sr-only">
          Lines
        </h2>
        <table className="w-full table-fixed border-collapse text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th scope="col" className="py-2 pr-2 font-semibold">
                Description
              </th>
              <th scope="col" className="hidden w-16 py-2 pr-2 text-right font-semibold sm:table-cell print:table-cell">
                Qty
              </th>
              <th scope="col" className="hidden w-28 py-2 pr-2 text-right font-semibold sm:table-cell print:table-cell">
                Unit price
              </th>
              <th scope="col" className="w-24 py-2 text-right font-semibold">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {invoice.lines.map((line) => (
              <Fragment key={line.id}>
                {line.lateGroupStart ? (
                  <tr className="border-b border-slate-200">
                    <th scope="colgroup" colSpan={4} className="pt-3 pb-1 text-left font-semibold">
                      Late completions
                    </th>
                  </tr>
                ) : null}
                <tr className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-2 wrap-anywhere">
                    {line.description}
                    <span className="block text-xs text-slate-600 sm:hidden print:hidden">
                      {line.quantity} × {line.unit}
                    </span>
                  </td>
                  <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell print:table-cell">
                    {line.quantity}
                  </td>
                  <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell print:table-cell">
                    {line.unit}
                  </td>
                  <td className="py-2 text-right tabular-nums">{line.amount}</td>
                </tr>
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
        <Total label="Subtotal" value={totals.subtotal} />
        {totals.taxes.map((tax) => (
          <Total key={tax.label} label={tax.label} value={tax.value} />
        ))}
        <Total label="Total" value={totals.total} strong />
        {totals.creditApplied ? <Total label="Credit applied" value={`−${totals.creditApplied}`} /> : null}
        {totals.dueOnSending ? (
          <Total label="Total due on sending" value={totals.dueOnSending} strong large />
        ) : (
          <>
            <Total label="Paid" value={totals.paid} />
            <Total label="Amount due" value={totals.amountDue} strong large />
          </>
        )}
      </dl>
      {invoice.note ? (
        <section aria-labelledby="invoice-note-heading" className="rounded-md bg-slate-50 p-3 text-sm">
          <h2 id="invoice-note-heading" className="font-semibold">
            Note
          </h2>
          <p className="whitespace-pre-line text-slate-800 wrap-anywhere">{invoice.note}</p>
        </section>
      ) : null}
    </Card>
  )
}

function Total({ label, value, strong, large }: { label: string; value: string; strong?: boolean; large?: boolean }) {
  return (
    <>
      <dt className={cn('text-slate-600', strong && 'font-semibold text-slate-900', large && 'text-base')}>{label}</dt>
      <dd className={cn('text-right tabular-nums', strong && 'font-semibold', large && 'text-base')}>{value}</dd>
    </>
  )
}

/** The payments received on the invoice, oldest first; the office also sees who recorded each and its flag. */
export function InvoicePayments({ payments }: { payments: InvoicePaymentRow[] }) {
  return (
    <Card aria-labelledby="invoice-payments-heading" className="space-y-3 print:border-0 print:p-0 print:shadow-none">
      <h2 id="invoice-payments-heading" className="text-lg font-semibold">
        Payments
      </h2>
      {payments.length === 0 ? (
        <p className="text-sm text-slate-600">No payments yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {payments.map((payment) => (
            <li key={payment.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2">
              <div className="min-w-0">
                <p className="font-medium">
                  {payment.deposit ? 'Deposit received · ' : ''}
                  {payment.receivedOn} · {payment.method}
                  {payment.reference ? (
                    <span className="font-normal text-slate-600"> · {payment.reference}</span>
                  ) : null}
                </p>
                {'recordedBy' in payment && payment.recordedBy ? (
                  <p className="text-slate-600">Recorded by {payment.recordedBy}</p>
                ) : null}
                {'flag' in payment && payment.flag ? <p className="text-amber-800">{payment.flag}</p> : null}
                {payment.refunded ? <p className="text-slate-600">Refunded {payment.refunded}</p> : null}
                {'voidReason' in payment && payment.voidReason ? (
                  <p className="text-slate-600">Void: {payment.voidReason}</p>
                ) : null}
              </div>
              <div className="flex flex-col items-end gap-1">
                <p className={cn('font-semibold tabular-nums', payment.voided && 'text-slate-500 line-through')}>
                  {payment.amount}
                </p>
                {payment.voided ? (
                  <span className="rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">Void</span>
                ) : null}
                {'voidable' in payment && payment.voidable ? (
                  <Link
                    to={`?void-payment=${payment.id}`}
                    preventScrollReset
                    className={cn('font-medium text-brand-700 hover:underline print:hidden', textLinkTarget)}
                  >
                    Void payment
                  </Link>
                ) : null}
                {'refund' in payment && payment.refund ? (
                  <p className="flex flex-wrap items-center justify-end gap-2 print:hidden">
                    {payment.refund.due ? (
                      <span className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                        Refund due
                      </span>
                    ) : null}
                    <Link
                      to={`?refund=${payment.id}`}
                      preventScrollReset
                      className={cn('font-medium text-brand-700 hover:underline', textLinkTarget)}
                    >
                      Refund
                    </Link>
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
