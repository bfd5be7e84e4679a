import { Link } from 'react-router'
import { formatTime } from '~/utils/dates'
import { type JobStatusLabel, StatusBadge } from './status-badge'

export type JobCardData = {
  id: string
  customerName: string
  address: string
  scheduledAt: string
  status: JobStatusLabel
  technicianName: string | null
  timezone: string
  companyName?: string
}

/** One visit: who, where, when, its status, and the Open link (docs/product.md "Screens" job cards). */
export function JobCard({ job }: { job: JobCardData }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-slate-900">{job.customerName}</h3>
          <StatusBadge status={job.status} />
          {job.technicianName ? null : <StatusBadge status="Unassigned" />}
        </div>
        <p className="text-sm text-slate-600">{job.address}</p>
        <p className="text-sm text-slate-600">
          <time dateTime={job.scheduledAt}>{formatTime(job.scheduledAt, job.timezone)}</time>
          {job.technicianName ? ` · ${job.technicianName}` : ''}
          {job.companyName ? ` · ${job.companyName}` : ''}
        </p>
      </div>
      <Link
        to={`/jobs/${job.id}`}
        className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-4 text-sm font-semibold text-brand-800 hover:bg-slate-50"
        aria-label={`Open ${job.customerName} at ${formatTime(job.scheduledAt, job.timezone)}`}
      >
        Open
      </Link>
    </li>
  )
}
