// GET /app/billing/print.pdf?month=YYYY-MM — the print batch of "Send invoices" (issue 31 item 4): one PDF with the
// month's invoices for customers who have no email address, each from a new page. Owners and admins, like the
// billing page; a month in another form is a 400.
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { printBatchResponse } from '~/features/billing/invoice-pdf.server'
import { readMonth } from '~/features/reports/report-period'
import { getCompanyLetterhead } from '~/models/company-letterhead.server'
import { getInvoice, type InvoiceDetail } from '~/models/invoice.server'
import { printBatchInvoiceIds } from '~/models/invoice-send.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/invoices-print'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'billing:manage')
  const today = localDateAt(new Date(), timezone)
  const choice = readMonth(new URL(request.url).searchParams.get('month'), today)
  if (!choice.ok) {
    return new Response(choice.message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  const company = await getCompanyLetterhead(companyId)
  if (!company) notFound()
  const list: InvoiceDetail[] = []
  for (const invoiceId of await printBatchInvoiceIds({ companyId, period: choice.period })) {
    const invoice = await getInvoice({ companyId, invoiceId, today })
    if (invoice) list.push(invoice)
  }
  return printBatchResponse(list, company, choice.month)
}
