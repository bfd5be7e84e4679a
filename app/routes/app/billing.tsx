// /app/billing: a month's invoices and every invoice of the company (docs/billing.md;
// docs/product.md "Easy to get wrong"; owners and admins). The month's figures, "Create invoices" (previewed first,
// nothing written), "Send invoices" (asked first), and the list with its status filter. The reads and the two actions
// live in app/features/billing/billing-page.server.ts.
import { Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { QUICKBOOKS_BASES, QUICKBOOKS_BASIS_LABELS } from '~/billing/quickbooks-basis'
import { RouteError } from '~/components/route-error'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import { billingAction, loadBillingPage } from '~/features/billing/billing-page.server'
import {
  InvoiceListCard,
  MonthCard,
  NeedsAttentionCard,
  PreviewCard,
  SendConfirmCard,
} from '~/features/billing/billing-sections'
import { readForm } from '~/utils/forms'
import type { Route } from './+types/billing'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  return loadBillingPage(member, new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  return billingAction(member, await readForm(request))
}

export function meta() {
  return [{ title: 'Billing · Pool Bud' }]
}

const linkClass = cn('text-sm font-medium text-brand-700 hover:underline', textLinkTarget)

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  const month = loaderData.month.value
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Billing</h1>
        <nav aria-label="Billing tools" className="flex flex-wrap gap-x-4">
          {/* Files, not pages: a plain form (no client routing) so the browser downloads them; each button asks
              its own route. "By service period" (the default) or "By invoice date" picks the month's invoices. */}
          <form method="get" action="/app/billing/quickbooks.iif" className="flex flex-wrap items-center gap-x-3">
            <input type="hidden" name="month" value={month} />
            <label className="flex items-center gap-2 text-sm">
              <span className="sr-only">QuickBooks export</span>
              <select
                name="basis"
                defaultValue="service-period"
                className="min-h-11 rounded-lg border border-slate-300 bg-white px-2 text-sm"
              >
                {QUICKBOOKS_BASES.map((basis) => (
                  <option key={basis} value={basis}>
                    {QUICKBOOKS_BASIS_LABELS[basis]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className={linkClass}>
              Export for QuickBooks (IIF)
            </button>
            <button type="submit" formAction="/app/billing/quickbooks.csv" className={linkClass}>
              Export for QuickBooks (CSV)
            </button>
          </form>
          <Link to="/app/reports/profit" className={linkClass}>
            Profit per pool
          </Link>
          <Link to="/app/billing/prices" className={linkClass}>
            Change prices
          </Link>
        </nav>
      </div>
      <NeedsAttentionCard data={loaderData} />
      <MonthCard data={loaderData} refusal={actionData?.message ?? null} />
      <PreviewCard data={loaderData} />
      <SendConfirmCard data={loaderData} />
      <InvoiceListCard data={loaderData} />
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
