// "Change prices" (docs/billing.md): one form — which plans, the increase, the effective date, "Notify customers" —
// with two buttons. "Preview" lists what would change (nothing written); once a preview is on screen, "Apply" sends
// the same choices with the preview's fingerprint and change id, so only what was previewed is written, and only once
// (the server refuses, and shows the new preview, if anything changed meanwhile; a second "Apply" of the same preview
// is answered "Already applied"). Works without JavaScript; with it, errors show as you type.
import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { ANY, UNASSIGNED } from '~/billing/price-change'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { FieldError, SelectField, TextField } from '~/components/ui/field'
import { FormErrors, useZodForm } from '~/components/ui/form'
import type { PriceChangePreview } from '~/models/price-change-preview.server'
import { RATE_TYPE_LABELS } from '~/models/service-plan-schemas'
import { RATE_TYPES } from '~/utils/customer-fields'
import { PriceChangeFields, PriceChangeSchema } from './price-change-schema'
import { PricePreview } from './price-preview'

export type PriceChangeReply = { result: SubmissionResult<string[]>; preview: PriceChangePreview | null }

const RATE_MATCH_LABELS = { any: 'Any rate', equal: 'Equal to', between: 'Between' } as const

export function PriceChangeForm({
  technicians,
  defaultEffectiveOn,
  today,
  formKey,
  reply,
}: {
  technicians: { id: string; name: string }[]
  defaultEffectiveOn: string
  today: string
  formKey: string
  reply: PriceChangeReply | undefined
}) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post'
  const pressed = navigation.formData?.get('intent')
  const idempotencyKey = useIdempotencyKey(formKey, null)
  const [form, fields] = useZodForm(PriceChangeSchema, {
    id: 'change-prices',
    lastResult: reply?.result,
    defaultValue: {
      rateType: ANY,
      technician: ANY,
      rateMatch: 'any',
      increaseKind: 'percent',
      effectiveOn: defaultEffectiveOn,
    },
    constraint: PriceChangeFields,
  })
  const preview = reply?.preview ?? null
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <IdempotencyKeyInput value={idempotencyKey} />
      {preview ? <input type="hidden" name="fingerprint" value={preview.fingerprint} /> : null}
      {preview ? <input type="hidden" name="changeId" value={preview.changeId} /> : null}
      <Card className="space-y-4" aria-labelledby="choose-plans">
        <h2 id="choose-plans" className="text-lg font-semibold">
          Choose plans
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <SelectField label="Rate type" field={fields.rateType}>
            <option value={ANY}>Any rate type</option>
            {RATE_TYPES.map((type) => (
              <option key={type} value={type}>
                {RATE_TYPE_LABELS[type]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Technician" field={fields.technician}>
            <option value={ANY}>Any technician</option>
            <option value={UNASSIGNED}>No technician</option>
            {technicians.map((tech) => (
              <option key={tech.id} value={tech.id}>
                {tech.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Current rate"
            field={fields.rateMatch}
            hint="“Any rate” ignores the amounts. Equal to: fill “Rate from”. Between: fill both."
          >
            {Object.entries(RATE_MATCH_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <div className="grid grid-cols-2 gap-3">
            <TextField field={fields.rateFrom} label="Rate from ($)" inputMode="decimal" />
            <TextField field={fields.rateTo} label="Rate to ($)" inputMode="decimal" />
          </div>
        </div>
      </Card>
      <Card className="space-y-4" aria-labelledby="the-change">
        <h2 id="the-change" className="text-lg font-semibold">
          Change
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Increase by</legend>
            <div className="flex flex-wrap gap-2">
              {(['percent', 'amount'] as const).map((kind) => (
                <label
                  key={kind}
                  className="flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name={fields.increaseKind.name}
                    value={kind}
                    defaultChecked={(fields.increaseKind.initialValue ?? 'percent') === kind}
                    className="size-4 accent-brand-600"
                  />
                  {kind === 'percent' ? 'Percent (%)' : 'Dollars ($)'}
                </label>
              ))}
            </div>
            <FieldError errors={fields.increaseKind.errors} />
          </fieldset>
          <TextField
            field={fields.increase}
            label="Increase"
            hint="5 raises each rate 5 % (or $5); −5 lowers it. Rates never go below $0.00."
            inputMode="decimal"
            autoComplete="off"
          />
          <TextField
            field={fields.effectiveOn}
            label="Effective date"
            type="date"
            hint="Invoices for months starting on or after this date use the new prices; earlier months keep the old ones."
            min={today}
          />
          <label className="flex min-h-11 items-start gap-3 rounded-lg px-1 py-2 text-sm">
            <input
              {...getInputProps(fields.notify, { type: 'checkbox' })}
              className="mt-0.5 size-5 shrink-0 accent-brand-700"
            />
            <span>
              <span className="font-medium text-slate-800">Notify customers</span>
              <span className="block text-slate-600">
                Email each affected customer their new price (customers with an email address who take email notices).
              </span>
            </span>
          </label>
        </div>
      </Card>
      <FormErrors form={form} />
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          name="intent"
          value="preview"
          variant={preview ? 'secondary' : 'primary'}
          pending={busy && pressed === 'preview'}
          pendingLabel="Previewing…"
          disabled={busy}
        >
          Preview
        </Button>
      </div>
      {preview ? <PricePreview preview={preview} applying={busy && pressed === 'apply'} disabled={busy} /> : null}
    </Form>
  )
}
