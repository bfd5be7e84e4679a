// A customer's name, email and phone as other products export them. Phone numbers are stored in E.164
// (docs/product.md "Notices") through libphonenumber-js with its full metadata, so "(555) 123-4567" — a 555 area code
// that does not exist — is refused rather than stored. A cell with several addresses or numbers ("a@x.com; b@y.com",
// Jobber's "Main Phone #s") gives the first as the customer's and the others back for the customer's notes.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { EmailSchema } from '~/utils/forms'
import { type Parsed, quote } from './values'

export type { CountryCode }

/** One line of text: trimmed, runs of spaces, tabs and line breaks made one space. */
export function oneLine(text: string) {
  return text.replace(/\s+/g, ' ').trim()
}

/** "First" + "Last", or a full name, as one tidy name; empty when there is none. */
export function fullName(...parts: Array<string | undefined>) {
  return oneLine(parts.filter(Boolean).join(' '))
}

export type Several = { first: string; others: string[] }

export function parseEmails(text: string): Parsed<Several> {
  const candidates = text
    .replace(/mailto:/gi, '')
    .split(/[\s,;]+/)
    .map((part) => part.replace(/^[<("']+|[>)"'.]+$/g, ''))
    .filter(Boolean)
  // "Jane Doe <jane@example.com>": the name around the address is not an address.
  const addresses = candidates.some((part) => part.includes('@')) ? candidates.filter((p) => p.includes('@')) : []
  if (addresses.length === 0) return { ok: false, problem: `the email ${quote(text)} is not a valid email address.` }
  const emails: string[] = []
  for (const address of addresses) {
    const parsed = EmailSchema.safeParse(address)
    if (!parsed.success) return { ok: false, problem: `the email ${quote(address)} is not a valid email address.` }
    if (!emails.includes(parsed.data)) emails.push(parsed.data)
  }
  return { ok: true, value: { first: emails[0] as string, others: emails.slice(1) } }
}

export function parsePhones(text: string, country: CountryCode): Parsed<Several> {
  const parts = text
    .split(/\s*(?:[;,/\n]|\bor\b|\band\b)\s*/i)
    .map((part) => part.replace(/^(?:mobile|cell|home|work|main|phone|tel)\s*[:.-]?\s*/i, '').trim())
    .filter(Boolean)
  const numbers: string[] = []
  for (const part of parts) {
    const phone = parsePhoneNumberFromString(part, country)
    if (!phone?.isValid()) {
      return {
        ok: false,
        problem:
          `the phone number ${quote(part)} is not a valid phone number: include the area code, ` +
          'or a + and the country code for a number abroad.',
      }
    }
    if (!numbers.includes(phone.number)) numbers.push(phone.number)
  }
  if (numbers.length === 0) return { ok: false, problem: `the phone number ${quote(text)} is not a phone number.` }
  return { ok: true, value: { first: numbers[0] as string, others: numbers.slice(1) } }
}
