// "Move visit" (docs/product.md "Schedule") for keyboard and touch: the modal Dialog — the page behind is inert while
// it is open, Escape closes it, and focus goes back to the button that opened it — holding one Conform form that posts
// intent "move-visit" to the page's action. The week board and the visit page both use it.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Dialog } from '~/components/ui/dialog'
import { FieldError, SelectField, TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import { MoveVisitSchema } from '~/models/service-plan-schemas'

export type MovableVisit = {
  id: string
  customerName: string
  date: string
  /** "HH:MM" in the company's zone. */
  clock: string
  technicianId: string | null
  /** A visit of a service plan: "This and following visits" is offered. */
  recurring?: boolean
}

export type TechnicianOption = { id: string; name: string }

/** What the "move-visit" intent answers (`moveVisitIntent`). */
export type MoveVisitReply = {
  intent: string
  visitId?: string
  result?: SubmissionResult<string[]>
  ok: string | null
  error?: string
}

type MoveVisitFetcher = ReturnType<typeof useFetcher<MoveVisitReply>>

/** The fields of "Move visit": "Date", "Time", "Technician", and — for a recurring visit — which visits move. */
export function MoveVisitForm({
  action,
  visit,
  technicians,
  today,
  fetcher,
  onCancel,
}: {
  action: string
  visit: MovableVisit
  technicians: readonly TechnicianOption[]
  /** The company's today: the earliest date a visit may move to. */
  today: string
  fetcher: MoveVisitFetcher
  onCancel: () => void
}) {
  const reply = fetcher.state === 'idle' ? fetcher.data : undefined
  const [form, fields] = useZodForm(MoveVisitSchema, {
    id: `move-visit-${visit.id}`,
    // Only this visit's refusal: the dialog's one fetcher may still hold another visit's answer.
    lastResult: reply && !reply.ok && reply.visitId === visit.id ? reply.result : undefined,
    defaultValue: { date: visit.date, time: visit.clock, technicianId: visit.technicianId ?? '', scope: 'one' },
    shouldValidate: 'onBlur',
  })
  const busy = fetcher.state !== 'idle'
  const scopeOptions = [
    { value: 'one', label: 'This visit only' },
    ...(visit.recurring ? [{ value: 'following', label: 'This and following visits' }] : []),
  ]
  return (
    <fetcher.Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="move-visit" />
      <input type="hidden" name="visitId" value={visit.id} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.date} label="Date" type="date" min={today} />
        <TextField field={fields.time} label="Time" type="time" />
      </div>
      <SelectField
        field={fields.technicianId}
        label="Technician"
        options={technicians.map((tech) => ({ value: tech.id, label: tech.name }))}
      >
        <option value="">Unassigned</option>
      </SelectField>
      <fieldset className="space-y-1">
        <legend className="mb-1 text-sm font-medium text-slate-800">Which visits</legend>
        {scopeOptions.map((option) => (
          <label key={option.value} className="flex min-h-11 items-center gap-3 rounded-lg px-2 hover:bg-slate-50">
            <input
              type="radio"
              name={fields.scope.name}
              value={option.value}
              defaultChecked={option.value === 'one'}
              className="size-5 accent-brand-700"
            />
            <span>{option.label}</span>
          </label>
        ))}
        <FieldError errors={fields.scope.errors} />
      </fieldset>
      <FormErrors form={form} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" pending={busy} pendingLabel="Moving…">
          Move visit
        </Button>
      </div>
    </fetcher.Form>
  )
}

/**
 * The "Move visit" dialog for `visit` (closed while it is null). Closing — by "Cancel", Escape or a successful
 * move — calls `onClose` and puts focus back where it was, or on the moved visit's own "Move visit" button when the
 * move re-drew the one that opened it (`data-move-visit` marks those buttons).
 */
export function MoveVisitDialog({
  action,
  visit,
  technicians,
  today,
  onClose,
}: {
  action: string
  visit: MovableVisit | null
  technicians: readonly TechnicianOption[]
  today: string
  onClose: () => void
}) {
  const handled = useRef<MoveVisitReply | undefined>(undefined)
  // The visit last shown: its re-drawn "Move visit" button takes the focus when the one that opened the dialog is gone.
  const shown = useRef('')
  const fetcher = useFetcher<MoveVisitReply>()
  const [moved, setMoved] = useState<string | null>(null)

  useEffect(() => {
    if (!visit) return
    shown.current = visit.id
    setMoved(null)
  }, [visit])

  // A successful move closes the dialog once the board has reloaded (the fetcher is idle again).
  useEffect(() => {
    const reply = fetcher.data
    if (fetcher.state !== 'idle' || !reply?.ok || handled.current === reply) return
    handled.current = reply
    setMoved(reply.ok)
    onClose()
  }, [fetcher.state, fetcher.data, onClose])

  return (
    <>
      <Dialog
        open={visit !== null}
        onClose={onClose}
        focusInstead={() => document.querySelector<HTMLElement>(`[data-move-visit="${shown.current}"]`)}
        title={
          <>
            Move visit <span className="font-normal text-slate-600">· {visit?.customerName}</span>
          </>
        }
      >
        {visit ? (
          <MoveVisitForm
            key={visit.id}
            action={action}
            visit={visit}
            technicians={technicians}
            today={today}
            fetcher={fetcher}
            onCancel={onClose}
          />
        ) : null}
      </Dialog>
      {moved ? <Alert tone="success">{moved}</Alert> : null}
    </>
  )
}

/** A "Move visit" button with its dialog, for a page about one visit. */
export function MoveVisitButton(props: {
  action: string
  visit: MovableVisit
  technicians: readonly TechnicianOption[]
  today: string
}) {
  const [open, setOpen] = useState(false)
  return (
    <div className="space-y-3">
      <Button type="button" variant="secondary" data-move-visit={props.visit.id} onClick={() => setOpen(true)}>
        Move visit
      </Button>
      <MoveVisitDialog {...props} visit={open ? props.visit : null} onClose={() => setOpen(false)} />
    </div>
  )
}
