// The visit page's "Work order WO-0007" section (issue 33 item 4; docs/work-orders.md): on a visit of a work order,
// the parts to fit (the approved quote's parts), the parts recorded so far on the work order, and "Record part used"
// (a stock item and a whole quantity, taken off stock). Phone first: one column, full-width controls.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { PartUsedSchema } from './work-order-schemas'

export type VisitWorkOrderData = {
  numberLabel: string
  open: boolean
  notes: string | null
  parts: { id: string; description: string; quantity: string }[]
  partsUsed: { id: string; description: string; quantity: number; recorded: string }[]
  stock: { value: string; label: string }[]
}

export function VisitWorkOrder({
  workOrder,
  canRecord,
  lastResult,
  ok,
}: {
  workOrder: VisitWorkOrderData
  /** The visit is open and the viewer may work it. */
  canRecord: boolean
  lastResult?: SubmissionResult<string[]>
  ok?: string
}) {
  const posting = usePosting('part-used')
  const [form, fields] = useZodForm(PartUsedSchema, {
    id: 'part-used',
    lastResult,
    constraint: null,
    defaultValue: { quantity: '1' },
  })
  return (
    <Card className="space-y-4" aria-labelledby="visit-work-order-heading">
      <h2 id="visit-work-order-heading" className="text-lg font-semibold">
        Work order {workOrder.numberLabel}
      </h2>
      {workOrder.notes ? <p className="text-sm wrap-anywhere">{workOrder.notes}</p> : null}
      <section aria-labelledby="parts-to-fit-heading" className="space-y-1">
        <h3 id="parts-to-fit-heading" className="font-semibold">
          Parts to fit
        </h3>
        {workOrder.parts.length ? (
          <ul className="list-disc space-y-1 pl-5 text-sm">
            {workOrder.parts.map((part) => (
              <li key={part.id} className="wrap-anywhere">
                {part.quantity} × {part.description}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">The quote names no parts.</p>
        )}
      </section>
      <section aria-labelledby="parts-used-heading" className="space-y-1">
        <h3 id="parts-used-heading" className="font-semibold">
          Parts used
        </h3>
        {workOrder.partsUsed.length ? (
          <ul className="space-y-1 text-sm">
            {workOrder.partsUsed.map((part) => (
              <li key={part.id} className="wrap-anywhere">
                {part.quantity} × {part.description} <span className="text-slate-700">· {part.recorded}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">None recorded yet.</p>
        )}
      </section>
      {ok ? <Alert tone="success">{ok}</Alert> : null}
      {canRecord && workOrder.open ? (
        <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label="Record part used">
          <input type="hidden" name="intent" value="part-used" />
          <SelectField field={fields.inventoryItemId} label="Stock item" options={workOrder.stock}>
            <option value="">Choose…</option>
          </SelectField>
          <TextField field={fields.quantity} label="Quantity" inputMode="numeric" />
          <FormErrors form={form} />
          <Button type="submit" className="w-full sm:w-auto" pending={posting} pendingLabel="Recording…">
            Record part used
          </Button>
        </Form>
      ) : null}
    </Card>
  )
}
