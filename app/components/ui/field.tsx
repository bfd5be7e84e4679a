import type { ComponentProps, ReactNode } from 'react'
import { useId } from 'react'
import { cn } from './cn'

/** Named in app.css: every form repeats it. */
export const inputClass = 'input-field'

/** A labelled input with its error message wired up for screen readers. */
export function Field({
  label,
  errors,
  hint,
  inputProps,
  className,
}: {
  label: ReactNode
  errors?: string[] | undefined
  hint?: ReactNode
  inputProps: ComponentProps<'input'>
  className?: string
}) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const hasErrors = Boolean(errors?.length)
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        {...inputProps}
        id={id}
        aria-invalid={hasErrors || undefined}
        aria-describedby={cn(hasErrors && errorId, hint ? hintId : undefined) || undefined}
        className={cn(inputClass, inputProps.className)}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} errors={errors} />
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
