import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Button, buttonClass } from '~/components/ui/button'
import { Field, FieldError } from '~/components/ui/field'

/** The largest price accepted, $1,000,000.00, keeps cents well inside a 32-bit integer. */
const MAX_PRICE_CENTS = 100_000_000
export const MAX_QTY = 1_000_000

/**
 * Dollars text to whole cents without floating point: '12.34' → 1234, '12.3' → 1230, '12' → 1200,
 * '$1,299.5' → 129950. More than two decimals, negatives and non-numbers are null.
 */
export function parseDollars(text: string): number | null {
  const value = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '')
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(value) ?? /^()\.(\d{1,2})$/.exec(value)
  if (!match) return null
  const whole = Number.parseInt(match[1] || '0', 10)
  const cents = Number.parseInt((match[2] ?? '').padEnd(2, '0'), 10)
  const total = whole * 100 + cents
  return total <= MAX_PRICE_CENTS ? total : null
}

/** Cents as the price field shows them, e.g. 1230 → '12.30'. */
export function centsToDollarText(cents: number) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

const PRICE_ERROR = 'Enter a price in dollars, like 12.34 (no more than 2 decimals).'
const COST_ERROR = 'Enter a unit cost in dollars, like 4.20 (no more than 2 decimals), or leave it blank.'
const QTY_ERROR = 'Enter a whole number of 0 or more.'

export const InventorySchema = z.object({
  itemId: z.string().trim().optional(),
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(200, 'Use at most 200 characters.'),
  sku: z.string({ error: 'SKU is required.' }).trim().min(1, 'SKU is required.').max(64, 'Use at most 64 characters.'),
  price: z
    .string({ error: 'Price is required.' })
    .trim()
    .min(1, 'Price is required.')
    .transform((value, ctx) => {
      const cents = parseDollars(value)
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: PRICE_ERROR })
        return z.NEVER
      }
      return cents
    }),
  // What one unit costs the company ("Profit per pool"'s chemical cost). Optional: blank is $0.00, so forms and
  // imports written before the field existed still save, and an office that does not track costs is not blocked.
  cost: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return 0
      const cents = parseDollars(value)
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: COST_ERROR })
        return z.NEVER
      }
      return cents
    }),
  qty: z
    .string({ error: 'Quantity is required.' })
    .trim()
    .min(1, 'Quantity is required.')
    .regex(/^\d{1,7}$/, QTY_ERROR)
    .transform((value) => Number.parseInt(value, 10))
    .refine((value) => value <= MAX_QTY, `Use at most ${MAX_QTY.toLocaleString('en-US')}.`),
})

const CHANGE_ERROR = 'Enter a whole number change, like +12 or -2.'

/** 'Adjust stock': a signed, non-zero whole number and a reason ("+12 delivery", "-2 used on job"). */
export const AdjustSchema = z.object({
  itemId: z.string({ error: 'Missing item.' }).trim().min(1, 'Missing item.'),
  change: z
    .string({ error: CHANGE_ERROR })
    .trim()
    .regex(/^[+-]?\d{1,7}$/, CHANGE_ERROR)
    .transform((value) => Number.parseInt(value, 10))
    .refine((value) => value !== 0, 'The change cannot be 0.')
    .refine((value) => Math.abs(value) <= MAX_QTY, `Use a change of at most ${MAX_QTY.toLocaleString('en-US')}.`),
  reason: z
    .string({ error: 'Give a reason for the change.' })
    .trim()
    .min(1, 'Give a reason for the change.')
    .max(200, 'Use at most 200 characters.'),
})

export type InventoryFormValues = { id: string; name: string; sku: string; price: string; cost: string; qty: string }

/** The add/edit form (owners and admins); the parent remounts it with a new `key` to reset it. */
export function InventoryForm({
  idempotencyKey: freshKey,
  editing,
  lastResult,
  cancelTo,
  notice,
  onInput,
}: {
  /** A fresh idempotency key for adding; the form keeps the one it mounted with (a new item remounts it). */
  idempotencyKey: string
  editing: InventoryFormValues | null
  lastResult: SubmissionResult<string[]> | undefined
  cancelTo: string
  notice?: string | null
  onInput?: () => void
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save'
  const idempotencyKey = useIdempotencyKey(freshKey, null)
  const [form, fields] = useForm({
    id: 'inventory-item',
    lastResult,
    defaultValue: editing ?? undefined,
    constraint: getZodConstraint(InventorySchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InventorySchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} onInput={onInput} className="space-y-4">
      <input type="hidden" name="intent" value="save" />
      {editing ? (
        <input type="hidden" name="itemId" value={editing.id} />
      ) : (
        <IdempotencyKeyInput value={idempotencyKey} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          errors={fields.name.errors}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="SKU"
          errors={fields.sku.errors}
          inputProps={{ ...getInputProps(fields.sku, { type: 'text' }), autoComplete: 'off' }}
        />
        <Field
          label="Price ($)"
          errors={fields.price.errors}
          inputProps={{
            ...getInputProps(fields.price, { type: 'text' }),
            inputMode: 'decimal',
            placeholder: '12.34',
            autoComplete: 'off',
          }}
        />
        <Field
          label="Unit cost ($)"
          errors={fields.cost.errors}
          hint="What one unit costs you: the chemical cost in “Profit per pool”."
          inputProps={{
            ...getInputProps(fields.cost, { type: 'text' }),
            inputMode: 'decimal',
            placeholder: '4.20',
            autoComplete: 'off',
          }}
        />
        <Field
          label="Quantity"
          errors={fields.qty.errors}
          inputProps={{
            ...getInputProps(fields.qty, { type: 'text' }),
            inputMode: 'numeric',
            placeholder: '0',
            autoComplete: 'off',
          }}
        />
      </div>
      <div aria-live="polite">
        <FieldError id={form.errorId} errors={form.errors} />
        {notice && !form.errors?.length ? (
          <p role="status" className="text-sm text-emerald-800">
            {notice}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" pending={saving} pendingLabel="Saving…">
          {editing ? 'Save changes' : 'Add item'}
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
