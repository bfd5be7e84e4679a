import { cn } from './ui/cn'

export type JobStatusLabel = 'Completed' | 'Overdue' | 'Scheduled' | 'Unassigned'

const STYLES: Record<JobStatusLabel, string> = {
  Completed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  Overdue: 'bg-red-50 text-red-800 ring-red-200',
  Scheduled: 'bg-brand-50 text-brand-800 ring-brand-100',
  Unassigned: 'bg-amber-50 text-amber-800 ring-amber-200',
}

/** A job's state as SPEC §4 names it: Completed, Overdue, Scheduled, or Unassigned. */
export function StatusBadge({ status }: { status: JobStatusLabel }) {
  return <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium ring-1', STYLES[status])}>{status}</span>
}
