// Settings' own form: the company's name, email and mailing address (what customers see, decision 044), its timezone
// (a searchable list, US zones first), default service window, card-provider keys, customer portal address and
// service reports. Dispatchers read it; owners and admins save it; only the owner changes the card
// provider's fields (an admin sees them greyed).
import { getCollectionProps, getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import type { ComponentProps } from 'react'
import { Form, useNavigation } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Card } from '~/components/ui/card'
import { Field, FieldError, TextareaField } from '~/components/ui/field'
import { useZodForm } from '~/components/ui/form'
import { SERVICE_WINDOWS, type ServiceWindow } from '~/utils/company-fields'
import type { CompanySettingsData } from './company-settings.server'
import { BILLING_REFUSED, COMPANY_EMAIL_HINT, companySettingsSchema, timezoneOptions } from './company-settings-schema'
import { disabledLook, LockableField, SaveFooter } from './settings-form-parts'

type CompanySettingsReply = { result: SubmissionResult<string[]>; notice: string | null }

const SERVICE_WINDOW_LABELS: Record<ServiceWindow, string> = {
  morning: 'Morning 8-12',
  afternoon: 'Afternoon 12-4',
  flexible: 'Flexible',
}

const READ_ONLY_NOTE = 'Only owners and admins can change settings.'

/** The card provider's two fields: what each says to the owner, and to an admin who may not change it. */
const CARD_FIELDS = [
  {
    name: 'cardPublishableKey',
    label: 'Card-provider publishable key',
    hint: 'Optional. Starts with pk_live_ or pk_test_ (never the secret key).',
    refused: BILLING_REFUSED,
    placeholder: 'pk_live_…',
  },
  {
    name: 'stripeAccountId',
    label: 'Card-provider account id',
    hint: 'Optional. Your card provider account, acct_….',
    refused: 'Only the owner sets it.',
    placeholder: 'acct_…',
  },
] as const

export function CompanySettingsSection({
  data: { settings, timezones },
  canSave,
  canEditBilling,
  reply,
}: {
  data: CompanySettingsData
  canSave: boolean
  canEditBilling: boolean
  reply: CompanySettingsReply | undefined
}) {
  const navigation = useNavigation()
  const schema = companySettingsSchema(timezones)
  const [form, fields] = useZodForm(schema, { id: 'settings', lastResult: reply?.result, defaultValue: settings })
  const saving = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post'
  const readOnly = !canSave
  const billingReadOnly = readOnly || !canEditBilling
  const windowErrorId = `${fields.defaultServiceWindow.id}-error`
  const zoneListId = `${fields.timezone.id}-list`
  const { key: _zoneKey, ...zoneInput } = getInputProps(fields.timezone, { type: 'text' })
  return (
    <Card className="space-y-5">
      <h1 className="text-2xl font-bold">Settings</h1>
      {readOnly ? <Alert tone="info">{READ_ONLY_NOTE}</Alert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <LockableField
          meta={fields.name}
          type="text"
          label="Company name"
          locked={readOnly}
          inputProps={{ autoComplete: 'organization' }}
        />
        <LockableField
          meta={fields.email}
          type="email"
          label="Company email"
          hint={COMPANY_EMAIL_HINT}
          locked={readOnly}
          inputProps={{ autoComplete: 'email' }}
        />
        <TextareaField
          field={fields.mailingAddress}
          label="Company address"
          hint="Optional. Your mailing address, printed on invoices."
          rows={3}
          disabled={readOnly}
          autoComplete="street-address"
        />
        <Field
          label="Timezone"
          errors={fields.timezone.errors}
          hint="Type to search: a city (Chicago), a region (Pacific) or a zone name (America/Denver)."
          inputProps={{
            ...zoneInput,
            list: zoneListId,
            autoComplete: 'off',
            spellCheck: false,
            disabled: readOnly,
            className: disabledLook,
          }}
        />
        <datalist id={zoneListId}>
          {timezoneOptions(timezones).map((zone) => (
            <option key={zone.value} value={zone.value} label={zone.label === zone.value ? undefined : zone.label} />
          ))}
        </datalist>
        <fieldset
          className="space-y-2"
          aria-describedby={fields.defaultServiceWindow.errors ? windowErrorId : undefined}
        >
          <legend className="text-sm font-medium text-slate-800">Default service window</legend>
          <div className="flex flex-wrap gap-2">
            {getCollectionProps(fields.defaultServiceWindow, { type: 'radio', options: [...SERVICE_WINDOWS] }).map(
              ({ key, ...props }) => (
                <label
                  key={key}
                  htmlFor={props.id}
                  className="flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
                >
                  <input {...props} disabled={readOnly} className="size-4 accent-brand-600" />
                  {SERVICE_WINDOW_LABELS[props.value as ServiceWindow]}
                </label>
              ),
            )}
          </div>
          <FieldError id={windowErrorId} errors={fields.defaultServiceWindow.errors} />
        </fieldset>
        {CARD_FIELDS.map((card) => (
          <LockableField
            key={card.name}
            meta={fields[card.name]}
            type="text"
            label={card.label}
            hint={billingReadOnly && canSave ? card.refused : card.hint}
            locked={billingReadOnly}
            inputProps={{
              autoComplete: 'off',
              spellCheck: false,
              placeholder: billingReadOnly ? undefined : card.placeholder,
            }}
          />
        ))}
        <LockableField
          meta={fields.customerPortalUrl}
          type="url"
          label="Customer portal URL"
          hint="Optional. A full https:// address."
          locked={readOnly}
          inputProps={{ placeholder: readOnly ? undefined : 'https://' }}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Service reports</legend>
          <Checkbox
            label="Email customers a service report after each visit"
            hint="Sent when a technician marks the visit complete, to customers with an email address."
            inputProps={{ ...getInputProps(fields.serviceReportsEnabled, { type: 'checkbox' }), disabled: readOnly }}
          />
          <Checkbox
            label="List the chemicals added in reports and the customer portal"
            inputProps={{ ...getInputProps(fields.itemizeChemicals, { type: 'checkbox' }), disabled: readOnly }}
          />
        </fieldset>
        <SaveFooter form={form} message={reply?.notice} canSave={canSave} saving={saving}>
          Save settings
        </SaveFooter>
      </Form>
    </Card>
  )
}

function Checkbox({ label, hint, inputProps }: { label: string; hint?: string; inputProps: ComponentProps<'input'> }) {
  return (
    <label htmlFor={inputProps.id} className="flex min-h-11 items-start gap-3 rounded-lg px-1 py-2 text-sm">
      <input {...inputProps} className="mt-0.5 size-5 shrink-0 accent-brand-700" />
      <span>
        <span className="font-medium text-slate-800">{label}</span>
        {hint ? <span className="block text-slate-600">{hint}</span> : null}
      </span>
    </label>
  )
}
