// Settings → "Plan" (docs/billing.md): the company's Pool Bud plan as the pricing page names and prices it, and its
// trial — "N days left in your trial" for a company started at /start, nothing for one a platform admin created.
import { Link } from 'react-router'
import { trialDaysLeftLabel } from '~/billing/pool-bud-plans'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { textLinkTarget } from '~/components/ui/touch'
import type { BillingSettingsData } from './billing-settings.server'

export function PlanSection({ plan }: { plan: BillingSettingsData['plan'] }) {
  const users =
    plan.userLimit === null ? 'Unlimited users' : `Up to ${plan.userLimit} ${plan.userLimit === 1 ? 'user' : 'users'}`
  return (
    <Card className="space-y-3" aria-labelledby="plan-heading" id="plan">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="plan-heading" className="text-lg font-semibold">
          Plan
        </h2>
        <Link to="/pricing" className={cn('text-sm font-medium text-brand-800 hover:underline', textLinkTarget)}>
          Compare plans
        </Link>
      </div>
      <p>
        <span className="text-xl font-bold">{plan.name}</span>{' '}
        <span className="text-slate-700">
          · ${plan.monthlyPriceDollars}/month · {users}
        </span>
      </p>
      {plan.trial === null ? null : plan.trial.ended ? (
        <p role="status" className="text-sm font-medium text-amber-800">
          Your trial ended on {plan.trial.endsOn}.
        </p>
      ) : (
        <p role="status" className="text-sm font-medium text-brand-800">
          {trialDaysLeftLabel(plan.trial.daysLeft)} (until {plan.trial.endsOn}).
        </p>
      )}
    </Card>
  )
}
