/** How long a self-serve trial lasts: the pricing page says so, and /start sets the company's end date from it. */
export const TRIAL_DAYS = 14
