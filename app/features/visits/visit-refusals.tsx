// Changes the server refused (the visit was reassigned, canceled or completed by someone else meanwhile): each is
// shown with its reason and what was not applied, until the technician dismisses it. Nothing is dropped silently.
import { Button } from '~/components/ui/button'
import { dismissRefused, useFieldQueue } from '~/field/queue'
import { type ChangeContext, describeChange } from './describe-change'
import { type RefusedChange, refusedOf } from './use-visit-changes'

export function VisitRefusals({
  refused,
  context,
  onDismiss,
}: {
  refused: readonly RefusedChange[]
  context: ChangeContext
  onDismiss: (key: string) => void
}) {
  if (refused.length === 0) return null
  return (
    <section aria-label="Changes not saved" className="space-y-2">
      {refused.map((item) => (
        <div
          key={item.key}
          role="alert"
          className="flex flex-wrap items-start justify-between gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-danger"
        >
          <p className="min-w-0 flex-1 break-words">
            <strong>Not saved:</strong> {item.reason}{' '}
            {item.change ? describeChange(item.change, context) : `Photo ${item.photo ?? ''}`}
          </p>
          <Button type="button" variant="secondary" onClick={() => onDismiss(item.key)}>
            Dismiss
          </Button>
        </div>
      ))}
    </section>
  )
}

const NO_NAMES: ChangeContext = { items: new Map(), stock: new Map() }

/**
 * The changes this phone made to a visit it can no longer open (given to another technician, say: the page is a 404
 * for this technician now), refused by the server: still shown with what was not saved, until dismissed.
 */
export function RefusedOnThisPhone({ visitId }: { visitId: string }) {
  const { refused } = useFieldQueue(visitId)
  return (
    <VisitRefusals refused={refused.map(refusedOf)} context={NO_NAMES} onDismiss={(key) => void dismissRefused(key)} />
  )
}
