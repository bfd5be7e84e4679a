import { Link } from 'react-router'
import { formatTime } from '~/utils/dates'
import { StatusBadge, type VisitStatusLabel } from './status-badge'

export type VisitCardData = {
  id: string
  customerName: string
  address: string
  scheduledAt: string
  status: VisitStatusLabel
  technicianName: string | null
  timezone: string
  companyName?: string
}

/** One visit: who, where, when, its status, and the Open link (docs/product.md "Screens" visit cards). */
export function VisitCard({ visit }: { visit: VisitCardData }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-slate-900">{visit.customerName}</h3>
          <StatusBadge status={visit.status} />
          {visit.technicianName ? null : <StatusBadge status="Unassigned" />}
        </div>
        <p className="text-sm text-slate-600">{visit.address}</p>
        <p className="text-sm text-slate-600">
          <time dateTime={visit.scheduledAt}>{formatTime(visit.scheduledAt, visit.timezone)}</time>
          {visit.technicianName ? ` · ${visit.technicianName}` : ''}
          {visit.companyName ? ` · ${visit.companyName}` : ''}
        </p>
      </div>
      <Link
        to={`/visits/${visit.id}`}
        className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-4 text-sm font-semibold text-brand-800 hover:bg-slate-50"
        aria-label={`Open ${visit.customerName} at ${formatTime(visit.scheduledAt, visit.timezone)}`}
      >
        Open
      </Link>
    </li>
  )
}
