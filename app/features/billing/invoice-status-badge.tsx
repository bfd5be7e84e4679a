import type { InvoiceStatus } from '~/billing/invoice-status'
import { cn } from '~/components/ui/cn'

const STYLES: Record<InvoiceStatus, string> = {
  Draft: 'bg-slate-100 text-slate-700 ring-slate-300',
  Sent: 'pill-brand',
  'Partially paid': 'pill-amber',
  Paid: 'pill-green',
  'Past due': 'pill-red',
  Void: 'bg-slate-100 text-slate-600 ring-slate-200',
}

/** A status in the billing page's address (`?status=past-due`): its words, lower case, hyphenated. */
export function statusSlug(status: InvoiceStatus) {
  return status.toLowerCase().replace(/ /g, '-')
}

/** An invoice's status in words (docs/billing.md), in the color the office reads at a glance. */
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
