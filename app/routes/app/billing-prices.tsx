// /app/billing/prices: "Change prices" (OPERATIONS §7, owners and admins): choose plans, an increase and an effective
// date, "Preview" every changed plan, then "Apply" — optionally emailing the customers. The latest changes are
// listed below. The form and its answers live in app/features/billing/.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { loadPricesPage, priceChangeAction } from '~/features/billing/price-change.server'
import { PriceChangeForm } from '~/features/billing/price-change-form'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/billing-prices'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'billing:manage')
  return loadPricesPage(user.companyId, user.timezone)
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompanyCapability(request, 'billing:manage')
  return priceChangeAction({ companyId: user.companyId, userId: user.id }, await readForm(request))
}

export function meta() {
  return [{ title: 'Change prices · Pool Bud' }]
}

export default function ChangePricesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { technicians, history, today, defaultEffectiveOn, formKey } = loaderData
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Change prices</h1>
        <p className="text-sm text-slate-600">
          Raise or lower the rates of many service plans at once. You see every plan that changes before anything is
          saved.
        </p>
      </div>
      <PriceChangeForm
        technicians={technicians}
        today={today}
        defaultEffectiveOn={defaultEffectiveOn}
        formKey={formKey}
        reply={actionData?.priceChange}
      />
      <Card className="space-y-3" aria-labelledby="recent-price-changes">
        <h2 id="recent-price-changes" className="text-lg font-semibold">
          Recent price changes
        </h2>
        {history.length === 0 ? (
          <p className="text-sm text-slate-600">No price changes yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {history.map((change) => (
              <li key={change.id} className="py-2">
                <p className="font-medium">
                  {change.increaseLabel} from {change.effectiveOnLabel} ·{' '}
                  {change.planCount === 1 ? '1 plan' : `${change.planCount} plans`}
                </p>
                <p className="text-slate-600">
                  Billed from {change.firstMonthLabel}
                  {change.customersNotified > 0
                    ? ` · ${change.customersNotified === 1 ? '1 customer' : `${change.customersNotified} customers`} emailed`
                    : ' · customers not emailed'}
                  {change.createdBy ? ` · by ${change.createdBy}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
