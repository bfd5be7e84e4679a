// "Checklist" on the visit page (OPERATIONS §5): the company's items, each saved the moment it is tapped (through
// the phone's queue, so a tick made without signal is kept and sent later). Without JavaScript the boxes are a
// plain form with a "Save checklist" button.
import { useState } from 'react'
import { Form } from 'react-router'
import { IdempotencyKeyInput } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { ChecklistItem } from '~/models/checklist.server'
import { useHydrated } from '~/utils/use-hydrated'
import type { Queued } from './use-visit-changes'

export function VisitChecklist({
  items,
  ticked,
  formKey,
  error,
  onToggle,
}: {
  items: readonly ChecklistItem[]
  /** Item ids ticked, queued ticks included. */
  ticked: ReadonlySet<string>
  formKey: string
  /** A plain form's refusal (no JavaScript). */
  error: string | null
  onToggle: (itemId: string, checked: boolean) => Promise<Queued>
}) {
  const hydrated = useHydrated()
  const [failed, setFailed] = useState<string | null>(null)
  const done = items.filter((item) => ticked.has(item.id)).length
  return (
    <Card className="space-y-3" aria-labelledby="checklist-heading">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="checklist-heading" className="text-lg font-semibold">
          Checklist
        </h2>
        <p className="text-sm text-slate-600">
          {done} of {items.length} done
        </p>
      </div>
      {items.length === 0 ? <p className="text-sm text-slate-600">The company has no checklist items.</p> : null}
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="checklist" />
        <IdempotencyKeyInput value={formKey} />
        <ul className="divide-y divide-slate-100">
          {items.map((item) => (
            <li key={item.id}>
              <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-2 py-1 hover:bg-slate-50">
                <input
                  type="checkbox"
                  name="itemId"
                  value={item.id}
                  checked={ticked.has(item.id)}
                  onChange={async (event) => {
                    if (!hydrated) return
                    const checked = event.currentTarget.checked
                    const queued = await onToggle(item.id, checked)
                    setFailed(queued.ok ? null : queued.message)
                  }}
                  className="size-6 shrink-0 accent-brand-700"
                />
                <span className="flex-1 text-base">{item.label}</span>
                {item.photoRequired ? (
                  <span className="shrink-0 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200">
                    Photo required
                  </span>
                ) : null}
              </label>
            </li>
          ))}
        </ul>
        {failed ? <Alert tone="error">{failed}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        {hydrated ? null : (
          <Button type="submit" variant="secondary" className="w-full">
            Save checklist
          </Button>
        )}
      </Form>
    </Card>
  )
}
