// /app/invoices/:invoiceId: one invoice for the office (OPERATIONS §7; owners and admins). The document — customer,
// period, status, dates, lines, totals — and its payments. Another company's invoice, or an id that is none, is a 404.
import { Link } from 'react-router'
import { type CompanyMember, notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { InvoiceDocument, InvoicePayments } from '~/features/billing/invoice-document'
import { InvoiceStatusBadge } from '~/features/billing/invoice-status-badge'
import { presentInvoiceDocument, presentInvoicePayments } from '~/features/billing/invoice-view'
import { getInvoice } from '~/models/invoice.server'
import { portalInvoicePath } from '~/models/invoice-notice.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/invoice'

/** The invoice as this member's company has it, or a 404. */
async function requireInvoice(member: CompanyMember, invoiceId: string) {
  const today = localDateAt(new Date(), member.timezone)
  const invoice = await getInvoice({ companyId: member.companyId, invoiceId, today })
  if (!invoice) notFound()
  return { invoice, today }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  const { invoice } = await requireInvoice(member, params.invoiceId)
  return {
    invoice: presentInvoiceDocument(invoice),
    customerId: invoice.customerId,
    payments: presentInvoicePayments(invoice, { forStaff: true }),
    autopayCard: invoice.autopayCardLabel,
    portalPath: invoice.state === 'sent' ? portalInvoicePath(invoice.customerId, invoice.id) : null,
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.invoice.numberLabel ?? 'Invoice'} · Pool Bud` }]
}

const linkClass = cn('font-medium text-brand-700 hover:underline', textLinkTarget)

export default function InvoicePage({ loaderData }: Route.ComponentProps) {
  const { invoice } = loaderData
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link to="/app/billing" className={cn('text-sm print:hidden', linkClass)}>
          ← Billing
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold">{invoice.numberLabel}</h1>
          <InvoiceStatusBadge status={invoice.status} className="text-sm" />
        </div>
        <p className="text-lg">
          Amount due <span className="font-semibold tabular-nums">{invoice.totals.amountDue}</span>
          {loaderData.autopayCard && invoice.owes ? (
            <span className="text-sm text-slate-600"> · autopay with {loaderData.autopayCard}</span>
          ) : null}
        </p>
        {loaderData.portalPath ? (
          <Link to={loaderData.portalPath} className={cn('text-sm print:hidden', linkClass)}>
            As the customer sees it
          </Link>
        ) : null}
      </div>
      <InvoiceDocument
        invoice={invoice}
        customer={
          <Link to={`/app/customers/${loaderData.customerId}`} className={linkClass}>
            {invoice.customerName}
          </Link>
        }
      />
      <InvoicePayments payments={loaderData.payments} />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
