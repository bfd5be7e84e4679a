// GET /app/billing/quickbooks.csv?month=YYYY-MM — the month's invoices in QuickBooks Online's invoice-import layout.
import { quickBooksDownload } from '~/features/reports/quickbooks-download.server'
import type { Route } from './+types/quickbooks-csv'

export async function loader({ request }: Route.LoaderArgs) {
  return quickBooksDownload(request, 'csv')
}
