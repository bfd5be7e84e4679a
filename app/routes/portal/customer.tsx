import { requireOwnPortal, requirePortalAccess } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { AutopaySection } from '~/features/billing/autopay-section'
import { PortalInvoices } from '~/features/billing/portal-invoices'
import { PortalNotifications } from '~/features/notices/portal-notifications'
import { savePortalNotifications } from '~/features/notices/portal-notifications.server'
import { loadCustomerPortal } from '~/features/portal/customer-portal.server'
import { PortalGallery } from '~/features/portal/portal-gallery'
import { PortalHeader } from '~/features/portal/portal-header'
import { PortalReadings } from '~/features/portal/portal-readings'
import { PortalSummary } from '~/features/portal/portal-summary'
import { VisitHistory } from '~/features/portal/visit-history'
import { PortalQuotes } from '~/features/quotes/portal-quotes'
import { readForm } from '~/utils/forms'
import { preparedLoader } from '~/utils/prepared-statements.server'
import type { Route } from './+types/customer'

// The customer's read-only portal. Only that customer's own login, or staff of the same
// company who may preview portals, can see it; anyone else gets a 404 (docs/product.md "Roles").
// The loader sends only what the page shows: no company, login, technician or storage ids.
export const loader = preparedLoader(async ({ request, params }: Route.LoaderArgs) => {
  const access = await requirePortalAccess(request, params.customerId)
  return loadCustomerPortal(access, new URL(request.url))
})

// "Notifications" (docs/decisions/047-customer-times.md): only the customer's own login saves it.
export async function action({ request, params }: Route.ActionArgs) {
  const access = await requireOwnPortal(request, params.customerId)
  return savePortalNotifications(access, await readForm(request))
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.customer.name} · Pool Bud` : 'Customer portal · Pool Bud' }]
}

export default function CustomerPortal({ loaderData, actionData, params }: Route.ComponentProps) {
  const { customer, companyName, companyLogoUrl, preview } = loaderData
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:py-8">
      <PortalHeader customer={customer} companyName={companyName} companyLogoUrl={companyLogoUrl} preview={preview} />
      <PortalSummary data={loaderData} />
      {/* What is owed comes right after the summary: the customer came to pay as often as to look. */}
      <PortalInvoices data={{ balance: loaderData.balance, ...loaderData.invoices }} />
      <PortalQuotes quotes={loaderData.quotes} />
      <VisitHistory visits={loaderData.visits} />
      <PortalReadings readings={loaderData.readings} />
      <PortalGallery photos={loaderData.gallery} />
      <AutopaySection customerId={params.customerId} autopay={loaderData.autopay} preview={preview} />
      <PortalNotifications data={loaderData.notifications} preview={preview} reply={actionData?.notifications} />
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
