import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { ComponentProps } from 'react'
import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { Field, FieldError, inputClass } from '~/components/ui/field'
import { SERVICE_WINDOWS, type ServiceWindow } from '~/db/schema/companies'
import { loadNoticeSettings, saveNoticeSettingsForm } from '~/features/notices/notice-settings.server'
import { NoticeSettingsSection } from '~/features/notices/notice-settings-section'
import { loadBillingSettings, saveBillingSettingsForm } from '~/features/settings/billing-settings.server'
import { BillingSettingsSection } from '~/features/settings/billing-settings-section'
import { checklistAction } from '~/features/settings/checklist-actions.server'
import { ChecklistSection } from '~/features/settings/checklist-section'
import { PlanSection } from '~/features/settings/plan-section'
import { listChecklist } from '~/models/checklist.server'
import { getCompanySettings, updateCompanySettings } from '~/models/company.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import { timezoneList } from '~/utils/dates'
import { optionalText, readForm } from '~/utils/forms'
import { can, type Role } from '~/utils/permissions'
import type { Route } from './+types/settings'

const SERVICE_WINDOW_LABELS: Record<ServiceWindow, string> = {
  morning: 'Morning 8-12',
  afternoon: 'Afternoon 12-4',
  flexible: 'Flexible',
}

const BILLING_REFUSED = 'Only the owner can change card-provider settings.'
const READ_ONLY_NOTE = 'Only owners and admins can change settings.'

/** A field the viewer may not change looks it (greyed), not just refuses input. */
const disabledLook = 'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600'

function settingsSchema(timezones: readonly string[]) {
  const allowed = new Set(timezones)
  return z.object({
    name: z
      .string({ error: 'Company name is required.' })
      .trim()
      .min(1, 'Company name is required.')
      .max(120, 'Use at most 120 characters.'),
    timezone: z
      .string({ error: 'Choose a timezone.' })
      .refine((value) => allowed.has(value), 'Choose a timezone from the list.'),
    defaultServiceWindow: z.enum(SERVICE_WINDOWS, { error: 'Choose a default service window.' }),
    cardPublishableKey: optionalText(255).refine(
      (value) => value === null || /^pk_(live|test)_[A-Za-z0-9]+$/.test(value),
      'Enter a publishable key that starts with pk_live_ or pk_test_.',
    ),
    stripeAccountId: optionalText(255).refine(
      (value) => value === null || /^acct_[A-Za-z0-9]+$/.test(value),
      'Enter an account id that starts with acct_.',
    ),
    customerPortalUrl: optionalText(2048).refine((value) => {
      if (value === null) return true
      try {
        const url = new URL(value)
        return url.protocol === 'https:' && Boolean(url.hostname)
      } catch {
        return false
      }
    }, 'Enter a full https:// address.'),
    // Checkboxes: an unticked box is simply absent from the form.
    serviceReportsEnabled: z.boolean().default(false),
    itemiseChemicals: z.boolean().default(false),
  })
}

type SettingsForm = z.infer<ReturnType<typeof settingsSchema>>

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCompanyCapability(request, 'settings:view')
  const [settings, checklist, notices, billing] = await Promise.all([
    getCompanySettings(user.companyId),
    listChecklist(user.companyId),
    loadNoticeSettings(user.companyId),
    loadBillingSettings(user.companyId, user.timezone),
  ])
  if (!settings) notFound()
  return {
    checklist,
    notices,
    billing,
    settings: {
      name: settings.name,
      timezone: settings.timezone,
      defaultServiceWindow: settings.defaultServiceWindow,
      cardPublishableKey: settings.cardPublishableKey ?? '',
      stripeAccountId: settings.stripeAccountId ?? '',
      customerPortalUrl: settings.customerPortalUrl ?? '',
      serviceReportsEnabled: settings.serviceReportsEnabled,
      itemiseChemicals: settings.itemiseChemicals,
    },
    canSave: can(user.role, 'settings:save'),
    canExport: can(user.role, 'data:export'),
    canEditBilling: can(user.role, 'settings:billing'),
    timezones: timezoneList(settings.timezone),
  }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireCompanyCapability(request, 'settings:save')
  const formData = await readForm(request)
  const intent = formData.get('intent')
  switch (intent) {
    case 'checklist-add':
    case 'checklist-rename':
    case 'checklist-move':
    case 'checklist-photo':
    case 'checklist-remove':
    case 'checklist-restore':
      return checklistAction(user.companyId, intent, formData)
    case 'notice-settings':
      return saveNoticeSettingsForm(user.companyId, formData)
    case 'billing-settings':
      return saveBillingSettingsForm(user.companyId, formData)
  }
  return saveSettings(user, formData)
}

/** The settings form itself (it posts no intent). */
async function saveSettings(user: { companyId: string; role: Role }, formData: FormData) {
  const current = await getCompanySettings(user.companyId)
  if (!current) notFound()
  const submission = parseWithZod(formData, { schema: settingsSchema(timezoneList(current.timezone)) })
  if (submission.status !== 'success') return data({ result: submission.reply(), notice: null }, 400)
  // A card field left out of the post (admins see it disabled) keeps its stored value.
  const { cardPublishableKey, stripeAccountId, ...fields } = submission.value
  const billing = { cardPublishableKey, stripeAccountId }
  const changedBilling = Object.fromEntries(
    (Object.keys(billing) as Array<keyof typeof billing>)
      .filter((key) => formData.has(key) && billing[key] !== current[key])
      .map((key) => [key, billing[key]]),
  )
  if (Object.keys(changedBilling).length > 0 && !can(user.role, 'settings:billing')) {
    return data({ result: submission.reply({ formErrors: [BILLING_REFUSED] }), notice: null }, 400)
  }
  try {
    const saved = await updateCompanySettings(user.companyId, { ...fields, ...changedBilling })
    if (!saved) throw new Error('company not found')
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    return data({ result: submission.reply({ formErrors: ['Unable to save settings.'] }), notice: null }, 500)
  }
  return { result: submission.reply(), notice: 'Settings saved.' }
}

export function meta() {
  return [{ title: 'Settings · Pool Bud' }]
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const { settings, checklist, canSave, canEditBilling, canExport, timezones } = loaderData
  // A section's form posts here too (without JavaScript its answer is the page's); each form reads its own reply.
  const settingsReply = actionData && 'result' in actionData ? actionData : undefined
  const schema = settingsSchema(timezones)
  const [form, fields] = useForm<SettingsForm>({
    id: 'settings',
    lastResult: settingsReply?.result,
    defaultValue: settings,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const saving = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post'
  const readOnly = !canSave
  const billingReadOnly = readOnly || !canEditBilling
  const windowErrorId = `${fields.defaultServiceWindow.id}-error`
  const { key: timezoneKey, ...timezoneProps } = getSelectProps(fields.timezone)
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <Card className="space-y-5">
        <h1 className="text-2xl font-bold">Settings</h1>
        {readOnly ? <Alert tone="info">{READ_ONLY_NOTE}</Alert> : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <Field
            label="Company name"
            errors={fields.name.errors}
            inputProps={{
              ...getInputProps(fields.name, { type: 'text' }),
              autoComplete: 'organization',
              disabled: readOnly,
              className: disabledLook,
            }}
          />
          <div className="space-y-1">
            <label htmlFor={fields.timezone.id} className="block text-sm font-medium text-slate-800">
              Timezone
            </label>
            <select
              {...timezoneProps}
              key={timezoneKey}
              disabled={readOnly}
              aria-describedby={fields.timezone.errors?.length ? `${fields.timezone.id}-error` : undefined}
              className={cn(inputClass, disabledLook)}
            >
              {timezones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
            <FieldError id={`${fields.timezone.id}-error`} errors={fields.timezone.errors} />
          </div>
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
          <Field
            label="Card-provider publishable key"
            errors={fields.cardPublishableKey.errors}
            hint={
              billingReadOnly && canSave
                ? BILLING_REFUSED
                : 'Optional. Starts with pk_live_ or pk_test_ (never the secret key).'
            }
            inputProps={{
              ...getInputProps(fields.cardPublishableKey, { type: 'text' }),
              autoComplete: 'off',
              spellCheck: false,
              placeholder: billingReadOnly ? undefined : 'pk_live_…',
              disabled: billingReadOnly,
              className: disabledLook,
            }}
          />
          <Field
            label="Card-provider account id"
            errors={fields.stripeAccountId.errors}
            hint={
              billingReadOnly && canSave ? 'Only the owner sets it.' : 'Optional. Your card provider account, acct_….'
            }
            inputProps={{
              ...getInputProps(fields.stripeAccountId, { type: 'text' }),
              autoComplete: 'off',
              spellCheck: false,
              placeholder: billingReadOnly ? undefined : 'acct_…',
              disabled: billingReadOnly,
              className: disabledLook,
            }}
          />
          <Field
            label="Customer portal URL"
            errors={fields.customerPortalUrl.errors}
            hint="Optional. A full https:// address."
            inputProps={{
              ...getInputProps(fields.customerPortalUrl, { type: 'url' }),
              placeholder: readOnly ? undefined : 'https://',
              disabled: readOnly,
              className: disabledLook,
            }}
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
              inputProps={{ ...getInputProps(fields.itemiseChemicals, { type: 'checkbox' }), disabled: readOnly }}
            />
          </fieldset>
          {form.errors ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
          {settingsReply?.notice && navigation.state === 'idle' ? (
            <Alert tone="success">{settingsReply.notice}</Alert>
          ) : null}
          {canSave ? (
            <Button type="submit" pending={saving} pendingLabel="Saving…">
              Save settings
            </Button>
          ) : null}
        </Form>
      </Card>
      <PlanSection plan={loaderData.billing.plan} />
      <BillingSettingsSection
        form={loaderData.billing.form}
        canSave={canSave}
        reply={actionData && 'billingSettings' in actionData ? actionData.billingSettings : undefined}
      />
      <ChecklistSection
        items={checklist}
        canEdit={canSave}
        reply={actionData && 'checklist' in actionData ? actionData.checklist : undefined}
      />
      <NoticeSettingsSection
        data={loaderData.notices}
        canSave={canSave}
        reply={actionData && 'noticeSettings' in actionData ? actionData.noticeSettings : undefined}
      />
      {canExport ? (
        <Card className="space-y-3" aria-labelledby="export-all-data">
          <h2 id="export-all-data" className="text-lg font-semibold">
            Export all data
          </h2>
          <p className="text-sm text-slate-700">
            A ZIP of CSV files: customers, service locations, bodies of water, service plans, visits, readings, invoices
            and payments, with the ids that link them.
          </p>
          <a href="/app/settings/export.zip" download className={buttonClass('secondary')}>
            Export all data
          </a>
        </Card>
      ) : null}
    </div>
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

export function ErrorBoundary() {
  return <RouteError />
}
