import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useFetcher } from 'react-router'
import { CHEMICAL_UNITS, ChemicalAdditionSchema, describeChemical } from '~/utils/chemicals'
import { IdempotencyKeyInput, useIdempotencyKey } from './idempotency-key'
import { Alert } from './ui/alert'
import { Button } from './ui/button'
import { Card } from './ui/card'
import { Field, FieldError, inputClass } from './ui/field'

export type ChemicalRow = { id: string; product: string; quantity: number; unit: string; fromStock: boolean }
export type StockOption = { id: string; name: string; qty: number }
export type ChemicalActionData = { intent: 'chemical'; result: SubmissionResult<string[]>; ok: string | null }

/**
 * What the technician added to the water on this visit. A stock item deducts from inventory. The form posts
 * through a fetcher, so its answer survives the live updates other people's changes cause.
 */
export function JobChemicals({
  chemicals,
  stock,
  readOnly,
  formKey,
}: {
  chemicals: ChemicalRow[]
  stock: StockOption[]
  readOnly: boolean
  /** A fresh idempotency key from the loader (see useIdempotencyKey). */
  formKey: string
}) {
  const fetcher = useFetcher<ChemicalActionData>({ key: 'job-chemical' })
  const busy = fetcher.state !== 'idle'
  const reply = fetcher.data?.intent === 'chemical' ? fetcher.data : undefined
  // Idle: the page's loader has run again by then, so `formKey` is already a new key.
  const idempotencyKey = useIdempotencyKey(formKey, reply?.ok && !busy ? reply : null)
  const [form, fields] = useForm({
    id: 'chemical',
    defaultValue: { unit: 'fl oz' },
    lastResult: busy ? undefined : reply?.result,
    constraint: getZodConstraint(ChemicalAdditionSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChemicalAdditionSchema }),
  })
  return (
    <Card className="space-y-4">
      <h2 className="text-lg font-semibold">Chemicals added</h2>
      {chemicals.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing recorded on this visit yet.</p>
      ) : (
        <ul className="space-y-1 text-sm" aria-label="Chemicals added">
          {chemicals.map((chemical) => (
            <li key={chemical.id} className="flex flex-wrap items-center gap-2">
              <span>{describeChemical(chemical)}</span>
              {chemical.fromStock ? <span className="text-xs text-slate-500">from stock</span> : null}
            </li>
          ))}
        </ul>
      )}
      {readOnly ? null : (
        <fetcher.Form method="post" {...getFormProps(form)} className="space-y-3">
          <input type="hidden" name="intent" value="chemical" />
          <IdempotencyKeyInput value={idempotencyKey} />
          <div className="space-y-1">
            <label htmlFor={fields.inventoryItemId.id} className="block text-sm font-medium text-slate-800">
              From stock
            </label>
            <select {...getSelectProps(fields.inventoryItemId)} className={inputClass}>
              <option value="">Not from stock (type the product)</option>
              {stock.map((item) => (
                <option key={item.id} value={item.id} disabled={item.qty === 0}>
                  {item.name} ({item.qty} in stock)
                </option>
              ))}
            </select>
            <p className="text-xs text-slate-500">A stock item is counted in whole units and taken off inventory.</p>
            <FieldError errors={fields.inventoryItemId.errors} />
          </div>
          <Field
            label="Product"
            errors={fields.product.errors}
            inputProps={getInputProps(fields.product, { type: 'text' })}
          />
          <div className="grid grid-cols-2 items-start gap-3">
            <Field
              label="Quantity"
              errors={fields.quantity.errors}
              inputProps={{ ...getInputProps(fields.quantity, { type: 'number' }), inputMode: 'decimal', step: 'any' }}
            />
            <div className="space-y-1">
              <label htmlFor={fields.unit.id} className="block text-sm font-medium text-slate-800">
                Unit
              </label>
              <select {...getSelectProps(fields.unit)} className={inputClass}>
                {CHEMICAL_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </select>
              <FieldError errors={fields.unit.errors} />
            </div>
          </div>
          {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
          {reply?.ok && !busy ? <Alert tone="success">{reply.ok}</Alert> : null}
          <Button type="submit" className="w-full" pending={busy} pendingLabel="Saving…">
            Add chemical
          </Button>
        </fetcher.Form>
      )}
    </Card>
  )
}
