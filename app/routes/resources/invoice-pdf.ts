// GET /app/invoices/:invoiceId.pdf — "Download PDF" in the office (issue 31 item 4): the invoice page's guard
// (owners and admins); another company's invoice, or an id that is none, is a 404.
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { invoicePdfResponse } from '~/features/billing/invoice-pdf.server'
import { getCompanyLetterhead } from '~/models/company-letterhead.server'
import { getInvoice } from '~/models/invoice.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/invoice-pdf'

export async function loader({ request, params }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'billing:manage')
  const today = localDateAt(new Date(), member.timezone)
  const [invoice, company] = await Promise.all([
    getInvoice({ companyId: member.companyId, invoiceId: params.invoiceId, today }),
    getCompanyLetterhead(member.companyId),
  ])
  if (!invoice || !company) notFound()
  return invoicePdfResponse(invoice, company)
}
