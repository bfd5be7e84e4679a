// "Create work order" and "Record deposit" on an approved quote's page (issue 33 items 4 and 6; docs/work-orders.md).
// The work order's visits follow the template chosen (or the number of visits, without one), each with its own
// technician; without JavaScript the form shows one technician per visit it started with and the server assigns
// the rest unassigned, for dispatch.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { textLinkTarget } from '~/components/ui/touch'
import { CreateWorkOrderSchema, FORM_MAX_VISITS, RecordDepositSchema } from './work-order-schemas'

type Option = { value: string; label: string }

const TEMPLATE_OPTIONS = [
  { value: 'none', label: 'None' },
  { value: 'green-to-clean', label: 'Green-to-clean (3 visits: days 1, 2 and 4)' },
  { value: 'equipment-install', label: 'Equipment install (1 visit)' },
]

const TEMPLATE_TITLES: Record<string, string[]> = {
  'green-to-clean': ['Shock and brush', 'Vacuum and clean filter', 'Test and balance'],
  'equipment-install': ['Install'],
}

export function CreateWorkOrderForm({
  technicians,
  today,
  lastResult,
}: {
  technicians: Option[]
  today: string
  lastResult?: SubmissionResult<string[]>
}) {
  const posting = usePosting('create-work-order')
  const [template, setTemplate] = useState('none')
  const [count, setCount] = useState(1)
  const [form, fields] = useZodForm(CreateWorkOrderSchema, {
    id: 'create-work-order',
    lastResult,
    constraint: null,
    defaultValue: { template: 'none', startDate: today, visitCount: '1' },
  })
  const titles = TEMPLATE_TITLES[template] ?? Array.from({ length: count }, (_, i) => `Visit ${i + 1}`)
  const technicianFields = [
    fields.technician1,
    fields.technician2,
    fields.technician3,
    fields.technician4,
    fields.technician5,
    fields.technician6,
  ]
  return (
    <Card className="space-y-4" aria-labelledby="create-work-order-heading">
      <h2 id="create-work-order-heading" className="text-lg font-semibold">
        Create work order
      </h2>
      <p className="text-sm text-slate-700">
        The approved version’s parts and labor, the quote’s note, and one visit per day of work.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="create-work-order" />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            field={fields.template}
            label="Template"
            options={TEMPLATE_OPTIONS}
            onChange={(event) => setTemplate(event.currentTarget.value)}
          />
          <TextField field={fields.startDate} label="Start date" type="date" />
          {template === 'none' ? (
            <SelectField
              field={fields.visitCount}
              label="Visits"
              options={Array.from({ length: FORM_MAX_VISITS }, (_, i) => ({
                value: String(i + 1),
                label: String(i + 1),
              }))}
              onChange={(event) => setCount(Number(event.currentTarget.value) || 1)}
            />
          ) : null}
        </div>
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold">Technicians</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {titles.map((title, i) => {
              const field = technicianFields[i]
              return field ? (
                <SelectField key={field.name} field={field} label={`Technician for ${title.toLowerCase()}`}>
                  <option value="">Unassigned</option>
                  {technicians.map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.label}
                    </option>
                  ))}
                </SelectField>
              ) : null
            })}
          </div>
        </fieldset>
        <FormErrors form={form} />
        <Button type="submit" pending={posting} pendingLabel="Creating…">
          Create work order
        </Button>
      </Form>
    </Card>
  )
}

export function WorkOrderLinkCard({ workOrder }: { workOrder: { id: string; numberLabel: string } }) {
  return (
    <Card className="space-y-2" aria-labelledby="quote-work-order-heading">
      <h2 id="quote-work-order-heading" className="text-lg font-semibold">
        Work order
      </h2>
      <p className="text-sm">
        <Link to={`/app/work-orders/${workOrder.id}`} className={`underline ${textLinkTarget}`}>
          Open work order {workOrder.numberLabel}
        </Link>
      </p>
    </Card>
  )
}

export function RecordDepositForm({
  today,
  deposit,
  lastResult,
}: {
  today: string
  /** The deposits recorded so far, formatted; null when none. */
  deposit: string | null
  lastResult?: SubmissionResult<string[]>
}) {
  const posting = usePosting('record-deposit')
  const [form, fields] = useZodForm(RecordDepositSchema, {
    id: 'record-deposit',
    lastResult,
    constraint: null,
    defaultValue: { receivedOn: today, method: 'check' },
  })
  return (
    <Card className="space-y-4" aria-labelledby="record-deposit-heading">
      <h2 id="record-deposit-heading" className="text-lg font-semibold">
        Record deposit
      </h2>
      <p className="text-sm text-slate-700">
        {deposit ? `Deposits received so far: ${deposit}. ` : ''}A check or cash paid toward this quote: it is credited
        to the work order’s invoice.
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="record-deposit" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.amount} label="Amount ($)" inputMode="decimal" />
          <TextField field={fields.receivedOn} label="Received on" type="date" />
          <SelectField
            field={fields.method}
            label="Method"
            options={[
              { value: 'check', label: 'Check' },
              { value: 'cash', label: 'Cash' },
            ]}
          />
          <TextField field={fields.reference} label="Check number or reference (optional)" />
        </div>
        <FormErrors form={form} />
        <Button type="submit" variant="secondary" pending={posting} pendingLabel="Saving…">
          Record deposit
        </Button>
      </Form>
    </Card>
  )
}
