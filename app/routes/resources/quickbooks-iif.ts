// GET /app/billing/quickbooks.iif?month=YYYY-MM — the month's invoices and payments for QuickBooks Desktop.
import { quickBooksDownload } from '~/features/reports/quickbooks-download.server'
import type { Route } from './+types/quickbooks-iif'

export async function loader({ request }: Route.LoaderArgs) {
  return quickBooksDownload(request, 'iif')
}
