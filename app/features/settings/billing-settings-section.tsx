// Settings → "Billing" (OPERATIONS §7): "Tax rate" (a percent, up to three decimals, 0 to 30) and "Payment terms"
// (days from an invoice's issue to its due date, 0 to 120). It applies to invoices created and sent from now on;
// invoices already made keep their tax and due date. Posts without JavaScript; with it, errors show as you type.
import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import type { z } from 'zod'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import type { BillingSettingsData } from './billing-settings.server'
import {
  BILLING_SETTINGS_INTENT,
  BillingSettingsFields,
  type BillingSettingsInput,
  BillingSettingsSchema,
} from './billing-settings-schema'

export type BillingSettingsReply = { result: SubmissionResult<string[]>; message: string | null }

/** A field the viewer may not change looks it (greyed), not just refuses input. */
const disabledLook = 'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600'

export function BillingSettingsSection({
  form: values,
  canSave,
  reply,
}: {
  form: BillingSettingsData['form']
  canSave: boolean
  reply: BillingSettingsReply | undefined
}) {
  const navigation = useNavigation()
  const saving = navigation.state !== 'idle' && navigation.formData?.get('intent') === BILLING_SETTINGS_INTENT
  const [form, fields] = useForm<BillingSettingsInput, z.output<typeof BillingSettingsSchema>>({
    id: 'billing-settings',
    lastResult: reply?.result,
    defaultValue: values,
    constraint: getZodConstraint(BillingSettingsFields),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BillingSettingsSchema }),
  })
  const readOnly = !canSave
  return (
    <Card className="space-y-4" aria-labelledby="billing-settings-heading" id="billing">
      <div className="space-y-1">
        <h2 id="billing-settings-heading" className="text-lg font-semibold">
          Billing
        </h2>
        <p className="text-sm text-slate-700">
          Used for invoices you create and send from now on. Invoices already made keep their tax and due date.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={BILLING_SETTINGS_INTENT} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field
            label="Tax rate"
            errors={fields.taxRate.errors}
            hint="Percent, up to 3 decimals: 7.25 for 7.25 %, 8.875 for 8.875 %. 0 for no tax."
            inputProps={{
              ...getInputProps(fields.taxRate, { type: 'text' }),
              inputMode: 'decimal',
              autoComplete: 'off',
              disabled: readOnly,
              className: disabledLook,
            }}
          />
          <Field
            label="Payment terms"
            errors={fields.paymentTermsDays.errors}
            hint="Days from an invoice's issue to its due date (0 to 120). After it, the invoice is Past due."
            inputProps={{
              ...getInputProps(fields.paymentTermsDays, { type: 'number' }),
              inputMode: 'numeric',
              disabled: readOnly,
              className: disabledLook,
            }}
          />
        </div>
        {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
        {reply?.message && navigation.state === 'idle' ? <Alert tone="success">{reply.message}</Alert> : null}
        {canSave ? (
          <Button type="submit" pending={saving} pendingLabel="Saving…">
            Save billing settings
          </Button>
        ) : null}
      </Form>
    </Card>
  )
}
