import { cn } from './ui/cn'

export type JobStatusLabel = 'Completed' | 'Skipped' | 'Cancelled' | 'Overdue' | 'Scheduled' | 'Unassigned'

const PILL = 'rounded-full px-2 py-0.5 text-xs font-medium ring-1'

const STYLES: Record<JobStatusLabel, string> = {
  Completed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  Skipped: 'bg-amber-50 text-amber-800 ring-amber-200',
  Cancelled: 'bg-slate-100 text-slate-700 ring-slate-200',
  Overdue: 'bg-red-50 text-red-800 ring-red-200',
  Scheduled: 'bg-brand-50 text-brand-800 ring-brand-100',
  Unassigned: 'bg-amber-50 text-amber-800 ring-amber-200',
}

/** A job's state as SPEC §4 names it: Completed, Overdue, Scheduled, or Unassigned; or Skipped, Cancelled. */
export function StatusBadge({ status }: { status: JobStatusLabel }) {
  return <span className={cn(PILL, STYLES[status])}>{status}</span>
}

const PILL_TONES = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
} as const

/** A small labelled pill in one of the status colours (a teammate's state, say). */
export function StatusPill({ tone, children }: { tone: keyof typeof PILL_TONES; children: string }) {
  return <span className={cn(PILL, PILL_TONES[tone])}>{children}</span>
}
