// POST /customer/:customerId/invoices/:invoiceId/pay — the portal's "Pay invoice" (docs/billing.md): a Stripe Checkout
// session for what the customer's own sent invoice still owes, and a 303 to Stripe's page. Only the customer's own
// login pays (staff previewing the portal are refused); another customer's invoice, or a draft, is a 404. When it
// cannot start (Stripe off or failing, nothing owed) the customer is sent back to the invoice with the reason.
import { data, redirect } from 'react-router'
import { refusalStatus, requireOwnPortal, requirePortalAccess } from '~/auth/guards.server'
import { startInvoiceCheckoutOnce } from '~/models/card-checkout.server'
import { readIdempotencyKey } from '~/models/idempotency.server'
import { redirectWithFlash } from '~/utils/flash.server'
import { readForm } from '~/utils/forms'
import { portalInvoicePath } from '~/utils/portal-paths'
import { failureStatus } from '~/utils/result'
import type { Route } from './+types/invoice-pay'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  // A bookmarked or reloaded pay URL: the invoice page has the button.
  throw redirect(portalInvoicePath(access.customerId, params.invoiceId))
}

export async function action({ request, params }: Route.ActionArgs) {
  const access = await requireOwnPortal(request, params.customerId)
  // The form's idempotency key (docs/decisions/031-idempotency-keys-bound.md): a double click opens one session.
  const key = readIdempotencyKey(await readForm(request).catch(() => new FormData()))
  if (!key.ok) throw data(key.message, { status: failureStatus(key) })
  const result = await startInvoiceCheckoutOnce({
    companyId: access.companyId,
    customerId: access.customerId,
    invoiceId: params.invoiceId,
    key: key.key,
    userId: access.userId,
  })
  // The key already used for another invoice or by another login: refused (422) with the reason, nothing started.
  if (!result.ok && result.code === 'key-reused') throw data(result.message, { status: failureStatus(result) })
  if (!result.ok) {
    // Another customer's invoice, or none, is the 404 page (refusalStatus throws it); any other refusal is told there.
    refusalStatus(result)
    return redirectWithFlash(portalInvoicePath(access.customerId, params.invoiceId), {
      tone: 'error',
      text: result.message,
    })
  }
  // 303: the browser follows with a GET to Stripe's page, whatever the form's method was.
  throw redirect(result.url, 303)
}
