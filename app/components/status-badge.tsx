import { cn } from './ui/cn'

export type VisitStatusLabel = 'Completed' | 'Skipped' | 'Canceled' | 'Overdue' | 'Scheduled' | 'Unassigned'

// `.pill` and its tones are named in app.css: lists show one on every row.
const PILL = 'pill'

const STYLES: Record<VisitStatusLabel, string> = {
  Completed: 'pill-green',
  Skipped: 'pill-amber',
  Canceled: 'pill-slate',
  Overdue: 'pill-red',
  Scheduled: 'pill-brand',
  Unassigned: 'pill-amber',
}

/**
 * A visit's state as docs/product.md "Visit states" names it: Completed, Overdue, Scheduled, or Unassigned; or Skipped,
 * Canceled.
 */
export function StatusBadge({ status }: { status: VisitStatusLabel }) {
  return <span className={cn(PILL, STYLES[status])}>{status}</span>
}

const PILL_TONES = {
  green: 'pill-green',
  amber: 'pill-amber',
  slate: 'pill-slate',
} as const

/** A small labeled pill in one of the status colors (a teammate's state, say). */
export function StatusPill({ tone, children }: { tone: keyof typeof PILL_TONES; children: string }) {
  return <span className={cn(PILL, PILL_TONES[tone])}>{children}</span>
}
