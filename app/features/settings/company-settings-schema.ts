// Settings' own form (it posts no intent): the company's name, email, mailing address, timezone, default service
// window, card-provider keys, customer portal address and service-report choices. One schema for the form and the
// settings action.
import { z } from 'zod'
import { SERVICE_WINDOWS } from '~/utils/company-fields'
import { optionalText } from '~/utils/forms'

/**
 * The US zones a pool company most likely works in, first in the timezone list with the names people search by
 * (issue 38 item 8); every other IANA zone follows under its own name.
 */
export const US_TIMEZONES = [
  { value: 'America/New_York', label: 'Eastern — New York' },
  { value: 'America/Chicago', label: 'Central — Chicago' },
  { value: 'America/Denver', label: 'Mountain — Denver' },
  { value: 'America/Phoenix', label: 'Arizona — Phoenix' },
  { value: 'America/Los_Angeles', label: 'Pacific — Los Angeles' },
  { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
] as const

export type TimezoneOption = { value: string; label: string }

/** The list the timezone field offers: the US zones first, then every other zone of `zones` (IANA names). */
export function timezoneOptions(zones: readonly string[]): TimezoneOption[] {
  const us = new Set<string>(US_TIMEZONES.map((zone) => zone.value))
  return [...US_TIMEZONES, ...zones.filter((zone) => !us.has(zone)).map((zone) => ({ value: zone, label: zone }))]
}

/**
 * What was typed, as a zone of the list: the zone's name (`America/Chicago`, also with spaces for underscores and in
 * any case) or a US zone's label ("Central — Chicago"). Unknown text is kept as typed (and refused).
 */
export function resolveTimezone(typed: string, zones: readonly string[]) {
  const text = typed.trim()
  const key = (value: string) => value.toLowerCase().replaceAll('_', ' ').replace(/\s+/g, ' ')
  const byLabel = US_TIMEZONES.find((zone) => key(zone.label) === key(text))
  if (byLabel) return byLabel.value
  return zones.find((zone) => key(zone) === key(text)) ?? text
}

export const COMPANY_EMAIL_HINT = 'Optional. Customers’ replies to your emails go here.'

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
    email: optionalText(254)
      .refine((value) => value === null || z.email().safeParse(value).success, 'Enter a valid email address.')
      .transform((value) => value?.toLowerCase() ?? null),
    mailingAddress: optionalText(500).refine(
      (value) => value === null || value.split(/\r?\n/).length <= 6,
      'Use at most 6 lines.',
    ),
    timezone: z
      .string({ error: 'Choose a timezone.' })
      .transform((value) => resolveTimezone(value, timezones))
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
    itemizeChemicals: z.boolean().default(false),
  })
}
