// A quote as the office and the customer both see it: who, the status and validity, the equipment it is for (with
// "Under warranty"), the lines (optional ones marked), the totals, the deposit and the note. Phone first: quantity and unit price go under the description on a
// narrow screen. `lineAction` draws the office's "Remove line" in each row.
import type { ReactNode } from 'react'
import { StatusPill } from '~/components/status-badge'
import { Card } from '~/components/ui/card'
import type { QuoteDocument as QuoteData } from './quote-page.server'

const TONES = {
  Draft: 'slate',
  Sent: 'amber',
  Viewed: 'amber',
  Approved: 'green',
  Declined: 'slate',
  Expired: 'slate',
} as const

export function QuoteStatusPill({ status }: { status: keyof typeof TONES }) {
  return <StatusPill tone={TONES[status]}>{status}</StatusPill>
}

export function QuoteDocument({
  quote,
  customer,
  lineAction,
}: {
  quote: QuoteData
  customer: ReactNode
  lineAction?: (line: QuoteData['lines'][number]) => ReactNode
}) {
  return (
    <Card aria-labelledby="quote-lines-heading" className="space-y-5">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <div className="min-w-0">
          <dt className="text-sm font-medium text-slate-500">Customer</dt>
          <dd className="wrap-anywhere">{customer}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-500">Status</dt>
          <dd>
            <QuoteStatusPill status={quote.status} />
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-500">Valid until</dt>
          <dd>{quote.validUntil ?? 'No end date'}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-500">Version</dt>
          <dd>{quote.version}</dd>
        </div>
      </dl>
      {quote.equipment ? (
        <p className="text-sm" data-testid="quote-equipment">
          <span className="font-medium">For:</span> <span className="wrap-anywhere">{quote.equipment.label}</span>
          {quote.equipment.underWarranty ? (
            <span className="ml-2">
              <StatusPill tone="green">Under warranty</StatusPill>
            </span>
          ) : null}
        </p>
      ) : null}
      <div>
        <h2 id="quote-lines-heading" className="sr-only">
          Lines
        </h2>
        {quote.lines.length === 0 ? (
          <p className="text-sm text-slate-700">No lines yet.</p>
        ) : (
          <table className="w-full table-fixed border-collapse text-sm">
            <thead>
              <tr className="border-b border-slate-300 text-left text-slate-600">
                <th scope="col" className="py-2 pr-2 font-semibold">
                  Description
                </th>
                <th scope="col" className="hidden w-16 py-2 pr-2 text-right font-semibold sm:table-cell">
                  Qty
                </th>
                <th scope="col" className="hidden w-28 py-2 pr-2 text-right font-semibold sm:table-cell">
                  Unit price
                </th>
                <th scope="col" className="w-24 py-2 text-right font-semibold">
                  Amount
                </th>
                {lineAction ? (
                  <th scope="col" className="w-24 py-2 text-right font-semibold">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {quote.lines.map((line) => (
                <tr key={line.id} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-2 wrap-anywhere">
                    {line.description}
                    {line.optional ? (
                      <span className="ml-1 text-xs font-semibold text-amber-800">(Optional)</span>
                    ) : null}
                    <span className="block text-xs text-slate-600 sm:hidden">
                      {line.quantity} × {line.unitPrice}
                    </span>
                  </td>
                  <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell">{line.quantity}</td>
                  <td className="hidden py-2 pr-2 text-right tabular-nums sm:table-cell">{line.unitPrice}</td>
                  <td className="py-2 text-right tabular-nums">{line.amount}</td>
                  {lineAction ? <td className="py-2 text-right">{lineAction(line)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <dl className="ml-auto max-w-xs space-y-1 text-sm">
        <div className="flex justify-between gap-4">
          <dt>Subtotal</dt>
          <dd className="tabular-nums">{quote.subtotal}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>{quote.taxLabel}</dt>
          <dd className="tabular-nums">{quote.tax}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-slate-300 pt-1 font-semibold">
          <dt>Total</dt>
          <dd className="tabular-nums" data-testid="quote-total">
            {quote.total}
          </dd>
        </div>
        {quote.depositText ? (
          <div className="flex justify-between gap-4">
            <dt>Deposit</dt>
            <dd className="tabular-nums">{quote.depositText}</dd>
          </div>
        ) : null}
      </dl>
      {quote.lines.some((line) => line.optional) ? (
        <p className="text-sm text-slate-700">Optional items are not in the total until chosen.</p>
      ) : null}
      {quote.note ? (
        <div>
          <h3 className="text-sm font-semibold">Note</h3>
          <p className="text-sm whitespace-pre-line wrap-anywhere">{quote.note}</p>
        </div>
      ) : null}
    </Card>
  )
}
