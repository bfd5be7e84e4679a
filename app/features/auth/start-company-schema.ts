// /start "Start your company": the company's name and timezone, and the plan chosen on the pricing page (a hidden
// field). One schema for the page's form (the browser's check), its action and its test. The timezones are the ones
// the page lists, passed in, so the browser and the server accept the same list.
import { z } from 'zod'
import { poolBudPlanOf } from '~/billing/pool-bud-plans'

const START_COMPANY_MESSAGES = {
  companyName: 'Company name is required.',
  timezone: 'Choose a timezone from the list.',
} as const

export function startCompanySchema(timezones: readonly string[]) {
  const zones = new Set(timezones)
  return z.object({
    companyName: z
      .string({ error: START_COMPANY_MESSAGES.companyName })
      .trim()
      .min(1, START_COMPANY_MESSAGES.companyName)
      .max(120, 'Use at most 120 characters.'),
    timezone: z
      .string({ error: START_COMPANY_MESSAGES.timezone })
      .refine((zone) => zones.has(zone), START_COMPANY_MESSAGES.timezone),
    // The plan chosen on the pricing page rides along; anything else starts on the entry plan.
    plan: z
      .string()
      .optional()
      .transform((value) => poolBudPlanOf(value) ?? undefined),
  })
}
