// Settings' own form (it posts no intent): the company's name, timezone, default service window, card-provider keys,
// customer portal address and service-report choices. One schema for the form and the settings action.
import { z } from 'zod'
import { SERVICE_WINDOWS } from '~/db/schema/companies'
import { optionalText } from '~/utils/forms'

export const BILLING_REFUSED = 'Only the owner can change card-provider settings.'

/** The schema for a company whose timezone choices are `timezones` (the list plus its current zone). */
export function companySettingsSchema(timezones: readonly string[]) {
  const allowed = new Set(timezones)
  return z.object({
    name: z
      .string({ error: 'Company name is required.' })
      .trim()
      .min(1, 'Company name is required.')
      .max(120, 'Use at most 120 characters.'),
    timezone: z
      .string({ error: 'Choose a timezone.' })
      .refine((value) => allowed.has(value), 'Choose a timezone from the list.'),
    defaultServiceWindow: z.enum(SERVICE_WINDOWS, { error: 'Choose a default service window.' }),
    cardPublishableKey: optionalText(255).refine(
      (value) => value === null || /^pk_(live|test)_[A-Za-z0-9]+$/.test(value),
      'Enter a publishable key that starts with pk_live_ or pk_test_.',
    ),
    stripeAccountId: optionalText(255).refine(
      (value) => value === null || /^acct_[A-Za-z0-9]+$/.test(value),
      'Enter an account id that starts with acct_.',
    ),
    customerPortalUrl: optionalText(2048).refine((value) => {
      if (value === null) return true
      try {
        const url = new URL(value)
        return url.protocol === 'https:' && Boolean(url.hostname)
      } catch {
        return false
      }
    }, 'Enter a full https:// address.'),
    // Checkboxes: an unticked box is simply absent from the form.
    serviceReportsEnabled: z.boolean().default(false),
    itemiseChemicals: z.boolean().default(false),
  })
}
