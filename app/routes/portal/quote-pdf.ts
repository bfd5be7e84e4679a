// GET /customer/:customerId/quotes/:quoteId.pdf — the customer's "Download PDF" (issue 33 item 2): their own quote,
// at the latest version sent; anyone else's is a 404.
import { notFound, requirePortalAccess } from '~/auth/guards.server'
import { quotePdfResponse } from '~/features/quotes/quote-pdf.server'
import { getCompanyLetterhead } from '~/models/company-letterhead.server'
import { getQuote } from '~/models/quote.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/quote-pdf'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const today = localDateAt(new Date(), access.timezone)
  const [quote, company] = await Promise.all([
    getQuote({
      companyId: access.companyId,
      customerId: access.customerId,
      quoteId: params.quoteId,
      today,
      latestSent: true,
    }),
    getCompanyLetterhead(access.companyId),
  ])
  if (!quote || !company) notFound()
  return quotePdfResponse(quote, company)
}
