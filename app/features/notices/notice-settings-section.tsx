// Settings → "Customer notices" (docs/product.md "Notices", "Easy to get wrong"): per event an "Email" and a "Text"
// switch and the wording of each, previewed as a customer would read it (with sample values; for texts, how many
// characters and SMS segments it costs), and "Quiet hours". One form: it posts without JavaScript, and with it the
// previews follow every key.
import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  type SubmissionResult,
  useInputControl,
} from '@conform-to/react'
import type { ComponentProps } from 'react'
import { Form, useNavigation } from 'react-router'
import type { z } from 'zod'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { FieldError, inputClass, TextField } from '~/components/ui/field'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import { countSegments } from '~/notices/sms-segments'
import {
  DEFAULT_TEMPLATES,
  NOTICE_EVENTS,
  NOTICE_LABELS,
  type NoticeChannel,
  type NoticeEvent,
  PLACEHOLDERS,
  renderTemplate,
  type TemplateValues,
} from '~/notices/templates'
import type { NoticeSettingsSectionData } from './notice-settings.server'
import { NOTICE_SETTINGS_INTENT, NoticeSettingsSchema } from './notice-settings-schema'

/** The form's fields, as posted. */
type NoticeSettingsFields = z.input<typeof NoticeSettingsSchema>

export type NoticeSettingsReply = { result: SubmissionResult<string[]>; message: string | null }

const CHANNEL_LABELS: Record<NoticeChannel, string> = { email: 'Email', text: 'Text' }

/** A field the viewer may not change looks it (greyed), not just refuses input. */
const disabledLook = 'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600'

export function NoticeSettingsSection({
  data,
  canSave,
  reply,
}: {
  data: NoticeSettingsSectionData
  canSave: boolean
  reply: NoticeSettingsReply | undefined
}) {
  const navigation = useNavigation()
  const saving = usePosting(NOTICE_SETTINGS_INTENT, { untilReloaded: true })
  const [form, fields] = useZodForm(NoticeSettingsSchema, {
    id: 'notice-settings',
    lastResult: reply?.result,
    defaultValue: data.form,
  })
  const events = fields.events.getFieldset()
  const readOnly = !canSave
  return (
    <Card className="space-y-5" aria-labelledby="customer-notices-heading" id="customer-notices">
      <div className="space-y-1">
        <h2 id="customer-notices-heading" className="text-lg font-semibold">
          Customer notices
        </h2>
        <p className="text-sm text-slate-700">
          What customers hear from you, by email and by text. Customers can turn a channel off on their record. The
          wording may use {PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-5" preventScrollReset>
        <input type="hidden" name="intent" value={NOTICE_SETTINGS_INTENT} />
        {NOTICE_EVENTS.map((event) => (
          <EventFields
            key={event}
            event={event}
            fields={events[event].getFieldset()}
            sample={data.sample}
            readOnly={readOnly}
          />
        ))}
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 font-semibold">Quiet hours</legend>
          <p className="text-sm text-slate-700">
            Texts due between From and Until wait until Until ({data.timezone.replaceAll('_', ' ')} time). Emails go out
            at once.
          </p>
          <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
            {(
              [
                [fields.quietHoursFrom, 'From'],
                [fields.quietHoursUntil, 'Until'],
              ] as const
            ).map(([field, label]) => (
              <TextField
                key={label}
                field={field}
                label={label}
                type="time"
                disabled={readOnly}
                inputClassName={disabledLook}
              />
            ))}
          </div>
        </fieldset>
        <FormErrors form={form} />
        {reply?.message && navigation.state === 'idle' ? <Alert tone="success">{reply.message}</Alert> : null}
        {canSave ? (
          <Button type="submit" pending={saving} pendingLabel="Saving…">
            Save customer notices
          </Button>
        ) : null}
      </Form>
    </Card>
  )
}

type EventFieldset = ReturnType<
  FieldMetadata<NoticeSettingsFields['events'][NoticeEvent], NoticeSettingsFields, string[]>['getFieldset']
>

function EventFields({
  event,
  fields,
  sample,
  readOnly,
}: {
  event: NoticeEvent
  fields: EventFieldset
  sample: TemplateValues
  readOnly: boolean
}) {
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
      <legend className="px-1 font-semibold">{NOTICE_LABELS[event]}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        {(['email', 'text'] as const).map((channel) => (
          <Switch
            key={channel}
            label={CHANNEL_LABELS[channel]}
            inputProps={{ ...getInputProps(fields[channel], { type: 'checkbox' }), disabled: readOnly }}
          />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Wording event={event} channel="email" field={fields.emailTemplate} sample={sample} readOnly={readOnly} />
        <Wording event={event} channel="text" field={fields.textTemplate} sample={sample} readOnly={readOnly} />
      </div>
    </fieldset>
  )
}

/** An on/off switch: a checkbox (so it posts without JavaScript) that screen readers announce as a switch. */
function Switch({ label, inputProps }: { label: string; inputProps: ComponentProps<'input'> }) {
  return (
    <label htmlFor={inputProps.id} className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium">
      <input
        {...inputProps}
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox states its own checked state (ARIA in HTML forbids aria-checked on it).
        role="switch"
        className={cn(
          'relative h-7 w-12 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-500 transition-colors',
          'before:absolute before:top-0.5 before:left-0.5 before:size-6 before:rounded-full before:bg-white before:shadow before:transition-transform',
          'checked:bg-brand-700 checked:before:translate-x-5',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700',
          'disabled:cursor-not-allowed disabled:opacity-60',
        )}
      />
      {label}
    </label>
  )
}

/** One channel's wording: the textarea, "Reset to default", and the preview as the customer would read it. */
function Wording({
  event,
  channel,
  field,
  sample,
  readOnly,
}: {
  event: NoticeEvent
  channel: NoticeChannel
  field: FieldMetadata<string, NoticeSettingsFields, string[]>
  sample: TemplateValues
  readOnly: boolean
}) {
  const control = useInputControl(field)
  const value = typeof control.value === 'string' ? control.value : ''
  const preview = renderTemplate(value, sample)
  const label = `${CHANNEL_LABELS[channel]} wording`
  const errorId = `${field.id}-error`
  const previewId = `${field.id}-preview`
  const isDefault = value === DEFAULT_TEMPLATES[event]
  return (
    <div className="min-w-0 space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label htmlFor={field.id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {readOnly ? null : (
          <Button
            type="button"
            variant="ghost"
            className="px-2"
            disabled={isDefault}
            onClick={() => control.change(DEFAULT_TEMPLATES[event])}
          >
            Reset to default
            <span className="sr-only">
              {' '}
              ({NOTICE_LABELS[event]}, {CHANNEL_LABELS[channel]})
            </span>
          </Button>
        )}
      </div>
      <textarea
        id={field.id}
        name={field.name}
        value={value}
        rows={4}
        disabled={readOnly}
        onChange={(e) => control.change(e.target.value)}
        onBlur={control.blur}
        onFocus={control.focus}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={cn(Boolean(field.errors?.length) && errorId, previewId)}
        className={cn(inputClass, disabledLook)}
      />
      <FieldError id={errorId} errors={field.errors} />
      <div id={previewId} className="space-y-1 rounded-lg bg-slate-50 p-3 text-sm">
        <p className="text-xs font-semibold text-slate-600 uppercase">Preview</p>
        <p className="break-words whitespace-pre-line text-slate-900">{preview || '—'}</p>
        {channel === 'text' ? <SegmentCount text={preview} /> : null}
      </div>
    </div>
  )
}

function SegmentCount({ text }: { text: string }) {
  const { encoding, segments } = countSegments(text)
  const characters = Array.from(text).length
  const parts = [
    `${characters} ${characters === 1 ? 'character' : 'characters'}`,
    `${segments} ${segments === 1 ? 'segment' : 'segments'}`,
    ...(encoding === 'UCS-2' ? ['Unicode'] : []),
  ]
  return (
    <p className="text-xs text-slate-600" aria-live="polite">
      {parts.join(' · ')}
    </p>
  )
}
