// "Notes" on the visit page (docs/product.md "The visit"): "Note for office" (stays inside the company) and
// "Note for customer" (printed in the service report). Each is saved as the whole note as it now reads — when the field
// loses focus, and after 1.5 seconds without typing — through the phone's queue; the last one sent wins. Without
// JavaScript the two fields are a Conform form with "Save notes", its refusal shown at the note it is about. Conform
// checks only that submit: typing is never validated, it is only queued.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { Form } from 'react-router'
import { IdempotencyKeyInput } from '~/components/idempotency-key'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { type ConformField, FieldFrame, inputClass } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { NOTE_MAX, VisitNotesSchema } from '~/field/changes'
import { useHydrated } from '~/utils/use-hydrated'
import type { Queued } from './use-visit-changes'

export type NoteAudience = 'office' | 'customer'

const TYPING_PAUSE_MS = 1500

/** The two notes: the field each posts as, its label and what it is for. */
const NOTES = [
  { audience: 'office', name: 'officeNote', label: 'Note for office', hint: 'Only your company sees this.' },
  {
    audience: 'customer',
    name: 'customerNote',
    label: 'Note for customer',
    hint: "Printed in the customer's service report.",
  },
] as const

export function VisitNotes({
  officeNote,
  customerNote,
  waiting,
  formKey,
  lastResult,
  onSave,
}: {
  /** The notes as the page knows them (the server's, or a queued one's text). */
  officeNote: string
  customerNote: string
  /** Which notes are still on the phone. */
  waiting: ReadonlySet<NoteAudience>
  formKey: string
  /** The plain form's refusal (no JavaScript). */
  lastResult: SubmissionResult<string[]> | undefined
  onSave: (audience: NoteAudience, text: string) => Promise<Queued>
}) {
  const hydrated = useHydrated()
  const [form, fields] = useZodForm(VisitNotesSchema, { id: 'visit-notes', lastResult })
  return (
    <Card className="space-y-4" aria-labelledby="notes-heading">
      <h2 id="notes-heading" className="text-lg font-semibold">
        Notes
      </h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="notes" />
        <IdempotencyKeyInput value={formKey} />
        {NOTES.map(({ audience, name, label, hint }) => (
          <NoteField
            key={audience}
            field={fields[name]}
            label={label}
            hint={hint}
            initial={audience === 'office' ? officeNote : customerNote}
            waiting={waiting.has(audience)}
            onSave={(text) => onSave(audience, text)}
          />
        ))}
        <FormErrors form={form} />
        {hydrated ? null : (
          <Button type="submit" variant="secondary" className="w-full">
            Save notes
          </Button>
        )}
      </Form>
    </Card>
  )
}

type NoteState = { kind: 'idle' } | { kind: 'saved' } | { kind: 'failed'; message: string }

function NoteField({
  field,
  label,
  hint,
  initial,
  waiting,
  onSave,
}: {
  field: ConformField
  label: string
  hint: string
  initial: string
  waiting: boolean
  onSave: (text: string) => Promise<Queued>
}) {
  const { id } = field
  const [text, setText] = useState(initial)
  const [state, setState] = useState<NoteState>({ kind: 'idle' })
  // The text last handed to the queue (or read from the server): nothing is sent twice for the same words.
  const savedText = useRef(initial)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  async function save(value: string) {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    if (value === savedText.current) return
    const queued = await onSave(value)
    if (queued.ok) {
      savedText.current = value
      setState({ kind: 'saved' })
    } else {
      // What was typed stays in the field; the next pause or leaving the field tries again.
      setState({ kind: 'failed', message: queued.message })
    }
  }

  // Leaving the page within the pause still keeps the note.
  const saveLatest = useRef(() => {})
  saveLatest.current = () => void save(text)
  useEffect(
    () => () => {
      if (timer.current) saveLatest.current()
    },
    [],
  )

  const tooLong = text.length > NOTE_MAX
  const statusId = `${id}-status`
  // The plain form's refusal of this note (no JavaScript), drawn by the frame under the status line.
  const refused = Boolean(field.errors?.length)
  return (
    <FieldFrame id={id} label={label} errors={field.errors}>
      <textarea
        id={id}
        name={field.name}
        rows={3}
        maxLength={NOTE_MAX}
        value={text}
        aria-describedby={cn(statusId, refused && `${id}-error`)}
        aria-invalid={tooLong || refused || state.kind === 'failed' || undefined}
        onChange={(event) => {
          const value = event.currentTarget.value
          setText(value)
          setState({ kind: 'idle' })
          if (timer.current) clearTimeout(timer.current)
          timer.current = setTimeout(() => void save(value), TYPING_PAUSE_MS)
        }}
        onBlur={() => void save(text)}
        className={cn(inputClass, 'min-h-24')}
      />
      <p id={statusId} className={cn('text-xs', state.kind === 'failed' ? 'text-danger' : 'text-slate-600')}>
        {state.kind === 'failed'
          ? state.message
          : waiting
            ? 'Waiting to send'
            : state.kind === 'saved'
              ? 'Saved'
              : hint}
      </p>
    </FieldFrame>
  )
}
