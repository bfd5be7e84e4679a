// "Add service plan" on a service location of the customer record (docs/product.md "Schedule"): how often, which day,
// who, from when, the window and the rate. The same ServicePlanSchema checks it here (errors next to the fields) and in
// the model, which parses the posted form again. "Suggest a day and technician" lists the pairs whose routes the pool
// adds the fewest minutes to (docs/routing.md "Suggesting a day"); "Choose" fills "Day" and "Technician".
import { type MouseEvent, useState } from 'react'
import { useFetcher, useParams } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { SelectField, TextField } from '~/components/ui/field'
import { FREQUENCY_LABELS, RATE_TYPE_LABELS, ServicePlanSchema, WEEKDAY_LABELS } from '~/models/service-plan-schemas'
import { SERVICE_WINDOW_HOURS, SERVICE_WINDOWS } from '~/schedule/service-window'
import { RATE_TYPES } from '~/utils/customer-fields'
import type { RecordActionData } from './customer-record-schema'
import { chooseHref, type PlanDraft, readPlanDraft, suggestHref, suggestPath } from './plan-suggest-links'
import { PlanSuggestionList, type SuggestAnswer } from './plan-suggestions'
import { RecordFormFrame, useRecordForm } from './record-form'

export type TechnicianOption = { id: string; name: string }

const FREQUENCIES = Object.entries(FREQUENCY_LABELS).map(([value, label]) => ({ value, label }))
const DAYS = WEEKDAY_LABELS.map((label, index) => ({ value: String(index + 1), label }))
const WINDOWS = SERVICE_WINDOWS.map((value) => ({ value, label: SERVICE_WINDOW_HOURS[value].label }))
const RATE_TYPE_OPTIONS = RATE_TYPES.map((value) => ({ value, label: RATE_TYPE_LABELS[value] }))

export function ServicePlanForm({
  locationId,
  address,
  technicians,
  today,
  draft = {},
  actionData,
}: {
  locationId: string
  address: string
  technicians: readonly TechnicianOption[]
  today: string
  /** The fields as typed, back from the suggestion page (no JavaScript). */
  draft?: PlanDraft
  actionData: RecordActionData
}) {
  const { fields, frame } = useRecordForm({
    intent: 'add-plan',
    targetId: locationId,
    schema: ServicePlanSchema,
    actionData,
    defaultValue: {
      frequencyWeeks: '1',
      weekday: '1',
      technicianId: '',
      startsOn: today,
      endsOn: '',
      serviceWindow: 'flexible',
      rate: '',
      rateType: 'per-visit',
      ...draft,
    },
  })
  const { customerId = '' } = useParams()
  const suggestion = useFetcher<{ answer: SuggestAnswer; draft: PlanDraft }>()
  const [chosen, setChosen] = useState<string | null>(null)
  const asking = suggestion.state !== 'idle'
  const ask = (event: MouseEvent<HTMLButtonElement>) => {
    const form = event.currentTarget.form
    if (!form) return
    // With JavaScript the list opens in place; without, the button sends the fields to the suggestion page.
    event.preventDefault()
    setChosen(null)
    suggestion.load(suggestHref(customerId, locationId, readPlanDraft(new FormData(form))))
  }
  return (
    <>
      <RecordFormFrame {...frame} submit="Add service plan" pendingLabel="Adding…">
        <h5 className="font-semibold">
          Add service plan<span className="sr-only"> at {address}</span>
        </h5>
        <div className="grid gap-4 sm:grid-cols-2">
          <PlanFields fields={fields} technicians={technicians} rate={false} />
          <TextField field={fields.startsOn} label="Starts on" type="date" autoComplete="off" />
          <TextField
            field={fields.endsOn}
            label="Ends on"
            type="date"
            hint="Optional: leave empty for no end."
            autoComplete="off"
          />
          <RateField field={fields.rate} />
          <SelectField field={fields.rateType} label="Rate type" options={RATE_TYPE_OPTIONS} />
        </div>
      </RecordFormFrame>
      {/* After the form's own buttons, so Enter in a field still saves the plan (the first submit button). */}
      <div className="mt-4 space-y-3">
        <Button
          type="submit"
          variant="secondary"
          formMethod="get"
          formAction={suggestPath(customerId, locationId)}
          formNoValidate
          form={frame.form.id}
          pending={asking}
          pendingLabel="Suggesting…"
          onClick={ask}
        >
          Suggest a day and technician
        </Button>
        {suggestion.data ? (
          <PlanSuggestionList
            answer={suggestion.data.answer}
            chooseHref={(choice) => chooseHref(customerId, locationId, suggestion.data?.draft ?? {}, choice)}
            editLocationHref={`?edit=location:${locationId}`}
            onChoose={(choice) => {
              frame.form.update({ name: fields.weekday.name, value: String(choice.weekday) })
              frame.form.update({ name: fields.technicianId.name, value: choice.technicianId })
              setChosen(`${choice.weekdayLabel} with ${choice.technicianName}`)
            }}
          />
        ) : null}
        {chosen ? (
          <Alert tone="success">Chose {chosen}. Check the plan, then "Add service plan" to save it.</Alert>
        ) : null}
      </div>
    </>
  )
}

type Field = Parameters<typeof TextField>[0]['field']

function RateField({ field }: { field: Field }) {
  return (
    <TextField field={field} label="Rate" inputMode="decimal" hint="In dollars, like 85 or 85.50." autoComplete="off" />
  )
}

/** How often, which day, who, the window and (unless `rate` is false) the rate: "Add service plan" and "Edit plan". */
export function PlanFields({
  fields,
  technicians,
  rate = true,
}: {
  fields: Record<'frequencyWeeks' | 'weekday' | 'technicianId' | 'serviceWindow' | 'rate', Field>
  technicians: readonly TechnicianOption[]
  rate?: boolean
}) {
  return (
    <>
      <SelectField field={fields.frequencyWeeks} label="Frequency" options={FREQUENCIES} />
      <SelectField field={fields.weekday} label="Day" options={DAYS} />
      <SelectField
        field={fields.technicianId}
        label="Technician"
        options={technicians.map((technician) => ({ value: technician.id, label: technician.name }))}
      >
        <option value="">Unassigned</option>
      </SelectField>
      <SelectField field={fields.serviceWindow} label="Service window" options={WINDOWS} />
      {rate ? <RateField field={fields.rate} /> : null}
    </>
  )
}
