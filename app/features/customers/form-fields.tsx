// The inputs of a customer record's forms — contact, service location, body of water, equipment — each one a shared
// field (components/ui/field) wired to its Conform field. "Add customer" and the record page's add/edit forms share
// them, so every form names a field the same way ("Gate code", "Dog on site", …).
import { parseWithZod } from '@conform-to/zod/v4'
import { createContext, useContext } from 'react'
import type { z } from 'zod'
import { CheckboxField, type ConformField, SelectField, TextareaField, TextField } from '~/components/ui/field'
import { EQUIPMENT_KINDS } from '~/utils/customer-fields'
import { SANITIZERS, SURFACES, surfaceWord } from '~/water/targets'
import { PositionPin } from './position-pin'

/**
 * Parses a posted form with one of the customer schemas. Conform's coercion is off: it turns a blank box into
 * "absent", which the schemas read as "keep what is stored" — a cleared gate code must become null instead. The
 * schemas take form strings themselves (numbers, checkboxes, blanks).
 */
export function parseCustomerForm<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true })
}

const capitalized = (value: string) => `${value[0]?.toUpperCase() ?? ''}${value.slice(1)}`
const choices = (values: readonly string[]) => values.map((value) => ({ value, label: capitalized(value) }))

export function ContactFields({
  fields,
}: {
  fields: Record<'customerName' | 'email' | 'phone' | 'billingAddress' | 'notes', ConformField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.customerName} label="Name" autoComplete="off" />
      <TextField field={fields.email} label="Email (optional)" type="email" autoComplete="off" />
      <TextField field={fields.phone} label="Phone (optional)" type="tel" inputMode="tel" autoComplete="off" />
      <TextField field={fields.billingAddress} label="Billing address (optional)" autoComplete="off" />
      <div className="sm:col-span-2">
        <TextareaField field={fields.notes} label="Notes (optional)" />
      </div>
    </div>
  )
}

type LocationFieldName =
  | 'label'
  | 'street'
  | 'city'
  | 'state'
  | 'postalCode'
  | 'lat'
  | 'lng'
  | 'gateCode'
  | 'accessNotes'
  | 'dogOnSite'
  | 'minutesOnSite'
  | 'arriveFrom'
  | 'arriveUntil'
  | 'taxRateId'

/**
 * The "Tax rate" choices of the location form (Settings → "Tax rates"), given by the page that knows them (the
 * customer record); without them the form has no "Tax rate" and a new location uses the company's default.
 */
export const TaxRateChoices = createContext<{
  defaultLabel: string
  options: ReadonlyArray<{ value: string; label: string }>
} | null>(null)

export function LocationFields({ fields }: { fields: Record<LocationFieldName, ConformField> }) {
  const taxRates = useContext(TaxRateChoices)
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={fields.street} label="Service address" autoComplete="off" />
      <TextField field={fields.label} label="Label (optional)" hint="Such as “Beach house”." autoComplete="off" />
      <TextField field={fields.city} label="City" autoComplete="off" />
      <div className="grid grid-cols-2 gap-4">
        <TextField field={fields.state} label="State" autoComplete="off" />
        <TextField field={fields.postalCode} label="ZIP" inputMode="numeric" autoComplete="off" />
      </div>
      <TextField field={fields.gateCode} label="Gate code" autoComplete="off" />
      <TextField
        field={fields.minutesOnSite}
        label="Minutes on site"
        type="number"
        inputMode="numeric"
        autoComplete="off"
      />
      <fieldset className="sm:col-span-2">
        <legend className="font-medium">Arrive between (optional)</legend>
        <p className="text-sm text-slate-600">
          When the technician may arrive. “Optimize route” keeps it, and visit reminders give it.
        </p>
        <div className="mt-2 grid grid-cols-2 gap-4">
          <TextField field={fields.arriveFrom} label="From" type="time" autoComplete="off" />
          <TextField field={fields.arriveUntil} label="Until" type="time" autoComplete="off" />
        </div>
      </fieldset>
      <div className="sm:col-span-2">
        <TextareaField field={fields.accessNotes} label="Access notes" />
      </div>
      <CheckboxField field={fields.dogOnSite} label="Dog on site" />
      {taxRates ? (
        <SelectField
          field={fields.taxRateId}
          label="Tax rate"
          hint="Invoices tax the work done here at this rate."
          options={taxRates.options}
        >
          <option value="">{taxRates.defaultLabel}</option>
        </SelectField>
      ) : null}
      <PositionFields fields={fields} />
    </div>
  )
}

/**
 * "Adjust position" (docs/subsystems.md, "Positions"): the map point as latitude and longitude. Left blank, the
 * location is placed by its address (its ZIP's center, then the geocoder if one is set up); typed, the point is the
 * person's and stays where they put it. Open when there is something to fix: no position, or one only as good as a ZIP.
 */
function PositionFields({ fields }: { fields: Record<'lat' | 'lng', ConformField> }) {
  const hasErrors = Boolean(fields.lat.errors?.length || fields.lng.errors?.length)
  return (
    <details className="sm:col-span-2" open={hasErrors || !fields.lat.initialValue}>
      <summary className="min-h-11 cursor-pointer py-2.5 font-medium text-brand-700">Adjust position</summary>
      <p className="mt-2 text-sm text-slate-600">
        Leave both blank to place the pool by its address (approximate: its ZIP center until the address is looked up).
      </p>
      <div className="mt-2 grid grid-cols-2 gap-4">
        <TextField field={fields.lat} label="Latitude" inputMode="decimal" autoComplete="off" hint="Such as 33.6165" />
        <TextField
          field={fields.lng}
          label="Longitude"
          inputMode="decimal"
          autoComplete="off"
          hint="Such as -111.9554"
        />
      </div>
      <PositionPin latId={fields.lat.id} lngId={fields.lng.id} />
    </details>
  )
}

export function BodyOfWaterFields({
  fields,
}: {
  fields: Record<'name' | 'gallons' | 'surface' | 'sanitizer' | 'indoor', ConformField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        field={fields.name}
        label="Body of water"
        hint="Pool, Spa, Fountain… (Pool when left blank)"
        autoComplete="off"
      />
      <TextField field={fields.gallons} label="Gallons" inputMode="numeric" autoComplete="off" />
      <SelectField
        field={fields.surface}
        label="Surface"
        options={SURFACES.map((value) => ({ value, label: capitalized(surfaceWord(value) ?? value) }))}
      >
        <option value="">Not set</option>
      </SelectField>
      <SelectField field={fields.sanitizer} label="Sanitizer" options={choices(SANITIZERS)}>
        <option value="">Not set</option>
      </SelectField>
      <SelectField field={fields.indoor} label="Indoor or outdoor" options={choices(['outdoor', 'indoor'])}>
        <option value="">Not set</option>
      </SelectField>
    </div>
  )
}

export function EquipmentFields({
  fields,
}: {
  fields: Record<'kind' | 'make' | 'model' | 'serial' | 'installedOn' | 'warrantyUntil' | 'notes', ConformField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField field={fields.kind} label="Kind" options={choices(EQUIPMENT_KINDS)}>
        <option value="">Choose…</option>
      </SelectField>
      <TextField field={fields.make} label="Make" autoComplete="off" />
      <TextField field={fields.model} label="Model" autoComplete="off" />
      <TextField field={fields.serial} label="Serial number" autoComplete="off" />
      <TextField field={fields.installedOn} label="Installed on" type="date" autoComplete="off" />
      <TextField field={fields.warrantyUntil} label="Warranty until" type="date" autoComplete="off" />
      <div className="sm:col-span-2">
        <TextareaField field={fields.notes} label="Notes (optional)" />
      </div>
    </div>
  )
}
