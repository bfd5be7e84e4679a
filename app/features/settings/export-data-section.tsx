// Settings → "Export all data" (owners and admins): every record of the company as CSV files in one ZIP.
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'

export function ExportDataSection() {
  return (
    <Card className="space-y-3" aria-labelledby="export-all-data">
      <h2 id="export-all-data" className="text-lg font-semibold">
        Export all data
      </h2>
      <p className="text-sm text-slate-700">
        A ZIP of CSV files: customers, service locations, bodies of water, service plans, visits, readings, invoices and
        payments, with the ids that link them.
      </p>
      <a href="/app/settings/export.zip" download className={buttonClass('secondary')}>
        Export all data
      </a>
    </Card>
  )
}
