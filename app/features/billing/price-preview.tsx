// The preview of "Change prices": every plan the change moves — customer, location, rate type and technician, old
// rate and new rate — with the count, then "Apply". A list rather than a table, so it reads the same on a phone.

import { PRICE_MESSAGES } from '~/billing/price-change'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { PriceChangePreview } from '~/models/price-change-preview.server'
import { RATE_TYPE_LABELS } from '~/models/service-plan-schemas'
import { formatCents } from '~/utils/money'

export function PricePreview({
  preview,
  applying,
  disabled,
}: {
  preview: PriceChangePreview
  applying: boolean
  disabled: boolean
}) {
  const plans = preview.count === 1 ? '1 plan' : `${preview.count} plans`
  return (
    <Card className="space-y-4" aria-labelledby="price-preview">
      <div className="space-y-1">
        <h2 id="price-preview" className="text-lg font-semibold">
          Preview
        </h2>
        <p role="status" className="font-medium">
          {plans} will change: {preview.increaseLabel} from {preview.effectiveOnLabel}
        </p>
        <p className="text-sm text-slate-600">
          Invoices from {preview.firstMonthLabel} on use the new prices. Nothing has changed yet.
        </p>
        {preview.sameDateCount > 0 ? (
          <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {PRICE_MESSAGES.sameDate(preview.sameDateCount, preview.effectiveOnLabel)}
          </p>
        ) : null}
      </div>
      <ul className="divide-y divide-slate-100" aria-label="Plans that will change">
        {preview.plans.map((plan) => (
          <li key={plan.planId} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
            <div className="min-w-0">
              <p className="font-medium break-words">{plan.customerName}</p>
              <p className="break-words text-slate-600">{plan.place}</p>
              <p className="text-slate-500">
                {RATE_TYPE_LABELS[plan.rateType]} · {plan.technicianName ?? 'No technician'}
              </p>
            </div>
            <p className="whitespace-nowrap">
              <span className="sr-only">Old rate </span>
              <span className="text-slate-600 line-through">{formatCents(plan.oldRateCents)}</span>
              <span aria-hidden="true"> → </span>
              <span className="sr-only">, new rate </span>
              <span className="font-semibold">{formatCents(plan.newRateCents)}</span>
            </p>
          </li>
        ))}
      </ul>
      <Button type="submit" name="intent" value="apply" pending={applying} pendingLabel="Applying…" disabled={disabled}>
        Apply to {plans}
      </Button>
    </Card>
  )
}
