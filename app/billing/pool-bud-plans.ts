// The company's own subscription to Pool Bud (OPERATIONS §7 Settings → "Plan", SPEC §1 and §9): the three plans of
// the pricing page. Dependency-free: the schema, the pricing page, sign-up and Settings read them from here, so the
// price a company sees in Settings is the one it chose on the pricing page.

export const POOL_BUD_PLANS = ['starter', 'team', 'business'] as const
export type PoolBudPlan = (typeof POOL_BUD_PLANS)[number]

/** A company created without a choice (by a platform admin, or before plans were stored) is on the entry plan. */
export const DEFAULT_POOL_BUD_PLAN: PoolBudPlan = 'starter'

export type PoolBudPlanDetails = {
  name: 'Starter' | 'Team' | 'Business'
  /** Whole dollars a month (SPEC §9: $29, $99, $199). */
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
