// "Skip visit" on the visit page: a reason from docs/product.md "Schedule"'s list ("Other" with a few words), checked
// by the same SkipVisitSchema as the model. Opens from a button so the page stays short on a phone. With JavaScript and
// `onQueue`, the skip goes through the phone's queue like the visit's other changes; without it the form posts.
import { getCollectionProps, getFormProps, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { FieldError, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { SKIP_REASONS, SkipVisitSchema } from '~/models/service-plan-schemas'
import { formFields } from './form-fields'
import type { Queued } from './use-visit-changes'

export function SkipVisitForm({
  lastResult,
  onQueue,
}: {
  lastResult?: SubmissionResult<string[]>
  onQueue?: (fields: Record<string, string>) => Promise<Queued>
}) {
  const skipping = usePosting('skip-visit')
  // A refused skip comes back open, with its errors.
  const [open, setOpen] = useState(Boolean(lastResult))
  const [queueError, setQueueError] = useState<string | null>(null)
  const [form, fields] = useZodForm(SkipVisitSchema, {
    id: 'skip-visit',
    lastResult,
    // No constraint from the schema: Conform cannot read one through its transform ("Other: …").
    constraint: null,
    onSubmit: onQueue
      ? async (event, { formData }) => {
          event.preventDefault()
          const queued = await onQueue(formFields(formData))
          setQueueError(queued.ok ? null : queued.message)
        }
      : undefined,
  })
  const reasonErrorId = `${fields.reason.id}-error`
  if (!open) {
    return (
      <Button type="button" variant="secondary" onClick={() => setOpen(true)}>
        Skip visit
      </Button>
    )
  }
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value="skip-visit" />
      <fieldset className="space-y-2" aria-describedby={fields.reason.errors ? reasonErrorId : undefined}>
        <legend className="text-sm font-medium text-slate-800">Why is the visit skipped?</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {getCollectionProps(fields.reason, { type: 'radio', options: [...SKIP_REASONS] }).map(({ key, ...props }) => (
            <label
              key={key}
              htmlFor={props.id}
              className="flex min-h-11 items-center gap-3 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input {...props} className="size-5 accent-brand-700" />
              {props.value}
            </label>
          ))}
        </div>
        <FieldError id={reasonErrorId} errors={fields.reason.errors} />
      </fieldset>
      {fields.reason.value === 'Other' ? (
        <TextField field={fields.otherReason} label="Other reason" autoComplete="off" />
      ) : null}
      <FormErrors form={form} />
      {queueError ? <Alert tone="error">{queueError}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={skipping} pendingLabel="Skipping…">
          Skip visit
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Keep visit
        </Button>
      </div>
    </Form>
  )
}
