// The portal's "Invoices" (docs/billing.md): the balance, and every invoice the company has sent the customer (never a
// draft), newest first, each with its status and what is still due, opening the invoice with "Pay invoice".
import { Link } from 'react-router'
import type { InvoiceStatus } from '~/billing/invoice-status'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget } from '~/components/ui/touch'
import { InvoiceStatusBadge } from './invoice-status-badge'

export type PortalInvoicesData = {
  balance: { settled: boolean; due: string; credit: string | null }
  total: number
  rows: {
    id: string
    href: string
    numberLabel: string
    period: string
    status: InvoiceStatus
    total: string
    amountDue: string | null
    dueOn: string | null
  }[]
}

export function PortalInvoices({ data }: { data: PortalInvoicesData }) {
  const { balance, rows } = data
  return (
    <Card aria-labelledby="invoices-heading" id="invoices">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-4">
        <h2 id="invoices-heading" className="text-lg font-semibold">
          Invoices
        </h2>
        <div className="text-right">
          <p className="text-sm text-slate-500">Balance due</p>
          <p className="text-2xl font-bold tabular-nums">{balance.settled ? 'All settled' : balance.due}</p>
          {balance.credit ? <p className="text-sm text-slate-600">Credit on your account: {balance.credit}</p> : null}
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="text-slate-600">No invoices yet.</p>
      ) : (
        <ol aria-label="Your invoices, newest first" className="divide-y divide-slate-100">
          {rows.map((invoice) => (
            <li
              key={invoice.id}
              className="relative flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3 hover:bg-slate-50"
            >
              <div className="min-w-0 space-y-0.5">
                <p className="flex flex-wrap items-center gap-2">
                  <Link to={invoice.href} className={cn('font-semibold text-brand-700 hover:underline', rowLinkTarget)}>
                    Invoice {invoice.numberLabel}
                  </Link>
                  <InvoiceStatusBadge status={invoice.status} />
                </p>
                <p className="text-sm text-slate-600">
                  {invoice.period}
                  {invoice.dueOn && invoice.amountDue ? ` · due ${invoice.dueOn}` : ''}
                </p>
              </div>
              <div className="ml-auto text-right text-sm">
                <p className="font-semibold tabular-nums">
                  {invoice.amountDue ? `${invoice.amountDue} due` : invoice.total}
                </p>
                {invoice.amountDue ? <p className="text-slate-600 tabular-nums">of {invoice.total}</p> : null}
              </div>
            </li>
          ))}
        </ol>
      )}
      {data.total > rows.length ? (
        <p className="mt-3 text-sm text-slate-600">
          Showing the latest {rows.length} of {data.total} invoices.
        </p>
      ) : null}
    </Card>
  )
}
