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
  visit: { state: string; completed: string | null; completedBy: string | null; skipReason: string | null },
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
  if (visit.state === 'completed') {
    return (
      <p className="text-emerald-800">
        Completed {visit.completed}
        {visit.completedBy ? ` by ${visit.completedBy}` : ''}
      </p>
    )
  }
  if (visit.state === 'skipped') return <p className="text-amber-900">Skipped: {visit.skipReason}</p>
  if (visit.state === 'canceled') return <p className="text-slate-700">Canceled</p>
  return null
}
