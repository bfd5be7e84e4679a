// "Move visit" (OPERATIONS §4) for keyboard and touch: a native modal <dialog> — the page behind is inert while it
// is open, Escape closes it, and focus goes back to the button that opened it — holding one Conform form that posts
// intent "move-visit" to the page's action. The week board and the visit page both use it.
import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useId, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { MoveVisitSchema } from '~/models/service-plan-schemas'

export type MovableVisit = {
  id: string
  customerName: string
  date: string
  technicianId: string | null
  recurring: boolean
}

export type TechnicianOption = { id: string; name: string }

/** What the "move-visit" intent answers (`moveVisitIntent`). */
export type MoveVisitReply = {
  intent: string
  jobId?: string
  result?: SubmissionResult<string[]>
  ok: string | null
  error?: string
}

type MoveVisitFetcher = ReturnType<typeof useFetcher<MoveVisitReply>>

/** The fields of "Move visit": "Date", "Technician", and — for a recurring visit — which visits move. */
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
  const [form, fields] = useForm({
    id: `move-visit-${visit.id}`,
    // Only this visit's refusal: the dialog's one fetcher may still hold another visit's answer.
    lastResult: reply && !reply.ok && reply.jobId === visit.id ? reply.result : undefined,
    constraint: getZodConstraint(MoveVisitSchema),
    defaultValue: { date: visit.date, technicianId: visit.technicianId ?? '', scope: 'one' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MoveVisitSchema }),
  })
  const technicianId = useId()
  const busy = fetcher.state !== 'idle'
  const scopeOptions = [
    { value: 'one', label: 'This visit only' },
    ...(visit.recurring ? [{ value: 'following', label: 'This and following visits' }] : []),
  ]
  return (
    <fetcher.Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="move-visit" />
      <input type="hidden" name="jobId" value={visit.id} />
      <Field
        label="Date"
        errors={fields.date.errors}
        inputProps={{ ...getInputProps(fields.date, { type: 'date' }), min: today }}
      />
      <div className="space-y-1">
        <label htmlFor={technicianId} className="block text-sm font-medium text-slate-800">
          Technician
        </label>
        <select {...getSelectProps(fields.technicianId)} id={technicianId} className={inputClass}>
          <option value="">Unassigned</option>
          {technicians.map((tech) => (
            <option key={tech.id} value={tech.id}>
              {tech.name}
            </option>
          ))}
        </select>
        <FieldError errors={fields.technicianId.errors} />
      </div>
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
      {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
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
  const dialog = useRef<HTMLDialogElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const handled = useRef<MoveVisitReply | undefined>(undefined)
  const fetcher = useFetcher<MoveVisitReply>()
  const [moved, setMoved] = useState<{ jobId: string; message: string } | null>(null)
  const titleId = useId()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (visit && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      setMoved(null)
      element.showModal()
    } else if (!visit && element.open) {
      element.close()
    }
  }, [visit])

  // A successful move closes the dialog once the board has reloaded (the fetcher is idle again).
  useEffect(() => {
    const reply = fetcher.data
    if (fetcher.state !== 'idle' || !reply?.ok || handled.current === reply) return
    handled.current = reply
    setMoved({ jobId: reply.jobId ?? '', message: reply.ok })
    dialog.current?.close()
  }, [fetcher.state, fetcher.data])

  function restoreFocus() {
    const target = opener.current?.isConnected
      ? opener.current
      : document.querySelector<HTMLElement>(`[data-move-visit="${moved?.jobId ?? visit?.id ?? ''}"]`)
    target?.focus()
  }

  return (
    <>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        onClose={() => {
          onClose()
          restoreFocus()
        }}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl bg-white p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        {visit ? (
          <div className="space-y-4 p-5">
            <h2 id={titleId} className="text-lg font-semibold">
              Move visit <span className="font-normal text-slate-600">· {visit.customerName}</span>
            </h2>
            <MoveVisitForm
              key={visit.id}
              action={action}
              visit={visit}
              technicians={technicians}
              today={today}
              fetcher={fetcher}
              onCancel={() => dialog.current?.close()}
            />
          </div>
        ) : null}
      </dialog>
      {moved ? <Alert tone="success">{moved.message}</Alert> : null}
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
