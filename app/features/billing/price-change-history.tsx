// "Price changes" (issue 31 item 3): what "Apply" did — shown at the top of the page it lands on — and the list of
// the latest changes: date, who, how many plans and each plan's old → new rate, whether customers were emailed, and
// "Undo" while a change is not yet in effect (the server checks again: app/models/price-change.server.ts).
import { Form, useNavigation } from 'react-router'
import { rateWithType } from '~/billing/price-change'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { loadPricesPage } from '~/features/billing/price-change.server'
import { formatDateTime } from '~/utils/dates'

type PriceChangeItem = Awaited<ReturnType<typeof loadPricesPage>>['history'][number]

const plural = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`)

function emailed(change: PriceChangeItem) {
  if (change.customersNotified === 0) return 'customers not emailed'
  const told = plural(change.customersNotified, 'customer', 'customers')
  return change.noticesWithdrawn > 0
    ? `${told} emailed (${plural(change.noticesWithdrawn, 'email', 'emails')} withdrawn before sending)`
    : `${told} emailed`
}

function PlanList({ change, label }: { change: PriceChangeItem; label: string }) {
  if (change.plans.length === 0) return null
  return (
    <ul className="divide-y divide-slate-100" aria-label={label}>
      {change.plans.map((plan) => (
        <li key={plan.planId} className="flex flex-wrap items-baseline justify-between gap-x-4 py-1.5">
          <span className="min-w-0 break-words">
            <span className="font-medium">{plan.customerName}</span>
            <span className="text-slate-600"> · {plan.place}</span>
          </span>
          <span className="whitespace-nowrap">
            <span className="sr-only">Old rate </span>
            <span className="text-slate-600">{rateWithType(plan.oldRateCents, plan.rateType)}</span>
            <span aria-hidden="true"> → </span>
            <span className="sr-only">, new rate </span>
            <span className="font-semibold">{rateWithType(plan.newRateCents, plan.rateType)}</span>
          </span>
        </li>
      ))}
      {change.morePlans > 0 ? (
        <li className="py-1.5 text-slate-600">and {plural(change.morePlans, 'more plan', 'more plans')}</li>
      ) : null}
    </ul>
  )
}

function UndoButton({ change, refusal }: { change: PriceChangeItem; refusal: string | null }) {
  const navigation = useNavigation()
  const undoing = navigation.state !== 'idle' && navigation.formData?.get('changeId') === change.id
  return (
    <Form method="post" className="space-y-1">
      <input type="hidden" name="changeId" value={change.id} />
      <Button
        type="submit"
        name="intent"
        value="undo"
        variant="secondary"
        pending={undoing}
        pendingLabel="Undoing…"
        disabled={navigation.state !== 'idle'}
      >
        Undo
      </Button>
      {change.customersNotified > 0 ? (
        <p className="text-xs text-slate-600">
          Customers were emailed about this change: undoing it does not tell them.
        </p>
      ) : null}
      {refusal ? (
        <p role="alert" className="text-sm text-red-700">
          {refusal}
        </p>
      ) : null}
    </Form>
  )
}

/** What a change did, where "Apply" lands (`?change=`). */
export function AppliedChangeCard({ change }: { change: PriceChangeItem }) {
  return (
    <Card className="space-y-3" aria-labelledby="what-changed">
      <h2 id="what-changed" className="text-lg font-semibold">
        What changed
      </h2>
      <p role="status" className="font-medium">
        {change.increaseLabel} from {change.effectiveOnLabel} · {plural(change.planCount, 'plan', 'plans')} · billed
        from {change.firstMonthLabel}
      </p>
      {change.undoneAt ? (
        <p className="text-sm text-slate-600">
          Undone{change.undoneBy ? ` by ${change.undoneBy}` : ''}: every plan is back to its old rate.
        </p>
      ) : (
        <div className="text-sm">
          <PlanList change={change} label="Plans changed" />
        </div>
      )}
    </Card>
  )
}

/** The latest changes, newest first. */
export function PriceChangeHistory({
  history,
  undo,
  timeZone,
}: {
  history: PriceChangeItem[]
  undo: { changeId: string; message: string } | null
  timeZone: string
}) {
  return (
    <Card className="space-y-3" aria-labelledby="price-changes">
      <h2 id="price-changes" className="text-lg font-semibold">
        Price changes
      </h2>
      {history.length === 0 ? (
        <p className="text-sm text-slate-600">No price changes yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {history.map((change) => (
            <li
              key={change.id}
              className="space-y-2 py-3"
              aria-label={`${change.increaseLabel} from ${change.effectiveOnLabel}`}
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="space-y-0.5">
                  <p className="font-medium">
                    {change.increaseLabel} from {change.effectiveOnLabel} · {plural(change.planCount, 'plan', 'plans')}
                    {change.undoneAt ? ' · Undone' : ''}
                  </p>
                  <p className="text-slate-600">
                    {formatDateTime(change.createdAt, timeZone)}
                    {change.createdBy ? ` by ${change.createdBy}` : ''} · billed from {change.firstMonthLabel} ·{' '}
                    {emailed(change)}
                  </p>
                  {change.undoneAt ? (
                    <p className="text-slate-600">
                      Undone {formatDateTime(change.undoneAt, timeZone)}
                      {change.undoneBy ? ` by ${change.undoneBy}` : ''}: the old rates are back.
                    </p>
                  ) : null}
                </div>
                {change.canUndo ? (
                  <UndoButton change={change} refusal={undo?.changeId === change.id ? undo.message : null} />
                ) : null}
              </div>
              {change.plans.length > 0 ? (
                <details>
                  <summary className="cursor-pointer text-brand-700">Old → new rates</summary>
                  <PlanList change={change} label="Plans changed" />
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
