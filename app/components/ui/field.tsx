// Every labeled form control: its label, its hint and its error message wired up for screen readers. `Field` takes
// plain input props; `TextField`, `SelectField`, `TextareaField` and `CheckboxField` take a Conform field and read its
// name, id, value and errors from it, so a form names each field once.
import { type FieldMetadata, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import type { ComponentProps, ReactNode } from 'react'
import { useId } from 'react'
import { cn } from './cn'

/** Named in app.css: every form repeats it. */
export const inputClass = 'input-field'

// Conform's metadata of any field; these read only its name, id, value, constraint and errors.
// biome-ignore lint/suspicious/noExplicitAny: a field of any schema.
export type ConformField = FieldMetadata<any, any, string[]>

type InputType =
  | 'text'
  | 'email'
  | 'tel'
  | 'url'
  | 'number'
  | 'date'
  | 'datetime-local'
  | 'time'
  | 'password'
  | 'search'
  | 'file'

/** The aria attributes of the control whose id is `id`: its error and hint, as FieldFrame draws them. */
function described(id: string, errors: string[] | undefined, hint: ReactNode) {
  const hasErrors = Boolean(errors?.length)
  return {
    'aria-invalid': hasErrors || undefined,
    'aria-describedby': cn(hasErrors && `${id}-error`, hint ? `${id}-hint` : undefined) || undefined,
  }
}

/**
 * The label above, the hint and the error under the control whose id is `id` (the children). The fields below are
 * drawn in it; a control of its own kind (a combobox, a note saved as it is typed) uses it directly.
 */
export function FieldFrame({
  id,
  label,
  hideLabel,
  errors,
  hint,
  className,
  children,
}: {
  id: string
  label: ReactNode
  /** Read by screen readers only, where the row around the control already says what it is. */
  hideLabel?: boolean
  errors?: string[] | undefined
  hint?: ReactNode
  className?: string
  children: ReactNode
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  )
}

/** A labeled input with its error message wired up for screen readers. */
export function Field({
  label,
  hideLabel,
  errors,
  hint,
  inputProps: { key, ...inputProps },
  className,
}: {
  label: ReactNode
  hideLabel?: boolean
  errors?: string[] | undefined
  hint?: ReactNode
  inputProps: ComponentProps<'input'>
  className?: string
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  return (
    <FieldFrame id={id} label={label} hideLabel={hideLabel} errors={errors} hint={hint} className={className}>
      <input
        key={key}
        {...inputProps}
        id={id}
        {...described(id, errors, hint)}
        className={cn(inputClass, inputProps.className)}
      />
    </FieldFrame>
  )
}

type ControlProps<Element extends 'input' | 'select' | 'textarea'> = Omit<
  ComponentProps<Element>,
  'id' | 'name' | 'form' | 'type' | 'defaultValue' | 'children' | 'className'
>

/** A labeled text (or number, date, email…) input bound to a Conform field. */
export function TextField({
  field,
  label,
  hideLabel,
  type = 'text',
  hint,
  className,
  inputClassName,
  ...inputProps
}: {
  field: ConformField
  label: ReactNode
  hideLabel?: boolean
  type?: InputType
  hint?: ReactNode
  /** The frame's (label, input, hint, error); `inputClassName` is added to the input's own. */
  className?: string
  inputClassName?: string
} & ControlProps<'input'>) {
  return (
    <Field
      label={label}
      hideLabel={hideLabel}
      hint={hint}
      errors={field.errors}
      className={className}
      inputProps={{ ...getInputProps(field, { type }), ...inputProps, className: inputClassName }}
    />
  )
}

/** A labeled select bound to a Conform field: `options`, after any given as children (a blank "Choose…"). */
export function SelectField({
  field,
  label,
  hideLabel,
  hint,
  className,
  inputClassName,
  options = [],
  children,
  ...selectProps
}: {
  field: ConformField
  label: ReactNode
  hideLabel?: boolean
  hint?: ReactNode
  className?: string
  inputClassName?: string
  options?: ReadonlyArray<{ value: string; label: string }>
  children?: ReactNode
} & ControlProps<'select'>) {
  const { key, ...props } = getSelectProps(field)
  return (
    <FieldFrame
      id={field.id}
      label={label}
      hideLabel={hideLabel}
      errors={field.errors}
      hint={hint}
      className={className}
    >
      <select
        key={key}
        {...props}
        {...selectProps}
        {...described(field.id, field.errors, hint)}
        className={cn(inputClass, inputClassName)}
      >
        {children}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  )
}

/** A labeled textarea bound to a Conform field. */
export function TextareaField({
  field,
  label,
  hint,
  className,
  rows = 3,
  ...textareaProps
}: {
  field: ConformField
  label: ReactNode
  hint?: ReactNode
  className?: string
} & ControlProps<'textarea'>) {
  const { key, ...props } = getTextareaProps(field)
  return (
    <FieldFrame id={field.id} label={label} errors={field.errors} hint={hint} className={className}>
      <textarea
        key={key}
        {...props}
        rows={rows}
        {...textareaProps}
        {...described(field.id, field.errors, hint)}
        className={inputClass}
      />
    </FieldFrame>
  )
}

/** A checkbox with its label beside it, bound to a Conform field posted as "on". */
export function CheckboxField({ field, label }: { field: ConformField; label: ReactNode }) {
  const errorId = `${field.id}-error`
  const hasErrors = Boolean(field.errors?.length)
  return (
    <div className="space-y-1">
      <label htmlFor={field.id} className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          id={field.id}
          name={field.name}
          defaultChecked={field.initialValue === 'on' || field.initialValue === 'true'}
          aria-invalid={hasErrors || undefined}
          aria-describedby={hasErrors ? errorId : undefined}
          className="size-5 rounded border-slate-300"
        />
        {label}
      </label>
      <FieldError id={errorId} errors={field.errors} />
    </div>
  )
}

export function FieldError({ id, errors }: { id?: string; errors?: string[] | undefined }) {
  if (!errors?.length) return null
  return (
    <p id={id} className="text-sm text-danger">
      {errors.join(' ')}
    </p>
  )
}
