import type { InvoiceStatus } from '~/billing/invoice-status'
import { cn } from '~/components/ui/cn'

const STYLES: Record<InvoiceStatus, string> = {
  Draft: 'bg-slate-100 text-slate-700 ring-slate-300',
  Sent: 'bg-brand-50 text-brand-800 ring-brand-100',
  'Partially paid': 'bg-amber-50 text-amber-800 ring-amber-200',
  Paid: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  'Past due': 'bg-red-50 text-red-800 ring-red-200',
  Void: 'bg-slate-100 text-slate-600 ring-slate-200',
}

/** A status in the billing page's address (`?status=past-due`): its words, lower case, hyphenated. */
export function statusSlug(status: InvoiceStatus) {
  return status.toLowerCase().replace(/ /g, '-')
}

/** An invoice's status in words (OPERATIONS §7), in the colour the office reads at a glance. */
export function InvoiceStatusBadge({ status, className }: { status: InvoiceStatus; className?: string }) {
  return (
    <span
      className={cn(
        'inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1',
        STYLES[status],
        className,
      )}
    >
      {status}
    </span>
  )
}
