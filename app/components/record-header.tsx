// The top of a record page (a customer, an invoice): the way back to its list, the record's name as the page's
// heading with its badge beside it, and what the page says next (a balance, the amount due).
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { cn } from './ui/cn'
import { textLinkTarget } from './ui/touch'

export function RecordHeader({
  back,
  backLabel,
  title,
  badge,
  children,
}: {
  back: string
  /** The list's name: "← Customers". */
  backLabel: string
  title: string
  badge?: ReactNode
  children?: ReactNode
}) {
  return (
    <div className="space-y-2">
      {/* A way back means nothing on paper. */}
      <Link to={back} className={cn('text-sm font-medium text-brand-700 hover:underline print:hidden', textLinkTarget)}>
        {`← ${backLabel}`}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-bold wrap-anywhere">{title}</h1>
        {badge}
      </div>
      {children}
    </div>
  )
}
