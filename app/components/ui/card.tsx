import type { ComponentProps } from 'react'
import { cn } from './cn'

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return <section {...props} className={cn('rounded-xl border border-slate-200 bg-white p-5 shadow-sm', className)} />
}
