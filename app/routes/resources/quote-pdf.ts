// GET /app/quotes/:quoteId.pdf — "Download PDF" in the office (issue 33 item 2): the quote page's guard; another
// company's quote, or an id that is none, is a 404.
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { quotePdfResponse } from '~/features/quotes/quote-pdf.server'
import { getCompanyLetterhead } from '~/models/company-letterhead.server'
import { getQuote } from '~/models/quote.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/quote-pdf'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'quotes:manage')
  const today = localDateAt(new Date(), member.timezone)
  // "Download PDF" of an earlier version shows that version as it was sent.
  const version = Number(new URL(request.url).searchParams.get('version'))
  const [quote, company] = await Promise.all([
    getQuote({
      companyId: member.companyId,
      quoteId: params.quoteId,
      today,
      version: Number.isInteger(version) && version > 0 ? version : undefined,
    }),
    getCompanyLetterhead(member.companyId),
  ])
  if (!quote || !company) notFound()
  return quotePdfResponse(quote, company)
}
