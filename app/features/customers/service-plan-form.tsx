// "Add service plan" on a service location of the customer record (OPERATIONS §4): how often, which day, who, from
// when, the window and the rate. The same ServicePlanSchema checks it here (errors next to the fields) and in the
// model, which parses the posted form again.
import { SelectField, TextField } from '~/components/ui/field'
import { FREQUENCY_LABELS, RATE_TYPE_LABELS, ServicePlanSchema, WEEKDAY_LABELS } from '~/models/service-plan-schemas'
import { SERVICE_WINDOW_HOURS, SERVICE_WINDOWS } from '~/schedule/service-window'
import { RATE_TYPES } from '~/utils/customer-fields'
import type { RecordActionData } from './customer-record-schema'
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
  actionData,
}: {
  locationId: string
  address: string
  technicians: readonly TechnicianOption[]
  today: string
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
    },
  })
  return (
    <RecordFormFrame {...frame} submit="Add service plan" pendingLabel="Adding…">
      <h5 className="font-semibold">
        Add service plan<span className="sr-only"> at {address}</span>
      </h5>
      <div className="grid gap-4 sm:grid-cols-2">
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
        <TextField field={fields.startsOn} label="Starts on" type="date" autoComplete="off" />
        <TextField
          field={fields.endsOn}
          label="Ends on"
          type="date"
          hint="Optional: leave empty for no end."
          autoComplete="off"
        />
        <TextField
          field={fields.rate}
          label="Rate"
          inputMode="decimal"
          hint="In dollars, like 85 or 85.50."
          autoComplete="off"
        />
        <SelectField field={fields.rateType} label="Rate type" options={RATE_TYPE_OPTIONS} />
      </div>
    </RecordFormFrame>
  )
}
