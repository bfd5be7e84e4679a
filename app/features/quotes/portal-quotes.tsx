// The portal's "Quotes" (issue 33 item 2): every quote the company has sent the customer, at its latest version
// sent, newest first. Shown only when there is one.
import { Link } from 'react-router'
import type { QuoteStatus } from '~/billing/quote-math'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget } from '~/components/ui/touch'
import { QuoteStatusPill } from './quote-document'

export function PortalQuotes({
  quotes,
}: {
  quotes: {
    id: string
    href: string
    numberLabel: string
    status: QuoteStatus
    total: string
    validUntil: string | null
  }[]
}) {
  if (quotes.length === 0) return null
  return (
    <Card aria-labelledby="quotes-heading" id="quotes">
      <h2 id="quotes-heading" className="mb-3 text-lg font-semibold">
        Quotes
      </h2>
      <ol aria-label="Your quotes, newest first" className="divide-y divide-slate-100">
        {quotes.map((quote) => (
          <li key={quote.id} className="relative flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
            <div className="min-w-0">
              <Link to={quote.href} className={cn('font-semibold text-brand-700 hover:underline', rowLinkTarget)}>
                Quote {quote.numberLabel}
              </Link>
              <p className="text-sm text-slate-600">
                {quote.total}
                {quote.validUntil ? ` · valid until ${quote.validUntil}` : ''}
              </p>
            </div>
            <QuoteStatusPill status={quote.status} />
          </li>
        ))}
      </ol>
    </Card>
  )
}
