import type { ComponentProps } from 'react'
import { Link } from 'react-router'
import { cn } from './cn'

// Named in app.css (`.btn`, `.btn-primary`…): every page has buttons, many have one per row.
const VARIANTS = {
  primary: 'btn-primary',
  secondary: 'btn-secondary',
  danger: 'btn-danger',
  ghost: 'btn-ghost',
} as const

export type ButtonVariant = keyof typeof VARIANTS

const BASE = 'btn'

export function buttonClass(variant: ButtonVariant = 'primary', className?: string) {
  return cn(BASE, VARIANTS[variant], className)
}

/** A button; `pending` disables it and swaps its label so double-submits cannot happen. */
export function Button({
  variant = 'primary',
  pending = false,
  pendingLabel,
  className,
  children,
  disabled,
  ...props
}: ComponentProps<'button'> & { variant?: ButtonVariant; pending?: boolean; pendingLabel?: string }) {
  return (
    <button
      {...props}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={buttonClass(variant, className)}
    >
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  )
}

export function ButtonLink({
  variant = 'primary',
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: ButtonVariant }) {
  return <Link {...props} className={buttonClass(variant, className)} />
}
