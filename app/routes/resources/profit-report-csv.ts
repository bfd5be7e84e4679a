// GET /app/reports/profit.csv — "Profit per pool"'s CSV: every row of the report for the period and order in the
// address (the page's "Export CSV" link carries them), not just the page on screen. Owners and admins only.
import { requireCompanyCapability } from '~/auth/guards.server'
import { profitCsvFileName, profitToCsv } from '~/features/reports/profit-csv'
import { readProfitParams } from '~/features/reports/profit-params'
import { profitReportRows } from '~/models/profit-report.server'
import { localDateAt } from '~/schedule/local-date'
import type { Route } from './+types/profit-report-csv'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'billing:manage')
  const { range, sort, dir } = readProfitParams(new URL(request.url), localDateAt(new Date(), timezone))
  if (!range.ok) {
    return new Response(range.message, { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  const { rows } = await profitReportRows({ companyId, timezone, from: range.from, to: range.to, sort, dir })
  return new Response(profitToCsv(rows), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${profitCsvFileName(range.from, range.to)}"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
