// "Record payment" (docs/billing.md): amount, date, method, reference — and on the customer record, which open invoice
// (or "Account credit") it pays. Checked in the browser with the action's own schema; whatever the action refuses
// comes back next to its field with everything typed kept. The form carries an idempotency key, so a double submit
// records one payment. The amount starts empty — nothing is recorded by one click, and the whole balance is typed
// only by choosing "Pay in full" (issue 31, item 2), which fills what the chosen invoice still owes.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { IdempotencyKeyInput, useIdempotencyKey } from '~/components/idempotency-key'
import { Button } from '~/components/ui/button'
import { SelectField, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { LocalDate } from '~/schedule/local-date'
import { ACCOUNT_CREDIT, PAYMENT_METHOD_OPTIONS, RECORD_PAYMENT_INTENT, recordPaymentSchema } from './payment-form'

/** `dueDollars`: what it owes as the amount field takes it ("85.00"), for "Pay in full". */
export type OpenInvoiceOption = { id: string; label: string; amountDue: string; dueDollars: string }

export function RecordPaymentForm({
  today,
  fullAmount,
  openInvoices,
  idempotencyKey,
  lastResult,
}: {
  /** The company's today: the date's default and its latest allowed value. */
  today: LocalDate
  /** What the invoice page's invoice owes, as dollars ("85.00"), for "Pay in full"; empty when nothing is. */
  fullAmount: string
  /** The customer record's choice of invoice (oldest owing first); absent on an invoice's own page. */
  openInvoices?: readonly OpenInvoiceOption[]
  /** A fresh key from the loader (see useIdempotencyKey). */
  idempotencyKey: string
  /** The action's answer to this form, if it refused it. */
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const saving = usePosting(RECORD_PAYMENT_INTENT)
  const withTarget = openInvoices !== undefined
  const schema = recordPaymentSchema({ today, withTarget })
  const key = useIdempotencyKey(idempotencyKey, null)
  const [form, fields] = useZodForm(schema, {
    id: 'record-payment',
    lastResult,
    defaultValue: {
      amount: '',
      receivedOn: today,
      method: 'check',
      reference: '',
      ...(withTarget ? { appliesTo: openInvoices[0]?.id ?? ACCOUNT_CREDIT } : {}),
    },
    shouldValidate: 'onBlur',
  })
  // "Pay in full": what the chosen invoice owes (on the customer record, the one "Apply to" names).
  const chosen = openInvoices?.find((invoice) => invoice.id === fields.appliesTo.value)
  const inFull = openInvoices ? (chosen?.dueDollars ?? '') : fullAmount
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <input type="hidden" name="intent" value={RECORD_PAYMENT_INTENT} />
      <IdempotencyKeyInput value={key} />
      <div className="grid gap-4 sm:grid-cols-2">
        {openInvoices ? (
          <div className="sm:col-span-2">
            <SelectField
              field={fields.appliesTo}
              label="Apply to"
              options={[
                ...openInvoices.map((invoice) => ({
                  value: invoice.id,
                  label: `${invoice.label} · ${invoice.amountDue} due`,
                })),
                { value: ACCOUNT_CREDIT, label: 'Account credit' },
              ]}
            />
          </div>
        ) : null}
        <div className="space-y-2">
          <TextField
            field={fields.amount}
            label="Amount"
            inputMode="decimal"
            hint="In dollars, like 120 or 1,234.50."
            autoComplete="off"
          />
          {inFull ? (
            <Button
              type="button"
              variant="secondary"
              onClick={() => form.update({ name: fields.amount.name, value: inFull })}
            >
              Pay in full
            </Button>
          ) : null}
        </div>
        <TextField
          field={fields.receivedOn}
          label="Date"
          type="date"
          hint="The day it was received."
          autoComplete="off"
        />
        <SelectField field={fields.method} label="Method" options={PAYMENT_METHOD_OPTIONS} />
        <TextField
          field={fields.reference}
          label="Reference"
          hint="Optional: a check number or transfer id."
          autoComplete="off"
        />
      </div>
      <FormErrors form={form} />
      <Button type="submit" pending={saving} pendingLabel="Recording…">
        Record payment
      </Button>
    </Form>
  )
}
