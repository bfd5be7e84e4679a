// GET /app/settings/export.zip — Settings' "Export all data": the company's customers, locations, bodies of water,
// plans, visits and readings (and invoices and payments) as a ZIP of CSV files, streamed as it is written.
// Owners and admins only: it holds every customer's contact details and gate codes.

import { requireCompanyCapability } from '~/auth/guards.server'
import { exportAllData } from '~/models/data-export.server'
import type { Route } from './+types/data-export'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId } = await requireCompanyCapability(request, 'data:export')
  const day = new Date().toISOString().slice(0, 10)
  return new Response(exportAllData(companyId), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="pool-bud-export-${day}.zip"`,
      'Cache-Control': 'private, no-store',
    },
  })
}
