// The visit page's way out of an open visit other than "Mark Complete": "Skip visit" and, for the office,
// "Cancel job". A finished visit (completed, skipped, cancelled) offers neither.
import type { SubmissionResult } from '@conform-to/react'
import { Card } from '~/components/ui/card'
import { CancelJobForm } from './cancel-job-form'
import { SkipVisitForm } from './skip-visit-form'

type OutcomeActionData = { intent?: unknown; result?: unknown; error?: unknown } | undefined

export function VisitOutcome({
  canSkip,
  canCancel,
  actionData,
}: {
  canSkip: boolean
  canCancel: boolean
  actionData: OutcomeActionData
}) {
  if (!canSkip && !canCancel) return null
  const skipResult =
    actionData?.intent === 'skip-visit' ? (actionData.result as SubmissionResult<string[]> | undefined) : undefined
  const cancelError =
    actionData?.intent === 'cancel-job' && typeof actionData.error === 'string' ? actionData.error : null
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Can't do this visit?</h2>
      {canSkip ? <SkipVisitForm lastResult={skipResult} /> : null}
      {canCancel ? <CancelJobForm error={cancelError} /> : null}
    </Card>
  )
}
