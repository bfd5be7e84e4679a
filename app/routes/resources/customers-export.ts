// GET /app/customers/export.csv — "Export customers (CSV)" (docs/product.md "Import"): every customer of the company
// with locations, bodies of water, plans and balance, in the columns the import reads; cells a spreadsheet would run as
// formulas are escaped. Written a page of customers at a time as it is sent. Office roles only, like the list.

import { requireCompanyCapability } from '~/auth/guards.server'
import { exportCustomersCsvStream } from '~/models/customer-export.server'
import type { Route } from './+types/customers-export'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'customers:manage')
  const day = new Date().toISOString().slice(0, 10)
  return new Response(exportCustomersCsvStream(companyId), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="customers-${day}.csv"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
