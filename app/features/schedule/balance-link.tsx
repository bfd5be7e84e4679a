// "Balance the day" on the week board (docs/routing.md "Balancing"): the day's balancing preview.
import { Link } from 'react-router'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'

export function BalanceDayLink({ date, label }: { date: string; label: string }) {
  return (
    <Link
      to={`/app/schedule/balance/${date}`}
      className={cn('block text-xs font-medium text-brand-700 hover:underline', textLinkTarget)}
    >
      Balance the day<span className="sr-only">, {label}</span>
    </Link>
  )
}
