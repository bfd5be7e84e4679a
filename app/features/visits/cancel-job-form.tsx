// "Cancel job" on the visit page, for the office: asked once more before it is done (OPERATIONS §4).
import { useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'

export function CancelJobForm({ error }: { error?: string | null }) {
  const [confirming, setConfirming] = useState(false)
  const navigation = useNavigation()
  const cancelling = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'cancel-job'
  return (
    <div className="space-y-2">
      {confirming ? (
        <Form method="post" className="space-y-3 rounded-lg border border-red-200 p-3">
          <input type="hidden" name="intent" value="cancel-job" />
          <p className="text-sm text-slate-800">Cancel this job? It stays in history as Cancelled.</p>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" pending={cancelling} pendingLabel="Cancelling…">
              Yes, cancel job
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Keep job
            </Button>
          </div>
        </Form>
      ) : (
        <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
          Cancel job
        </Button>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  )
}
