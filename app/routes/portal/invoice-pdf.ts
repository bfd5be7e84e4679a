// GET /customer/:customerId/invoices/:invoiceId.pdf — "Download PDF" in the portal (issue 31 item 4): the portal's
// own customer (or staff previewing it), their own sent invoices only; a draft, another customer's or another
// company's invoice is a 404.
import { notFound, requirePortalAccess } from '~/auth/guards.server'
import { invoicePdfResponse } from '~/features/billing/invoice-pdf.server'
import { getCompanyLetterhead } from '~/models/company-letterhead.server'
import { getInvoice } from '~/models/invoice.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/invoice-pdf'

export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const today = localDateAt(new Date(), access.timezone)
  const [invoice, company] = await Promise.all([
    getInvoice({
      companyId: access.companyId,
      invoiceId: params.invoiceId,
      customerId: access.customerId,
      today,
    }),
    getCompanyLetterhead(access.companyId),
  ])
  if (!invoice || !company) notFound()
  return invoicePdfResponse(invoice, company)
}
