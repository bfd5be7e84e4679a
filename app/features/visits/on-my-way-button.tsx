// "On my way" on the technician's next stop (docs/product.md "The visit", "Notices"): tells the customer, with an
// arrival estimate the server works out from the route. It goes through the phone's queue like every change to a visit,
// so a tap with no signal is sent when the signal returns (and not at all if the estimate has passed by then).
import { useState } from 'react'
import { cn } from '~/components/ui/cn'
import { queueChange } from '~/field/queue'

export function OnMyWayButton({
  visitId,
  customerName,
  told,
}: {
  visitId: string
  customerName: string
  told: boolean
}) {
  const [state, setState] = useState<'idle' | 'sending' | 'queued' | { error: string }>(told ? 'queued' : 'idle')
  if (state === 'queued') {
    return (
      <p
        className="relative z-10 mt-3 rounded-lg bg-emerald-50 px-4 py-3 text-base font-semibold text-emerald-900"
        role="status"
      >
        {`${customerName} is told you are on the way.`}
      </p>
    )
  }
  return (
    <div className="relative z-10 mt-3">
      <button
        type="button"
        disabled={state === 'sending'}
        onClick={async () => {
          setState('sending')
          const queued = await queueChange(visitId, { type: 'on-my-way' })
          setState(queued.ok ? 'queued' : { error: queued.message })
        }}
        className={cn(
          'inline-flex min-h-12 w-full items-center justify-center rounded-lg border-2 border-brand-700 bg-white px-4 text-base font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60',
        )}
      >
        {state === 'sending' ? 'Telling the customer…' : 'On my way'}
      </button>
      {typeof state === 'object' ? (
        <p className="mt-2 text-sm font-medium text-red-800" role="alert">
          {state.error}
        </p>
      ) : null}
    </div>
  )
}
