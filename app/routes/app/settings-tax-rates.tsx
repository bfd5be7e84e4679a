// /app/settings/tax-rates: Settings → "Tax rates" (issue 31 item 9; docs/decisions/052-tax-rates.md). Dispatchers
// read; owners and admins add, edit, remove and choose the default.
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { taxRatesAction } from '~/features/settings/tax-rates.server'
import { TaxRatesSection } from '~/features/settings/tax-rates-section'
import { listTaxRates } from '~/models/tax-rate.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import { can } from '~/utils/permissions'
import type { Route } from './+types/settings-tax-rates'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'settings:view')
  return { rates: await listTaxRates(member.companyId), canSave: can(member.role, 'settings:save') }
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'settings:save')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  // Every intent is named here, so the permission matrix finds them (tests/integration/permission-matrix.test.ts).
  switch (intent) {
    case 'tax-rate-add':
    case 'tax-rate-update':
    case 'tax-rate-remove':
    case 'tax-rate-default':
      return taxRatesAction(member.companyId, intent, formData)
  }
  return unknownIntent()
}

export function meta() {
  return [{ title: 'Tax rates · Settings · Pool Bud' }]
}

export default function TaxRatesPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <p className="text-sm">
        <a href="/app/settings" className="underline">
          ← Settings
        </a>
      </p>
      <TaxRatesSection
        rates={loaderData.rates}
        canSave={loaderData.canSave}
        reply={actionData && 'taxRates' in actionData ? actionData.taxRates : undefined}
      />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
