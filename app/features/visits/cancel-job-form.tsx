// "Cancel job" on the visit page, for the office: asked once more before it is done (docs/product.md "Schedule").
import { ConfirmForm } from '~/components/confirm-buttons'

export function CancelJobForm({ error }: { error?: string | null }) {
  return (
    <div className="space-y-2">
      <ConfirmForm
        fields={{ intent: 'cancel-job' }}
        label="Cancel job"
        pendingLabel="Canceling…"
        className="space-y-3 rounded-lg border border-red-200 p-3"
        question={<p className="text-sm text-slate-800">Cancel this job? It stays in history as Canceled.</p>}
        confirm="Yes, cancel job"
        cancel="Keep job"
        error={error}
      />
    </div>
  )
}
