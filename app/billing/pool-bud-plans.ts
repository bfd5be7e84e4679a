// The company's own subscription to Pool Bud (docs/product.md "Billing": Settings → "Plan", docs/product.md "Who uses it",
// "Limits"): the three plans of the pricing page. Dependency-free: the schema, the pricing page, sign-up and Settings
// read them from here, so the price a company sees in Settings is the one it chose on the pricing page.

export const POOL_BUD_PLANS = ['starter', 'team', 'business'] as const
export type PoolBudPlan = (typeof POOL_BUD_PLANS)[number]

/** A company created without a choice (by a platform admin, or before plans were stored) is on the entry plan. */
export const DEFAULT_POOL_BUD_PLAN: PoolBudPlan = 'starter'

export type PoolBudPlanDetails = {
  name: 'Starter' | 'Team' | 'Business'
  /** Whole dollars a month (docs/product.md "Limits": $29, $99, $199). */
  monthlyPriceDollars: number
  /** Users who may sign in; null: unlimited. */
  userLimit: number | null
}

export const POOL_BUD_PLAN_DETAILS: Record<PoolBudPlan, PoolBudPlanDetails> = {
  starter: { name: 'Starter', monthlyPriceDollars: 29, userLimit: 1 },
  team: { name: 'Team', monthlyPriceDollars: 99, userLimit: 8 },
  business: { name: 'Business', monthlyPriceDollars: 199, userLimit: null },
}

/** A plan's key from its name or key in any case ("Team", "team"), or null. */
export function poolBudPlanOf(value: string | null | undefined): PoolBudPlan | null {
  const wanted = value?.trim().toLowerCase()
  return POOL_BUD_PLANS.find((plan) => plan === wanted) ?? null
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The trial's state for Settings → "Plan": days left counted in whole days, rounded up (a trial ending in 30 hours
 * has 2 days left, its last day included); null for a company with no trial (created by a platform admin).
 */
export function trialStatus(trialEndsAt: Date | null, now: Date) {
  if (!trialEndsAt) return null
  const daysLeft = Math.ceil((trialEndsAt.getTime() - now.getTime()) / DAY_MS)
  return daysLeft > 0 ? { ended: false as const, daysLeft } : { ended: true as const, daysLeft: 0 }
}

/** "12 days left in your trial" (docs/product.md "Billing": Settings → "Plan"). */
export function trialDaysLeftLabel(daysLeft: number) {
  return `${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} left in your trial`
}
