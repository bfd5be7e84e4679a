/** The public pages, in the order the header, drawer and footer list them. */
export const MARKETING_LINKS = [
  { to: '/features', label: 'Features' },
  { to: '/services', label: 'Services' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
] as const

/** Sign-up that continues to the self-serve trial (/start: name the company, become its owner). */
export const TRIAL_SIGNUP_PATH = '/login?mode=signup&redirectTo=%2Fstart'
