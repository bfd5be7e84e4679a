import type { ComponentProps } from 'react'
import { Link } from 'react-router'
import { cn } from './cn'

const VARIANTS = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60',
  secondary: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
  ghost: 'text-slate-700 hover:bg-slate-100',
} as const

export type ButtonVariant = keyof typeof VARIANTS

const BASE =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed'

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
