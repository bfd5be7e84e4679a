/** The public pages, in the order the header, drawer and footer list them. */
export const MARKETING_LINKS = [
  { to: '/features', label: 'Features' },
  { to: '/services', label: 'Services' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
] as const

/** The plans of the pricing page, as the sign-up and /start pages name them (`?plan=`). */
export const PLAN_NAMES = ['Starter', 'Team', 'Business'] as const
export type PlanName = (typeof PLAN_NAMES)[number]

/** A `?plan=` value as one of our plans, or null. */
export function planNamed(value: string | null | undefined): PlanName | null {
  return PLAN_NAMES.find((plan) => plan.toLowerCase() === value?.toLowerCase()) ?? null
}

/**
 * Sign-up that continues to the self-serve trial (/start: name the company, become its owner), keeping the plan the
 * visitor chose on the way (the sign-up page and /start both show it).
 */
export function trialSignupPath(plan?: PlanName) {
  const start = plan ? `/start?plan=${plan.toLowerCase()}` : '/start'
  return `/login?mode=signup&redirectTo=${encodeURIComponent(start)}`
}

export const TRIAL_SIGNUP_PATH = trialSignupPath()
