// POST /customer/:customerId/autopay — "Save card for automatic payments" in the portal (docs/billing.md): a Stripe
// Checkout session in setup mode and a 303 to Stripe's page; the webhook saves the card when the customer is done.
// Only the customer's own login (staff previewing the portal are refused; the office sends a link instead, from the
// customer record).
import { redirect } from 'react-router'
import { requireOwnPortal, requirePortalAccess } from '~/auth/guards.server'
import { startCardSetup } from '~/models/card-checkout.server'
import { redirectWithFlash } from '~/utils/flash.server'
import type { Route } from './+types/autopay'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  throw redirect(`/customer/${access.customerId}#autopay`)
}

export async function action({ request, params }: Route.ActionArgs) {
  const access = await requireOwnPortal(request, params.customerId)
  const portal = `/customer/${access.customerId}`
  const result = await startCardSetup({
    companyId: access.companyId,
    customerId: access.customerId,
    returnPath: portal,
  })
  if (!result.ok) return redirectWithFlash(`${portal}#autopay`, { tone: 'error', text: result.message })
  throw redirect(result.url, 303)
}
