// The customer record's building blocks: one add or edit form (RecordForm, and useRecordForm for forms of their own
// shape), "Edit" and "Add …" as links that open a form in place (`?edit=…` / `?add=…`, so they work before JavaScript
// and survive a reload), "Remove" that asks before it posts, and a labeled detail of a read-only card.
import { type DefaultValue, type FormMetadata, getFormProps } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import type { z } from 'zod'
import { ConfirmForm } from '~/components/confirm-buttons'
import { Button, type ButtonVariant, buttonClass } from '~/components/ui/button'
import { FormErrors, usePosting, useZodForm } from '~/components/ui/form'
import type { RecordActionData, RecordIntent } from './customer-record-schema'
import { parseCustomerForm } from './form-fields'

/** A schema of a form's fields (what Conform's fieldset is typed by). */
type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>

export const recordLinkClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-sm font-medium text-brand-700 hover:underline'

export function EditLink({ to, what }: { to: string; what: string }) {
  return (
    <Link to={to} className={recordLinkClass} preventScrollReset>
      Edit<span className="sr-only"> {what}</span>
    </Link>
  )
}

/** A list's heading with its "Add …" link beside it; none (`add` null) while the form is open or on a read-only piece. */
export function ListHeading({
  children,
  add,
}: {
  children: ReactNode
  /** `context` is read out after the label ("Add body of water at 2 Gulf Blvd"). */
  add: { to: string; label: string; context: string } | null
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      {children}
      {add ? (
        <Link to={add.to} className={recordLinkClass} preventScrollReset>
          {add.label}
          <span className="sr-only"> {add.context}</span>
        </Link>
      ) : null}
    </div>
  )
}

export function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  )
}

/** "Remove", then a confirmation naming what goes, then the post. */
export function RemoveButton({
  intent,
  targetId,
  what,
  consequence,
  actionData,
}: {
  intent: RecordIntent
  targetId: string
  what: string
  consequence?: string
  actionData: RecordActionData
}) {
  const navigation = useNavigation()
  const pending =
    navigation.state === 'submitting' &&
    navigation.formData?.get('intent') === intent &&
    navigation.formData?.get('targetId') === targetId
  return (
    <div className="space-y-1">
      <ConfirmForm
        fields={{ intent, targetId }}
        label={
          <>
            Remove<span className="sr-only"> {what}</span>
          </>
        }
        variant="ghost"
        pending={pending}
        pendingLabel="Removing…"
        className="w-full space-y-2"
        question={
          <p className="text-sm text-slate-700">
            Remove {what}? {consequence}
          </p>
        }
        confirm="Yes, remove"
        error={actionData?.intent === intent && actionData.target === targetId ? actionData.message : null}
      />
    </div>
  )
}

/**
 * One add or edit form of the record: its intent (and the record it changes) as hidden fields, the schema the
 * action parses with, the fields drawn by `children`, errors next to them and the model's refusal under them.
 */
export function RecordForm<S extends FormSchema>({
  intent,
  targetId = '',
  schema,
  title,
  submitLabel,
  defaultValue,
  actionData,
  children,
}: {
  intent: RecordIntent
  targetId?: string
  schema: S
  title: string
  submitLabel: string
  defaultValue: Record<string, string>
  actionData: RecordActionData
  // biome-ignore lint/suspicious/noExplicitAny: the fieldset of the schema's fields, whichever schema it is.
  children: (fields: any) => ReactNode
}) {
  const { fields, frame } = useRecordForm({ intent, targetId, schema, defaultValue, actionData })
  return (
    <RecordFormFrame {...frame} submit={submitLabel}>
      <h3 className="text-lg font-semibold">{title}</h3>
      {children(fields)}
    </RecordFormFrame>
  )
}

/**
 * A record form's frame (`frame` of useRecordForm): Conform's form, the hidden intent and piece, then `children`,
 * the model's refusal, the submit button and the way back without saving.
 */
export function RecordFormFrame<Fields extends Record<string, unknown>>({
  form,
  intent,
  targetId,
  saving,
  submit,
  pendingLabel = 'Saving…',
  variant,
  cancel = 'Cancel',
  className = 'space-y-4',
  children,
}: {
  form: FormMetadata<Fields, string[]>
  intent: RecordIntent
  targetId: string
  saving: boolean
  submit: string
  pendingLabel?: string
  variant?: ButtonVariant
  cancel?: string
  className?: string
  children: ReactNode
}) {
  return (
    <Form method="post" {...getFormProps(form)} className={className} preventScrollReset>
      <RecordTarget intent={intent} targetId={targetId} />
      {children}
      <FormErrors form={form} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={variant} pending={saving} pendingLabel={pendingLabel}>
          {submit}
        </Button>
        <Link to="." className={buttonClass('secondary')} preventScrollReset>
          {cancel}
        </Link>
      </div>
    </Form>
  )
}

/**
 * Conform for one of the record's forms: an id of its intent and piece, the action's answer when it was about this
 * form, the schema's checks in the browser, and whether this form is being saved.
 */
export function useRecordForm<S extends FormSchema>({
  intent,
  targetId,
  schema,
  defaultValue,
  actionData,
}: {
  intent: RecordIntent
  targetId: string
  schema: S
  defaultValue: Record<string, string>
  actionData: RecordActionData
}) {
  const saving = usePosting(intent)
  const mine = actionData?.intent === intent && actionData.target === targetId
  const [form, fields] = useZodForm(schema, {
    id: `${intent}-${targetId || 'new'}`,
    lastResult: mine ? actionData.result : undefined,
    // The forms' values as a form posts them: text, whatever the field's type once parsed.
    defaultValue: defaultValue as DefaultValue<z.input<S>>,
    shouldValidate: 'onBlur',
    parse: (formData) => parseCustomerForm(formData, schema),
  })
  return { fields, frame: { form, intent, targetId, saving } }
}

/** The hidden fields that tell the action what a form does, and to which piece. */
export function RecordTarget({ intent, targetId }: { intent: RecordIntent; targetId: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="targetId" value={targetId} />
    </>
  )
}
