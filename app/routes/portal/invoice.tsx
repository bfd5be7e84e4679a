// One invoice in the customer's portal (docs/billing.md): the same document the office sees, its payments, and "Pay
// invoice". Only the portal's own customer (or staff previewing it) may see it; a draft, an invoice of another
// customer or another company is a 404. "Pay invoice" posts to the card-payment route when Stripe is set up;
// without it the button stays disabled with "Online payment is not set up".
import { Link } from 'react-router'
import { notFound, requirePortalAccess } from '~/auth/guards.server'
import { ONLINE_PAYMENT_NOT_SET_UP, onlinePaymentsEnabled } from '~/billing/online-payments.server'
import { RouteError } from '~/components/route-error'
import { InvoiceDocument, InvoicePayments } from '~/features/billing/invoice-document'
import { InvoiceStatusBadge } from '~/features/billing/invoice-status-badge'
import { presentInvoiceDocument, presentInvoicePayments } from '~/features/billing/invoice-view'
import { PayInvoice } from '~/features/billing/pay-invoice'
import { getInvoice } from '~/models/invoice.server'
import { localDateAt } from '~/schedule/local-date'
import { portalInvoicePath } from '~/utils/portal-paths'
import type { Route } from './+types/invoice'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const today = localDateAt(new Date(), access.timezone)
  const invoice = await getInvoice({
    companyId: access.companyId,
    invoiceId: params.invoiceId,
    customerId: access.customerId,
    today,
  })
  if (!invoice) notFound()
  const owes = invoice.state === 'sent' && invoice.outstandingCents > 0
  return {
    preview: access.preview,
    customerId: access.customerId,
    companyName: access.companyName,
    invoice: presentInvoiceDocument(invoice),
    payments: presentInvoicePayments(invoice, { forStaff: false }),
    pay: owes
      ? {
          enabled: onlinePaymentsEnabled(),
          action: `${portalInvoicePath(access.customerId, invoice.id)}/pay`,
          // The form's idempotency key: a double click, or a retry, opens one Checkout session.
          idempotencyKey: crypto.randomUUID(),
          notSetUp: ONLINE_PAYMENT_NOT_SET_UP,
        }
      : null,
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Invoice ${data.invoice.numberLabel} · Pool Bud` : 'Invoice · Pool Bud' }]
}

export default function PortalInvoice({ loaderData }: Route.ComponentProps) {
  const { invoice, customerId, companyName, preview, pay } = loaderData
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-8">
      {preview ? (
        <aside
          aria-label="Staff preview"
          className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 print:hidden"
        >
          <strong>Staff preview.</strong> This is the invoice as {invoice.customerName} sees it.
        </aside>
      ) : null}
      <Link
        to={`/customer/${customerId}#invoices`}
        className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 print:hidden"
      >
        ← Back to your account
      </Link>
      <header className="space-y-1">
        {companyName ? <p className="text-sm font-medium text-brand-700">{companyName}</p> : null}
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold sm:text-3xl">Invoice {invoice.numberLabel}</h1>
          <InvoiceStatusBadge status={invoice.status} className="text-sm" />
        </div>
        <p className="text-lg">
          Amount due <span className="font-semibold tabular-nums">{invoice.totals.amountDue}</span>
          {invoice.dueOn && invoice.owes ? <span className="text-slate-600"> by {invoice.dueOn}</span> : null}
        </p>
        <a
          href={`/customer/${customerId}/invoices/${invoice.id}.pdf`}
          download
          className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline print:hidden"
        >
          Download PDF
        </a>
      </header>
      {pay ? <PayInvoice pay={pay} preview={preview} companyName={companyName} /> : null}
      <InvoiceDocument invoice={invoice} customer={invoice.customerName} />
      <InvoicePayments payments={loaderData.payments} />
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
