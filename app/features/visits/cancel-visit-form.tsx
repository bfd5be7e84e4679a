// "Cancel visit" on the visit page, for the office: asked once more before it is done (docs/product.md "Schedule").
import { ConfirmForm } from '~/components/confirm-buttons'

export function CancelVisitForm({ error }: { error?: string | null }) {
  return (
    <div className="space-y-2">
      <ConfirmForm
        fields={{ intent: 'cancel-visit' }}
        label="Cancel visit"
        pendingLabel="Canceling…"
        className="space-y-3 rounded-lg border border-red-200 p-3"
        question={<p className="text-sm text-slate-800">Cancel this visit? It stays in history as Canceled.</p>}
        confirm="Yes, cancel visit"
        cancel="Keep visit"
        error={error}
      />
    </div>
  )
}
