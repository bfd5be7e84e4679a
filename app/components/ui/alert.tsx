import type { ReactNode } from 'react'
import { cn } from './cn'

/** An inline status message: success in green, errors in the danger color (docs/product.md "Forms"). */
export function Alert({
  tone,
  children,
  className,
  id,
}: {
  tone: 'success' | 'error' | 'info'
  children: ReactNode
  className?: string
  id?: string
}) {
  return (
    <div
      id={id}
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-lg border px-3 py-2 text-sm',
        tone === 'error' && 'border-red-200 bg-red-50 text-danger',
        tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-800',
        tone === 'info' && 'border-brand-100 bg-brand-50 text-brand-900',
        className,
      )}
    >
      {children}
    </div>
  )
}
