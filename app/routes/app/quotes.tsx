// /app/quotes: the office's quotes (owners, admins, dispatchers; issue 33 item 2, docs/quotes.md): a paged list with a
// status filter. "New quote" on a customer record posts here (intent 'create') and opens the new draft.
import { Form, Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { textLinkTarget } from '~/components/ui/touch'
import { QuoteStatusPill } from '~/features/quotes/quote-document'
import { loadQuoteList, startQuote } from '~/features/quotes/quote-page.server'
import { readForm } from '~/utils/forms'
import { unknownIntent } from '~/utils/intent'
import type { Route } from './+types/quotes'

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  return loadQuoteList(member, new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  const formData = await readForm(request)
  if (formData.get('intent') === 'create') return startQuote(member, formData)
  return unknownIntent()
}

export function meta() {
  return [{ title: 'Quotes · Pool Bud' }]
}

export default function QuotesPage({ loaderData }: Route.ComponentProps) {
  const { quotes, status, statuses, page, hasNext } = loaderData
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">Quotes</h1>
      <p className="text-sm text-slate-700">
        Start a quote from a customer's record, or from one of their equipment items, with “New quote”. Approved quotes
        become{' '}
        <Link to="/app/work-orders" className={`underline ${textLinkTarget}`}>
          work orders
        </Link>
        .
      </p>
      <Card className="space-y-4" aria-labelledby="quote-list-heading">
        <h2 id="quote-list-heading" className="sr-only">
          Quote list
        </h2>
        <Form method="get" className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor="quote-status" className="block text-sm font-medium">
              Status
            </label>
            <select id="quote-status" name="status" defaultValue={status} className="input-field">
              <option value="">All</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </Form>
        {quotes.length === 0 ? (
          <p className="text-sm text-slate-700">{status ? `No ${status.toLowerCase()} quotes.` : 'No quotes yet.'}</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {quotes.map((quote) => (
              <li key={quote.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="min-w-0">
                  <Link to={`/app/quotes/${quote.id}`} className={`font-medium underline ${textLinkTarget}`}>
                    {quote.numberLabel} · {quote.customerName}
                  </Link>
                  <p className="text-sm text-slate-700">
                    {quote.total}
                    {quote.validUntil ? ` · valid until ${quote.validUntil}` : ''}
                  </p>
                </div>
                <QuoteStatusPill status={quote.status} />
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} hasNext={hasNext} label="Quote pages" />
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
