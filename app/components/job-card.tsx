import { Link } from 'react-router'
import { formatTime } from '~/utils/dates'
import { cn } from './ui/cn'

export type JobCardData = {
  id: string
  customerName: string
  address: string
  scheduledAt: string
  status: 'Completed' | 'Overdue' | 'Scheduled'
  technicianName: string | null
  timezone: string
  companyName?: string
}

const STATUS_STYLES = {
  Completed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  Overdue: 'bg-red-50 text-red-800 ring-red-200',
  Scheduled: 'bg-brand-50 text-brand-800 ring-brand-100',
} as const

/** One visit: who, where, when, its status, and the Open link (SPEC §2 job cards). */
export function JobCard({ job }: { job: JobCardData }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-slate-900">{job.customerName}</h3>
          <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1', STATUS_STYLES[job.status])}>
            {job.status}
          </span>
          {job.technicianName ? null : (
            <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200">
              Unassigned
            </span>
          )}
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
