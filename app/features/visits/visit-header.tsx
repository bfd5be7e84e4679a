// The top of the visit page, in the order the technician needs it at the gate (OPERATIONS §5): customer, address,
// "Gate code", "Dog on site", access notes; then when, who and the pool.
import { Link } from 'react-router'
import { SiteAccess, type SiteAccessView } from '~/components/site-access'
import { type JobStatusLabel, StatusBadge } from '~/components/status-badge'

export function VisitHeader({
  customerName,
  address,
  status,
  assigned,
  companyName,
  access,
  scheduled,
  technicianName,
  technicianPhone,
  pool,
}: {
  customerName: string
  address: string
  status: JobStatusLabel
  assigned: boolean
  /** Set for a platform admin's read-only look. */
  companyName: string | null
  access: SiteAccessView | null
  scheduled: string
  technicianName: string | null
  technicianPhone: string | null
  pool: string | null
}) {
  return (
    <header className="space-y-3">
      <Link to="/app" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700">
        ← Back to dashboard
      </Link>
      <div className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold break-words">{customerName}</h1>
          <StatusBadge status={status} />
          {assigned ? null : <StatusBadge status="Unassigned" />}
        </div>
        {companyName ? <p className="text-sm font-medium text-brand-700">{companyName} · read-only</p> : null}
        <p className="text-lg text-slate-800">{address}</p>
      </div>
      {access ? <SiteAccess access={access} className="rounded-xl border border-slate-200 bg-white p-4" /> : null}
      <div className="text-sm text-slate-700">
        <p>
          Scheduled {scheduled} · {technicianName ? `Technician: ${technicianName}` : 'Unassigned'}
          {technicianPhone ? ` · ${technicianPhone}` : ''}
        </p>
        <p>{pool ? `Pool: ${pool}` : 'Pool: no profile yet'}</p>
      </div>
    </header>
  )
}
