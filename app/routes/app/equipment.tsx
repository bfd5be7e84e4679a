// /app/equipment/:equipmentId: one equipment item and its history (issue 33 item 7; docs/quotes.md "Equipment"):
// install date, warranty, the quotes for it (number, status, total, date) with their work orders, and "New quote"
// for it. The office that keeps customer records (owners, admins, dispatchers); another company's item is a 404.
import { Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { textLinkTarget } from '~/components/ui/touch'
import { loadEquipmentPage } from '~/features/customers/equipment-history.server'
import { NewQuoteButton } from '~/features/quotes/new-quote-button'
import { QuoteStatusPill } from '~/features/quotes/quote-document'
import type { Route } from './+types/equipment'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'customers:manage')
  return loadEquipmentPage(member, params.equipmentId)
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.equipment.label} · Pool Bud` : 'Equipment · Pool Bud' }]
}

export default function EquipmentPage({ loaderData }: Route.ComponentProps) {
  const { equipment, customer, quotes } = loaderData
  return (
    <div className="space-y-5">
      <Link to={`/app/customers/${customer.id}`} className={`text-sm underline ${textLinkTarget}`}>
        ← {customer.name}
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold wrap-anywhere">{equipment.label}</h1>
        {loaderData.canQuote ? (
          <NewQuoteButton
            customerId={customer.id}
            equipmentId={equipment.id}
            idempotencyKey={loaderData.newQuoteKey}
            context={`for ${equipment.label}`}
          />
        ) : null}
      </header>
      <Card aria-labelledby="equipment-details-heading" className="space-y-3">
        <h2 id="equipment-details-heading" className="text-lg font-semibold">
          Details
        </h2>
        <dl className="grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-sm font-medium text-slate-500">Body of water</dt>
            <dd>{equipment.bodyOfWaterName}</dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-500">Installed on</dt>
            <dd>{equipment.installedOn ?? 'Not recorded'}</dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-500">Warranty</dt>
            <dd data-testid="equipment-warranty">{equipment.warranty ?? 'Not recorded'}</dd>
          </div>
        </dl>
        {equipment.notes ? <p className="text-sm whitespace-pre-line text-slate-700">{equipment.notes}</p> : null}
      </Card>
      <Card aria-labelledby="equipment-history-heading" className="space-y-3">
        <h2 id="equipment-history-heading" className="text-lg font-semibold">
          History
        </h2>
        {quotes.length === 0 ? (
          <p className="text-sm text-slate-700">No quotes or work orders for this equipment yet.</p>
        ) : (
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr className="border-b border-slate-300 text-left text-slate-600">
                <th scope="col" className="py-2 pr-2 font-semibold">
                  Quote
                </th>
                <th scope="col" className="py-2 pr-2 font-semibold">
                  Status
                </th>
                <th scope="col" className="py-2 pr-2 text-right font-semibold">
                  Total
                </th>
                <th scope="col" className="hidden py-2 pr-2 font-semibold sm:table-cell">
                  Date
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Work order
                </th>
              </tr>
            </thead>
            <tbody>
              {quotes.map((quote) => (
                <tr key={quote.id} className="border-b border-slate-100 align-top">
                  <td className="py-2 pr-2">
                    <Link to={`/app/quotes/${quote.id}`} className={`underline ${textLinkTarget}`}>
                      {quote.numberLabel}
                    </Link>
                    <span className="block text-xs text-slate-600 sm:hidden">{quote.date}</span>
                  </td>
                  <td className="py-2 pr-2">
                    <QuoteStatusPill status={quote.status} />
                  </td>
                  <td className="py-2 pr-2 text-right tabular-nums">{quote.total}</td>
                  <td className="hidden py-2 pr-2 sm:table-cell">{quote.date}</td>
                  <td className="py-2">
                    {quote.workOrder ? (
                      <>
                        <Link to={`/app/work-orders/${quote.workOrder.id}`} className={`underline ${textLinkTarget}`}>
                          {quote.workOrder.numberLabel}
                        </Link>{' '}
                        ({quote.workOrder.state})
                        {quote.partsFitted.length > 0 ? (
                          <ul className="mt-1 space-y-0.5 text-xs text-slate-700" aria-label="Parts fitted">
                            {quote.partsFitted.map((part, index) => (
                              // Parts are listed as fitted; the same part twice is two rows.
                              // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the page's life
                              <li key={index}>
                                {part.quantity} × {part.description}, {part.date}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {loaderData.more ? (
          <p className="text-sm text-slate-700">
            Showing the latest {quotes.length} quotes. Find older ones in <Link to="/app/quotes">Quotes</Link>.
          </p>
        ) : null}
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
