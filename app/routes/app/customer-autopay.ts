// POST /app/customers/:customerId/autopay — the office starts autopay for a customer (docs/billing.md): the customer is
// emailed a link to Stripe's page where they save their card themselves, so staff never handle card numbers. Owner
// and admin only ('billing:manage'); another company's customer is a 404.
import { redirect } from 'react-router'
import { refusalStatus, requireCompanyCapability } from '~/auth/guards.server'
import { sendCardSetupLink } from '~/models/card-checkout.server'
import { redirectWithFlash } from '~/utils/flash.server'
import type { Route } from './+types/customer-autopay'

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireCompanyCapability(request, 'billing:manage')
  throw redirect(`/app/customers/${params.customerId}`)
}

export async function action({ request, params }: Route.ActionArgs) {
  const { companyId } = await requireCompanyCapability(request, 'billing:manage')
  const result = await sendCardSetupLink({ companyId, customerId: params.customerId })
  // Another company's customer is the 404 page (refusalStatus throws it); any other refusal is told on the record.
  if (!result.ok) refusalStatus(result)
  const record = `/app/customers/${params.customerId}`
  return redirectWithFlash(record, result.ok ? result.message : { tone: 'error', text: result.message })
}
