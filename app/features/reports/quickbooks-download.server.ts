// GET /app/billing/quickbooks.iif and /app/billing/quickbooks.csv ("Export for QuickBooks", docs/billing.md): the
// month's file as a download. Owners and admins only ('billing:manage': every invoice and payment of the company).
// The month is the company's (`?month=2026-11`; none: last month, as on the billing page); another form is a 400.
// `?basis=service-period` (the default) or `invoice-date` chooses the month's invoices (app/billing/quickbooks.ts).
import { requireCompanyCapability } from '~/auth/guards.server'
import { quickBooksFileName, readQuickBooksBasis } from '~/billing/quickbooks'
import { exportQuickBooksIif, exportQuickBooksOnlineCsv } from '~/models/quickbooks-export.server'
import { localDateAt } from '~/schedule/local-date'
import { readMonth } from './report-period'

const FORMATS = {
  // IIF is ASCII text (app/billing/quickbooks.ts folds it); QuickBooks Desktop opens it by its extension.
  iif: { contentType: 'text/plain; charset=us-ascii', build: exportQuickBooksIif },
  csv: { contentType: 'text/csv; charset=utf-8', build: exportQuickBooksOnlineCsv },
} as const

/**
 * The file for `?month=&basis=`, as an attachment named `pool-bud-quickbooks-2026-11-by-service-period.iif` (or
 * `.csv`).
 */
export async function quickBooksDownload(request: Request, format: keyof typeof FORMATS) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'billing:manage')
  const choice = readMonth(new URL(request.url).searchParams.get('month'), localDateAt(new Date(), timezone))
  if (!choice.ok) {
    return new Response(choice.message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  const basis = readQuickBooksBasis(new URL(request.url).searchParams.get('basis'))
  const { contentType, build } = FORMATS[format]
  const body = await build({ companyId, period: choice.period, basis })
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${quickBooksFileName(choice.month, basis, format)}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
