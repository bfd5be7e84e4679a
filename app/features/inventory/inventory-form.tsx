// Inventory's add/edit form (owners and admins): name, SKU, price, unit cost and quantity. A new item carries an
// idempotency key, so a double submit creates it once.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Button, buttonClass } from '~/components/ui/button'
import { Field, FieldError } from '~/components/ui/field'
import { type InventoryFormValues, InventorySchema } from './inventory-schema'

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
