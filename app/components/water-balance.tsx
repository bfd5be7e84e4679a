import type { Advice } from '~/water/dosing'
import type { ReadingSummary } from '~/water/summary'
import { cn } from './ui/cn'

const LEVEL_STYLES = {
  'in range': 'pill-green',
  low: 'bg-amber-50 text-amber-900 ring-amber-200',
  high: 'pill-red',
} as const

const BALANCE_STYLES = {
  Balanced: 'pill-green',
  Corrosive: 'bg-amber-50 text-amber-900 ring-amber-200',
  Scaling: 'pill-red',
} as const

/** 'Balanced' / 'Corrosive' / 'Scaling' with the index, or nothing when it could not be computed. */
export function BalanceBadge({ balance }: { balance: ReadingSummary['balance'] }) {
  if (!balance) return null
  return (
    <span className={cn('pill', BALANCE_STYLES[balance.status])}>
      {balance.status} (CSI {balance.index > 0 ? '+' : ''}
      {balance.index.toFixed(2)})
    </span>
  )
}

/** Out-of-range parameters first ("pH high", "chlorine low"), or "All in range". */
export function ReadingStatuses({ summary }: { summary: ReadingSummary }) {
  const off = summary.statuses.filter((status) => status.level !== 'in range')
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Water status">
      {off.length === 0 ? (
        <li className={cn('pill', LEVEL_STYLES['in range'])}>All in range</li>
      ) : (
        off.map((status) => (
          <li key={status.text} className={cn('pill', LEVEL_STYLES[status.level])}>
            {status.text}
          </li>
        ))
      )}
      {summary.balance ? (
        <li>
          <BalanceBadge balance={summary.balance} />
        </li>
      ) : null}
    </ul>
  )
}

/** What to add for the latest reading; says why there is none when the volume is missing. */
export function DosingAdvice({ advice, hasReading }: { advice: Advice[] | null; hasReading: boolean }) {
  return (
    <section className="space-y-2" aria-labelledby="dosing-heading">
      <h3 id="dosing-heading" className="font-semibold">
        Dosing advice
      </h3>
      {!hasReading ? (
        <p className="text-sm text-slate-600">Save a reading to get dosing advice.</p>
      ) : advice === null ? (
        <p className="text-sm text-slate-600">Add the pool volume to the customer to get doses.</p>
      ) : advice.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing to add: the latest reading is in range.</p>
      ) : (
        <ul className="space-y-2">
          {advice.map((line) => (
            <li key={line.parameter} className="rounded-lg bg-slate-50 p-3 text-sm">
              <p className="font-medium text-slate-900">{line.text}</p>
              <p className="text-xs text-slate-600">{line.assumption}</p>
            </li>
          ))}
        </ul>
      )}
      {advice?.length ? <p className="text-xs text-slate-500">Add one product at a time and retest between.</p> : null}
    </section>
  )
}
