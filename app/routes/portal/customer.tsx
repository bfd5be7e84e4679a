import { requirePortalAccess } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { AutopaySection } from '~/features/billing/autopay-section'
import { PortalInvoices } from '~/features/billing/portal-invoices'
import { loadCustomerPortal } from '~/features/portal/customer-portal.server'
import { PortalGallery } from '~/features/portal/portal-gallery'
import { PortalHeader } from '~/features/portal/portal-header'
import { PortalReadings } from '~/features/portal/portal-readings'
import { PortalSummary } from '~/features/portal/portal-summary'
import { VisitHistory } from '~/features/portal/visit-history'
import type { Route } from './+types/customer'

// The customer's read-only portal. Only that customer's own login, or staff of the same
// company who may preview portals, can see it; anyone else gets a 404 (ARCHITECTURE §4).
// The loader sends only what the page shows: no company, login, technician or storage ids.
export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  return loadCustomerPortal(access, new URL(request.url))
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.customer.name} · Pool Bud` : 'Customer portal · Pool Bud' }]
}

export default function CustomerPortal({ loaderData, params }: Route.ComponentProps) {
  const { customer, companyName, preview } = loaderData
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:py-8">
      <PortalHeader customer={customer} companyName={companyName} preview={preview} />
      <PortalSummary data={loaderData} />
      {/* What is owed comes right after the summary: the customer came to pay as often as to look. */}
      <PortalInvoices data={{ balance: loaderData.balance, ...loaderData.invoices }} />
      <VisitHistory visits={loaderData.visits} />
      <PortalReadings readings={loaderData.readings} />
      <PortalGallery photos={loaderData.gallery} />
      <AutopaySection customerId={params.customerId} autopay={loaderData.autopay} preview={preview} />
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
