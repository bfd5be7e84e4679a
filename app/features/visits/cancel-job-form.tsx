// "Cancel job" on the visit page, for the office: asked once more before it is done (OPERATIONS §4).
import { useNavigation } from 'react-router'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Alert } from '~/components/ui/alert'

export function CancelJobForm({ error }: { error?: string | null }) {
  const navigation = useNavigation()
  const cancelling = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'cancel-job'
  return (
    <div className="space-y-2">
      <ConfirmForm
        fields={{ intent: 'cancel-job' }}
        label="Cancel job"
        pending={cancelling}
        pendingLabel="Cancelling…"
        className="space-y-3 rounded-lg border border-red-200 p-3"
        question={<p className="text-sm text-slate-800">Cancel this job? It stays in history as Cancelled.</p>}
        confirm="Yes, cancel job"
        cancel="Keep job"
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  )
}
