// Stable keys that say "this is the same customer / the same service location" across imports, so importing the
// same file twice finds everything already there ("0 new"), and a changed phone number updates the customer
// instead of adding a second one. A customer is their email, or their name when they have none; a location is its
// street (spelled out or abbreviated, with its unit) and ZIP code (or city when there is no ZIP).

function plain(text: string) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/** A name compared without case, accents, punctuation or extra spaces: "José  O'Neil" = "jose o neil". */
export function nameKey(name: string) {
  return plain(name)
}

export function customerKey(customer: { email: string | null; customerName: string }) {
  const email = customer.email?.trim().toLowerCase()
  return email ? `email:${email}` : `name:${nameKey(customer.customerName)}`
}

/** USPS abbreviations both ways round, so "12 Palm Avenue" and "12 Palm Ave." are one street. */
const STREET_WORDS: Record<string, string> = {
  street: 'st',
  avenue: 'ave',
  av: 'ave',
  road: 'rd',
  drive: 'dr',
  boulevard: 'blvd',
  lane: 'ln',
  court: 'ct',
  place: 'pl',
  terrace: 'ter',
  circle: 'cir',
  parkway: 'pkwy',
  highway: 'hwy',
  square: 'sq',
  trail: 'trl',
  way: 'way',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
  apartment: 'unit',
  apt: 'unit',
  suite: 'unit',
  ste: 'unit',
  number: 'unit',
}

export function streetKey(street: string) {
  return plain(street.replace(/#/g, ' number '))
    .split(' ')
    .map((word) => STREET_WORDS[word] ?? word)
    .join(' ')
}

export function addressKey(location: { street: string; city: string | null; postalCode: string | null }) {
  const zip = location.postalCode?.match(/\d{5}/)?.[0] ?? plain(location.postalCode ?? '')
  return `${streetKey(location.street)}|${zip || plain(location.city ?? '')}`
}

export function locationKey(customer: string, location: Parameters<typeof addressKey>[0]) {
  return `${customer}/${addressKey(location)}`
}
