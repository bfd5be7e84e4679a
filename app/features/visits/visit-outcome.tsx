// How a finished visit ended, atop its summary: "Completed … by …", "Skipped: <reason>" (a skip still on the phone
// says so), "Canceled". A completion still on the phone shows its own banner instead (complete-visit.tsx).
import type { ReactNode } from 'react'
import { SkipVisitSchema } from '~/models/service-plan-schemas'
import type { PendingChange } from './use-visit-changes'

/** "Weather" for a skip's fields as typed. */
function skipReasonOf(fields: Record<string, string>) {
  const parsed = SkipVisitSchema.safeParse(fields)
  return parsed.success ? parsed.data.reason : (fields.reason ?? '')
}

/** The line, or null when there is none to show (the summary then leaves its place out). */
export function visitOutcome(
  job: { state: string; completed: string | null; completedBy: string | null; skipReason: string | null },
  pendingSkip: (PendingChange & { change: { type: 'skip'; fields: Record<string, string> } }) | undefined,
): ReactNode {
  if (pendingSkip) {
    return (
      <p className="text-amber-900">
        Skipped: {skipReasonOf(pendingSkip.change.fields)}
        {pendingSkip.waiting ? ' · Waiting to send' : ''}
      </p>
    )
  }
  if (job.state === 'completed') {
    return (
      <p className="text-emerald-800">
        Completed {job.completed}
        {job.completedBy ? ` by ${job.completedBy}` : ''}
      </p>
    )
  }
  if (job.state === 'skipped') return <p className="text-amber-900">Skipped: {job.skipReason}</p>
  if (job.state === 'cancelled') return <p className="text-slate-700">Canceled</p>
  return null
}
