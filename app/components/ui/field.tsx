import type { ComponentProps, ReactNode } from 'react'
import { useId } from 'react'
import { cn } from './cn'

export const inputClass =
  'block w-full min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-[invalid=true]:border-red-600'

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
