import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { PhoneSchema } from '~/models/customer-schemas'
import { SANITISERS, SURFACES } from '~/water/targets'

const REQUIRED = 'Name and address are required.'

/** SPEC §5 Customer form: name and address required; email and phone optional, blank becomes null. */
export const CustomerSchema = z.object({
  customerId: z.string().trim().optional(),
  customerName: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(200, 'Use at most 200 characters.'),
  address: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(300, 'Use at most 300 characters.'),
  email: z
    .string()
    .trim()
    .max(254, 'That email address is too long.')
    .optional()
    .transform((value) => value || null)
    .pipe(z.email('Enter a valid email address.').nullable())
    // Stored lowercased so one address is always one value (the invite looks accounts up by it).
    .transform((value) => value?.toLowerCase() ?? null),
  // Stored in E.164; an invalid number is refused with a clear message.
  phone: PhoneSchema,
  // Pool profile (optional): doses and targets on the job page depend on it.
  poolVolumeGallons: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce
      .number({ error: 'Pool volume must be a whole number of gallons.' })
      .int('Pool volume must be a whole number of gallons.')
      .min(100, 'Pool volume must be between 100 and 2,000,000 gallons.')
      .max(2_000_000, 'Pool volume must be between 100 and 2,000,000 gallons.')
      .optional()
      .transform((value) => value ?? null),
  ),
  poolSurface: blankAsNull(z.enum(SURFACES, { error: 'Choose plaster, vinyl or fibreglass.' })),
  poolSanitiser: blankAsNull(z.enum(SANITISERS, { error: 'Choose chlorine or salt.' })),
  poolSetting: blankAsNull(z.enum(['outdoor', 'indoor'], { error: 'Choose outdoor or indoor.' })),
})

/** A select whose first option is "Not set": blank becomes null. */
function blankAsNull<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' || value == null ? null : value), schema.nullable())
}

export type CustomerFormValues = {
  id: string
  customerName: string
  address: string
  email: string
  phone: string
  poolVolumeGallons: string
  poolSurface: string
  poolSanitiser: string
  poolSetting: string
}

const POOL_SELECTS = [
  { name: 'poolSurface', label: 'Pool surface', options: SURFACES },
  { name: 'poolSanitiser', label: 'Sanitiser', options: SANITISERS },
  { name: 'poolSetting', label: 'Indoor or outdoor', options: ['outdoor', 'indoor'] },
] as const

/**
 * The add/edit form. `editing` switches it to edit mode (a hidden customerId and Cancel);
 * the parent remounts it with a new `key` to return to a blank add form after a save.
 */
export function CustomerForm({
  idempotencyKey: freshKey,
  editing,
  lastResult,
  cancelTo,
  onInput,
}: {
  /** A fresh idempotency key for adding; the form keeps the one it mounted with (a save remounts it). */
  idempotencyKey: string
  editing: CustomerFormValues | null
  lastResult: SubmissionResult<string[]> | undefined
  cancelTo: string
  onInput?: () => void
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
  const idempotencyKey = useIdempotencyKey(freshKey, null)
  const [form, fields] = useForm<z.infer<typeof CustomerSchema>>({
    id: 'customer',
    lastResult,
    defaultValue: editing ?? undefined,
    constraint: getZodConstraint(CustomerSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomerSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} onInput={onInput} className="space-y-4">
      <input type="hidden" name="intent" value="save" />
      {editing ? (
        <input type="hidden" name="customerId" value={editing.id} />
      ) : (
        <IdempotencyKeyInput value={idempotencyKey} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          errors={fields.customerName.errors}
          inputProps={{ ...getInputProps(fields.customerName, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Service address"
          errors={fields.address.errors}
          inputProps={{ ...getInputProps(fields.address, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Email (optional)"
          hint={editing ? undefined : 'We email a portal invitation to new customers who have an email.'}
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }}
        />
        <Field
          label="Phone (optional)"
          errors={fields.phone.errors}
          inputProps={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off' }}
        />
      </div>
      <fieldset className="grid gap-4 sm:grid-cols-4">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Pool (optional)</legend>
        <Field
          label="Pool volume (US gallons)"
          errors={fields.poolVolumeGallons.errors}
          inputProps={{ ...getInputProps(fields.poolVolumeGallons, { type: 'number' }), inputMode: 'numeric' }}
        />
        {POOL_SELECTS.map(({ name, label, options }) => {
          const field = fields[name]
          return (
            <div key={name} className="space-y-1">
              <label htmlFor={field.id} className="block text-sm font-medium text-slate-800">
                {label}
              </label>
              <select
                id={field.id}
                name={field.name}
                defaultValue={(field.initialValue as string | undefined) ?? ''}
                aria-invalid={field.errors ? true : undefined}
                aria-describedby={field.errors ? `${field.id}-error` : undefined}
                className={inputClass}
              >
                <option value="">Not set</option>
                {options.map((option) => (
                  <option key={option} value={option}>
                    {option[0]?.toUpperCase()}
                    {option.slice(1)}
                  </option>
                ))}
              </select>
              <FieldError id={`${field.id}-error`} errors={field.errors} />
            </div>
          )
        })}
      </fieldset>
      {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          {editing ? 'Save changes' : 'Add customer'}
        </Button>
        {editing ? (
          <Link to={cancelTo} className={buttonClass('secondary')}>
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  )
}
