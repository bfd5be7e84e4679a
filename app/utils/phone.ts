// Phone numbers are stored in E.164 ("+18135550101", docs/product.md "Notices") and shown as people write them. One
// place for both, with libphonenumber-js's full metadata so a number is validated, not only length-checked.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'

export type { CountryCode }

/** The companies' country until companies have one: numbers typed without a + are read as US numbers. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'US'

export const INVALID_PHONE =
  'Enter a valid phone number with its area code, or a + and the country code for a number abroad.'

/** `text` as E.164, or null when it is not a valid number. */
export function toE164(text: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | null {
  const phone = parsePhoneNumberFromString(text, country)
  return phone?.isValid() ? phone.number : null
}

/**
 * Formatting is a pure function of the number and the country, and libphonenumber-js's parse is the dearest part of
 * drawing the customer list (about 7 % of its server time in a profile, docs/performance.md): numbers drawn
 * before are remembered.
 */
const formatted = new Map<string, string>()
const FORMATTED_KEPT = 5_000

/**
 * A stored number as people write it: national for the company's own country ("(813) 555-0101"), international
 * otherwise. A value that is not E.164 (kept as typed by the migration) is shown as it is.
 */
export function formatPhone(stored: string, country: CountryCode = DEFAULT_PHONE_COUNTRY) {
  const key = `${country}${stored}`
  let shown = formatted.get(key)
  if (shown === undefined) {
    const phone = stored.startsWith('+') ? parsePhoneNumberFromString(stored) : undefined
    shown = !phone ? stored : phone.country === country ? phone.formatNational() : phone.formatInternational()
    // Bounded: a page of numbers is what repeats (the customer list, a route, the team), not every number ever seen.
    if (formatted.size >= FORMATTED_KEPT) formatted.clear()
    formatted.set(key, shown)
  }
  return shown
}
