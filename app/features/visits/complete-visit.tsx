// "Mark Complete" (docs/product.md "The visit"): a confirmation that lists what is still missing — unticked items,
// "Photo required" items without a photo, no reading — with "Complete visit" and "Keep working"; then the completion
// waits 10 seconds on the phone, with "Undo", before it is sent. Without JavaScript the button posts the 'complete'
// intent and the visit is completed at once.
import { useEffect, useState } from 'react'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Button } from '~/components/ui/button'
import type { Queued } from './use-visit-changes'

/** How long "Undo" is offered before the completion is sent. */
export const UNDO_MS = 10_000

export function MarkComplete({
  missing,
  onComplete,
}: {
  missing: readonly string[]
  onComplete: () => Promise<Queued>
}) {
  const [error, setError] = useState<string | null>(null)
  return (
    <section aria-label="Finish the visit" className="space-y-2">
      <ConfirmForm
        fields={{ intent: 'complete' }}
        label="Mark Complete"
        variant="primary"
        buttonClassName="w-full text-base"
        pendingLabel="Completing…"
        title="Complete this visit?"
        onAsk={() => setError(null)}
        question={
          missing.length ? (
            <div className="space-y-2">
              <p className="text-sm text-slate-800">Still missing:</p>
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800" aria-label="Still missing">
                {missing.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-sm text-slate-800">Everything on the checklist is done.</p>
          )
        }
        confirm="Complete visit"
        cancel="Keep working"
        onConfirm={async () => {
          const queued = await onComplete()
          if (!queued.ok) setError(queued.message)
        }}
        error={error}
      />
    </section>
  )
}

/** What the confirmation lists as missing. */
export function missingWork({
  items,
  ticked,
  hasPhoto,
  hasReading,
}: {
  items: readonly { id: string; label: string; photoRequired: boolean }[]
  ticked: ReadonlySet<string>
  hasPhoto: boolean
  hasReading: boolean
}) {
  return [
    ...items.filter((item) => !ticked.has(item.id)).map((item) => `Not ticked: ${item.label}`),
    ...(hasPhoto ? [] : items.filter((item) => item.photoRequired).map((item) => `Photo required: ${item.label}`)),
    ...(hasReading ? [] : ['No chemical reading']),
  ]
}

/** Seconds left of a hold, counting down once a second (0 once it has passed). */
export function useSecondsLeft(until: number | undefined) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!until) return
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [until])
  return until ? Math.max(0, Math.ceil((until - now) / 1000)) : 0
}

/** The banner of a visit completed on this phone: "Undo" while the completion is held, then its sending state. */
export function CompletedBanner({
  heldUntil,
  waiting,
  onUndo,
}: {
  heldUntil: number | undefined
  waiting: boolean
  onUndo: () => Promise<boolean>
}) {
  const seconds = useSecondsLeft(heldUntil)
  const [undoFailed, setUndoFailed] = useState(false)
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-emerald-900"
    >
      <p className="font-semibold">
        Visit completed.{' '}
        {seconds > 0 ? null : waiting ? <span className="font-medium text-amber-900">Waiting to send</span> : null}
      </p>
      {seconds > 0 ? (
        <Button
          type="button"
          variant="secondary"
          onClick={async () => setUndoFailed(!(await onUndo()))}
          aria-label={`Undo (${seconds} seconds left)`}
        >
          Undo ({seconds} s)
        </Button>
      ) : null}
      {undoFailed ? <p className="w-full text-sm">Too late to undo: the completion was already sent.</p> : null}
    </div>
  )
}
