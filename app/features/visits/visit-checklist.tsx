// "Checklist" on the visit page (docs/product.md "The visit"): the company's items, each saved the moment it is tapped
// (through the phone's queue, so a tick made without signal is kept and sent later). Without JavaScript the boxes are a
// Conform form with a "Save checklist" button; Conform checks only that submit, never a tap.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { Form } from 'react-router'
import { IdempotencyKeyInput } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FieldError } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { ChecklistItem } from '~/models/checklist.server'
import { useHydrated } from '~/utils/use-hydrated'
import type { Queued } from './use-visit-changes'
import { VisitChecklistSchema } from './visit-page-schema'

export function VisitChecklist({
  items,
  ticked,
  formKey,
  lastResult,
  onToggle,
}: {
  items: readonly ChecklistItem[]
  /** Item ids ticked, queued ticks included. */
  ticked: ReadonlySet<string>
  formKey: string
  /** The plain form's refusal (no JavaScript). */
  lastResult: SubmissionResult<string[]> | undefined
  onToggle: (itemId: string, checked: boolean) => Promise<Queued>
}) {
  const hydrated = useHydrated()
  const [form, fields] = useZodForm(VisitChecklistSchema, { id: 'visit-checklist', lastResult })
  const ticks = fields.itemId
  // The boxes are one field: a refusal of any of them (an item that does not exist) shows under the list.
  const tickErrors = Object.values(ticks.allErrors).flat()
  const ticksErrorId = `${ticks.id}-error`
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
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value="checklist" />
        <IdempotencyKeyInput value={formKey} />
        <ul className="divide-y divide-slate-100">
          {items.map((item) => (
            <li key={item.id}>
              <label className="flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-2 py-1 hover:bg-slate-50">
                <input
                  type="checkbox"
                  name={ticks.name}
                  value={item.id}
                  checked={ticked.has(item.id)}
                  aria-invalid={tickErrors.length > 0 || undefined}
                  aria-describedby={tickErrors.length > 0 ? ticksErrorId : undefined}
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
        <FieldError id={ticksErrorId} errors={tickErrors} />
        {failed ? <Alert tone="error">{failed}</Alert> : null}
        <FormErrors form={form} />
        {hydrated ? null : (
          <Button type="submit" variant="secondary" className="w-full">
            Save checklist
          </Button>
        )}
      </Form>
    </Card>
  )
}
