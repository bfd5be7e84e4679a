// /app/billing/prices: "Change prices" (docs/billing.md, owners and admins): choose plans, an increase and an effective
// date, "Preview" every changed plan, then "Apply" — optionally emailing the customers — once per preview; the page
// then shows what changed. "Price changes" lists the latest, with "Undo" while one is not yet in effect. The form and
// its answers live in app/features/billing/.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { loadPricesPage, priceChangeAction } from '~/features/billing/price-change.server'
import { PriceChangeForm } from '~/features/billing/price-change-form'
import { AppliedChangeCard, PriceChangeHistory } from '~/features/billing/price-change-history'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/billing-prices'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'billing:manage')
  return loadPricesPage(user.companyId, user.timezone, new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompanyCapability(request, 'billing:manage')
  return priceChangeAction({ companyId: user.companyId, userId: user.id }, await readForm(request))
}

export function meta() {
  return [{ title: 'Change prices · Pool Bud' }]
}

export default function ChangePricesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { technicians, history, applied, timezone, today, defaultEffectiveOn, formKey } = loaderData
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold">Change prices</h1>
        <p className="text-sm text-slate-600">
          Raise or lower the rates of many service plans at once. You see every plan that changes before anything is
          saved.
        </p>
      </div>
      {applied ? <AppliedChangeCard change={applied} /> : null}
      <PriceChangeForm
        // A new form after each change: nothing of the change applied stays on screen to be sent again.
        key={applied?.id ?? 'new'}
        technicians={technicians}
        today={today}
        defaultEffectiveOn={defaultEffectiveOn}
        formKey={formKey}
        reply={actionData && 'priceChange' in actionData ? actionData.priceChange : undefined}
      />
      <PriceChangeHistory
        history={history}
        undo={actionData && 'undo' in actionData ? actionData.undo : null}
        timeZone={timezone}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
