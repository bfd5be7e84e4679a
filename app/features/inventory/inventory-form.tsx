// Inventory's add/edit form (owners and admins): name, SKU, price, unit cost and quantity. A new item carries an
// idempotency key, so a double submit creates it once.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Button, buttonClass } from '~/components/ui/button'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { ITEM_UNITS } from '~/utils/stock-units'
import { type InventoryFormValues, InventorySchema } from './inventory-schema'

type ItemField = {
  name: 'name' | 'sku' | 'price' | 'cost' | 'qty' | 'packName' | 'packSize' | 'minQty'
  label: string
  hint?: string
  inputMode?: 'decimal' | 'numeric'
  placeholder?: string
}

/** The item's fields, in the form's order. */
const ITEM_FIELDS: readonly ItemField[] = [
  { name: 'name', label: 'Name' },
  { name: 'sku', label: 'SKU' },
  { name: 'price', label: 'Price ($)', inputMode: 'decimal', placeholder: '12.34' },
  {
    name: 'cost',
    label: 'Unit cost ($)',
    hint: 'What one unit costs you: the chemical cost in “Profit per pool”.',
    inputMode: 'decimal',
    placeholder: '4.20',
  },
  { name: 'qty', label: 'Quantity', hint: 'All locations together, in units.', inputMode: 'numeric', placeholder: '0' },
  { name: 'packName', label: 'Pack (optional)', hint: 'What it also comes in, like “case”.', placeholder: 'case' },
  { name: 'packSize', label: 'Units per pack', inputMode: 'numeric', placeholder: '4' },
  {
    name: 'minQty',
    label: 'Low-stock minimum',
    hint: 'A location at or below this is “Low”.',
    inputMode: 'numeric',
    placeholder: '5',
  },
]

const UNIT_OPTIONS = ITEM_UNITS.map((unit) => ({ value: unit, label: unit }))

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
  const saving = usePosting('save')
  const idempotencyKey = useIdempotencyKey(freshKey, null)
  const [form, fields] = useZodForm(InventorySchema, {
    id: 'inventory-item',
    lastResult,
    defaultValue: editing ?? { unit: 'each', minQty: '5' },
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
        {ITEM_FIELDS.map(({ name, label, hint, inputMode, placeholder }) => (
          <TextField
            key={name}
            field={fields[name]}
            label={label}
            hint={hint}
            inputMode={inputMode}
            placeholder={placeholder}
            autoComplete="off"
          />
        ))}
        <SelectField field={fields.unit} label="Unit" hint="Stock is counted in whole units." options={UNIT_OPTIONS} />
      </div>
      <div aria-live="polite">
        <FormErrors form={form} />
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
