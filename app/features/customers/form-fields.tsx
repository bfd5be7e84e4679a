// The inputs of a customer record's forms — contact, service location, body of water, equipment — each one wired
// to its Conform field (label, error next to it, aria). "Add customer" and the record page's add/edit forms share
// them, so every form names a field the same way ("Gate code", "Dog on site", …).
import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { EQUIPMENT_KINDS } from '~/utils/customer-fields'
import { SANITISERS, SURFACES } from '~/water/targets'

/**
 * Parses a posted form with one of the customer schemas. Conform's coercion is off: it turns a blank box into
 * "absent", which the schemas read as "keep what is stored" — a cleared gate code must become null instead. The
 * schemas take form strings themselves (numbers, checkboxes, blanks).
 */
export function parseCustomerForm<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true })
}

// Conform's field metadata of any field; the helpers below read only its name, id, value and errors.
// biome-ignore lint/suspicious/noExplicitAny: a field of any schema.
type AnyField = FieldMetadata<any, any, string[]>

export function TextInput({
  field,
  label,
  type = 'text',
  hint,
  inputMode,
  autoComplete = 'off',
}: {
  field: AnyField
  label: string
  type?: 'text' | 'email' | 'tel' | 'number' | 'date'
  hint?: string
  inputMode?: 'numeric' | 'decimal' | 'tel' | 'email'
  autoComplete?: string
}) {
  return (
    <Field
      label={label}
      hint={hint}
      errors={field.errors}
      inputProps={{ ...getInputProps(field, { type }), inputMode, autoComplete }}
    />
  )
}

export function TextArea({ field, label }: { field: AnyField; label: string }) {
  const errorId = `${field.id}-error`
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        {...getTextareaProps(field)}
        rows={3}
        aria-describedby={field.errors ? errorId : undefined}
        className={inputClass}
      />
      <FieldError id={errorId} errors={field.errors} />
    </div>
  )
}

export function Select({
  field,
  label,
  options,
  blank = 'Not set',
}: {
  field: AnyField
  label: string
  options: ReadonlyArray<{ value: string; label: string }>
  /** The first, empty option; null for a select that must have a value. */
  blank?: string | null
}) {
  const errorId = `${field.id}-error`
  const { key: _key, ...props } = getSelectProps(field)
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select {...props} aria-describedby={field.errors ? errorId : undefined} className={inputClass}>
        {blank === null ? null : <option value="">{blank}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId} errors={field.errors} />
    </div>
  )
}

export function Checkbox({ field, label }: { field: AnyField; label: string }) {
  const errorId = `${field.id}-error`
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          id={field.id}
          name={field.name}
          defaultChecked={field.initialValue === 'on' || field.initialValue === 'true'}
          aria-describedby={field.errors ? errorId : undefined}
          className="size-5 rounded border-slate-300"
        />
        {label}
      </label>
      <FieldError id={errorId} errors={field.errors} />
    </div>
  )
}

const capitalised = (value: string) => `${value[0]?.toUpperCase() ?? ''}${value.slice(1)}`
const choices = (values: readonly string[]) => values.map((value) => ({ value, label: capitalised(value) }))

export function ContactFields({
  fields,
}: {
  fields: Record<'customerName' | 'email' | 'phone' | 'billingAddress' | 'notes', AnyField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextInput field={fields.customerName} label="Name" />
      <TextInput field={fields.email} label="Email (optional)" type="email" />
      <TextInput field={fields.phone} label="Phone (optional)" type="tel" inputMode="tel" />
      <TextInput field={fields.billingAddress} label="Billing address (optional)" />
      <div className="sm:col-span-2">
        <TextArea field={fields.notes} label="Notes (optional)" />
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
  | 'gateCode'
  | 'accessNotes'
  | 'dogOnSite'
  | 'minutesOnSite'

export function LocationFields({ fields }: { fields: Record<LocationFieldName, AnyField> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextInput field={fields.street} label="Service address" autoComplete="off" />
      <TextInput field={fields.label} label="Label (optional)" hint="Such as “Beach house”." />
      <TextInput field={fields.city} label="City" />
      <div className="grid grid-cols-2 gap-4">
        <TextInput field={fields.state} label="State" />
        <TextInput field={fields.postalCode} label="ZIP" inputMode="numeric" />
      </div>
      <TextInput field={fields.gateCode} label="Gate code" />
      <TextInput field={fields.minutesOnSite} label="Minutes on site" type="number" inputMode="numeric" />
      <div className="sm:col-span-2">
        <TextArea field={fields.accessNotes} label="Access notes" />
      </div>
      <Checkbox field={fields.dogOnSite} label="Dog on site" />
    </div>
  )
}

export function BodyOfWaterFields({
  fields,
}: {
  fields: Record<'name' | 'gallons' | 'surface' | 'sanitiser' | 'indoor', AnyField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextInput field={fields.name} label="Body of water" hint="Pool, Spa, Fountain… (Pool when left blank)" />
      <TextInput field={fields.gallons} label="Gallons" inputMode="numeric" />
      <Select field={fields.surface} label="Surface" options={choices(SURFACES)} />
      <Select field={fields.sanitiser} label="Sanitiser" options={choices(SANITISERS)} />
      <Select field={fields.indoor} label="Indoor or outdoor" options={choices(['outdoor', 'indoor'])} />
    </div>
  )
}

export function EquipmentFields({
  fields,
}: {
  fields: Record<'kind' | 'make' | 'model' | 'serial' | 'installedOn' | 'notes', AnyField>
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Select field={fields.kind} label="Kind" options={choices(EQUIPMENT_KINDS)} blank="Choose…" />
      <TextInput field={fields.make} label="Make" />
      <TextInput field={fields.model} label="Model" />
      <TextInput field={fields.serial} label="Serial number" />
      <TextInput field={fields.installedOn} label="Installed on" type="date" />
      <div className="sm:col-span-2">
        <TextArea field={fields.notes} label="Notes (optional)" />
      </div>
    </div>
  )
}
