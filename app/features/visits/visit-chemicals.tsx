// "Chemicals added" on the visit page: what the technician put in the water (a stock item deducts from inventory).
// With JavaScript the form is checked by ChemicalAdditionSchema in the browser and queued on the phone like every
// other change of the visit; without it the form posts the 'chemical' intent.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors } from '~/components/ui/form'
import { CHEMICAL_MESSAGES, CHEMICAL_UNITS, ChemicalAdditionSchema, describeChemical } from '~/utils/chemicals'
import { useQueuedForm } from './queued-form'
import type { Queued } from './use-visit-changes'

export type ChemicalRow = { id: string; product: string; quantity: number; unit: string; fromStock: boolean }
export type StockOption = { id: string; name: string; qty: number }
export type ChemicalReply = { intent: 'chemical'; result: SubmissionResult<string[]>; ok: string | null }
/** A chemical queued on this phone and not yet read back, described as typed. */
export type PendingChemical = { key: string; text: string; waiting: boolean }

/** The visit's chemicals, with those still on the phone first. */
export function ChemicalList({
  chemicals,
  pending,
}: {
  chemicals: readonly ChemicalRow[]
  pending: readonly PendingChemical[]
}) {
  if (chemicals.length === 0 && pending.length === 0) {
    return <p className="text-sm text-slate-600">Nothing recorded on this visit yet.</p>
  }
  return (
    <ul className="space-y-1 text-sm" aria-label="Chemicals added">
      {pending.map((chemical) => (
        <li key={chemical.key} className="flex flex-wrap items-center gap-2">
          <span>{chemical.text}</span>
          {chemical.waiting ? <span className="text-xs font-medium text-amber-800">Waiting to send</span> : null}
        </li>
      ))}
      {chemicals.map((chemical) => (
        <li key={chemical.id} className="flex flex-wrap items-center gap-2">
          <span>{describeChemical(chemical)}</span>
          {chemical.fromStock ? <span className="text-xs text-slate-600">from stock</span> : null}
        </li>
      ))}
    </ul>
  )
}

export function VisitChemicals({
  chemicals,
  pending,
  stock,
  formKey,
  reply,
  busy,
  onQueue,
}: {
  chemicals: readonly ChemicalRow[]
  pending: readonly PendingChemical[]
  stock: readonly StockOption[]
  /** A fresh idempotency key from the loader (see useIdempotencyKey). */
  formKey: string
  /** The 'chemical' intent's answer (a plain form post). */
  reply: ChemicalReply | undefined
  busy: boolean
  onQueue: (fields: Record<string, string>) => Promise<Queued>
}) {
  const saved = reply?.ok && !busy ? reply : null
  const idempotencyKey = useIdempotencyKey(formKey, saved)
  const { form, fields, queued, clearQueued } = useQueuedForm({
    id: 'chemical',
    schema: ChemicalAdditionSchema,
    defaultValue: { unit: 'fl oz' },
    lastResult: busy ? undefined : reply?.result,
    saved: CHEMICAL_MESSAGES.saved,
    onQueue,
  })
  return (
    <Card className="space-y-4" aria-labelledby="chemicals-heading">
      <h2 id="chemicals-heading" className="text-lg font-semibold">
        Chemicals added
      </h2>
      <ChemicalList chemicals={chemicals} pending={pending} />
      <Form method="post" {...getFormProps(form)} className="space-y-3" onInput={clearQueued}>
        <input type="hidden" name="intent" value="chemical" />
        <IdempotencyKeyInput value={idempotencyKey} />
        <SelectField
          field={fields.inventoryItemId}
          label="From stock"
          hint="A stock item is counted in whole units and taken off inventory."
        >
          <option value="">Not from stock (type the product)</option>
          {stock.map((item) => (
            <option key={item.id} value={item.id} disabled={item.qty === 0}>
              {item.name} ({item.qty} in stock)
            </option>
          ))}
        </SelectField>
        <TextField field={fields.product} label="Product" />
        <div className="grid grid-cols-2 items-start gap-3">
          <TextField field={fields.quantity} label="Quantity" type="number" inputMode="decimal" step="any" />
          <SelectField
            field={fields.unit}
            label="Unit"
            options={CHEMICAL_UNITS.map((unit) => ({ value: unit, label: unit }))}
          />
        </div>
        <FormErrors form={form} />
        {queued && 'error' in queued ? <Alert tone="error">{queued.error}</Alert> : null}
        {queued && 'ok' in queued ? <Alert tone="success">{queued.ok}</Alert> : null}
        {saved ? <Alert tone="success">{saved.ok}</Alert> : null}
        <Button type="submit" variant="secondary" className="w-full" pending={busy} pendingLabel="Saving…">
          Add chemical
        </Button>
      </Form>
    </Card>
  )
}
