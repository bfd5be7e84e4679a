// A service location's address in parts (street, city, state, ZIP) and as one line. Pure: forms, the visit's address
// snapshot and the pages all format it the same way.

export type AddressParts = {
  street: string
  city: string | null
  state: string | null
  postalCode: string | null
}

const STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|' +
  'PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|VI|GU|AS|MP'

// The same patterns as migration 0007 (which split every existing customer's address this way).
const WITH_ZIP = new RegExp(
  `^(.*[^,\\s])\\s*,\\s*([^,]*[^,\\s])\\s*,?\\s+(${STATES})\\.?,?\\s+([0-9]{5}(-[0-9]{4})?)$`,
  'i',
)
const WITHOUT_ZIP = new RegExp(`^(.*[^,\\s])\\s*,\\s*([^,]*[^,\\s])\\s*,\\s*(${STATES})\\.?$`, 'i')

/**
 * "12 Palm Ave, Tampa, FL 33606" (or without the ZIP) in parts; anything else whole as the street. For the one
 * address box of today's customer form; the location form has a field per part.
 */
export function parseAddress(text: string): AddressParts {
  const address = text.trim()
  const match = address.match(WITH_ZIP) ?? address.match(WITHOUT_ZIP)
  if (!match) return { street: address, city: null, state: null, postalCode: null }
  return {
    street: match[1] as string,
    city: match[2] as string,
    state: (match[3] as string).toUpperCase(),
    postalCode: match[4] ?? null,
  }
}

/** "12 Palm Ave, Tampa, FL 33606": the parts there are, in the usual order. */
export function formatAddress(parts: AddressParts) {
  const region = [parts.state, parts.postalCode].filter(Boolean).join(' ')
  return [parts.street, parts.city, region].filter(Boolean).join(', ')
}
