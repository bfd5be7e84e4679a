// Settings → "Billing" (docs/billing.md): "Payment terms" (days from an invoice's issue to its due date, 0 to 120), and
// the way to "Tax rates" (a page of its own, docs/decisions/052-tax-rates.md). Terms apply to invoices sent from now
// on. Posts without JavaScript; with it, errors show as you type.
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { Card } from '~/components/ui/card'
import { usePosting, useZodForm } from '~/components/ui/form'
import type { BillingSettingsData } from './billing-settings.server'
import { BILLING_SETTINGS_INTENT, BillingSettingsFields, BillingSettingsSchema } from './billing-settings-schema'
import { LockableField, SaveFooter } from './settings-form-parts'

export type BillingSettingsReply = { result: SubmissionResult<string[]>; message: string | null }

export function BillingSettingsSection({
  form: values,
  canSave,
  reply,
}: {
  form: BillingSettingsData['form']
  canSave: boolean
  reply: BillingSettingsReply | undefined
}) {
  const saving = usePosting(BILLING_SETTINGS_INTENT, { untilReloaded: true })
  const [form, fields] = useZodForm(BillingSettingsSchema, {
    id: 'billing-settings',
    lastResult: reply?.result,
    defaultValue: values,
    constraint: BillingSettingsFields,
  })
  const readOnly = !canSave
  return (
    <Card className="space-y-4" aria-labelledby="billing-settings-heading" id="billing">
      <div className="space-y-1">
        <h2 id="billing-settings-heading" className="text-lg font-semibold">
          Billing
        </h2>
        <p className="text-sm text-slate-700">
          Used for invoices you send from now on. Invoices already sent keep their due date.
        </p>
        <p className="text-sm">
          <a href="/app/settings/tax-rates" className="font-medium text-brand-700 underline">
            Tax rates
          </a>
          : the rates your service locations are taxed at.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={BILLING_SETTINGS_INTENT} />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <LockableField
            meta={fields.paymentTermsDays}
            type="number"
            label="Payment terms"
            hint="Days from an invoice's issue to its due date (0 to 120). After it, the invoice is Past due."
            locked={readOnly}
            inputProps={{ inputMode: 'numeric' }}
          />
        </div>
        <SaveFooter form={form} message={reply?.message} canSave={canSave} saving={saving}>
          Save billing settings
        </SaveFooter>
      </Form>
    </Card>
  )
}
