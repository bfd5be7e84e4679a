// How many SMS a text costs (issue 20: the settings page shows each template's segment count, and the provider
// bills per segment). A text is sent in GSM-7 (3GPP TS 23.038) when every character is in its basic table or its
// extension table, otherwise in UCS-2, which doubles the cost of a single emoji or curly quote.
//
// A single-segment message holds 160 septets (GSM-7) or 70 UTF-16 code units (UCS-2). Longer messages carry a
// 6-byte concatenation header in every part, leaving 153 septets or 67 code units. An extension character is sent
// as ESC + the character, 2 septets that phones need in the same part; a character outside the Basic Multilingual
// Plane is a surrogate pair that must not be split either — so parts are filled greedily with whole characters and
// a part may end one unit short.

export type SmsEncoding = 'GSM-7' | 'UCS-2'

export type SegmentCount = {
  encoding: SmsEncoding
  /** Septets for GSM-7, UTF-16 code units for UCS-2. */
  units: number
  segments: number
}

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'
const GSM7_EXTENSION = '\f^{}\\[~]|€'

const BASIC = new Set(GSM7_BASIC)
const EXTENSION = new Set(GSM7_EXTENSION)

export const SINGLE_SEGMENT_UNITS: Record<SmsEncoding, number> = { 'GSM-7': 160, 'UCS-2': 70 }
export const MULTI_SEGMENT_UNITS: Record<SmsEncoding, number> = { 'GSM-7': 153, 'UCS-2': 67 }

/** Whether every character of `text` can be sent in GSM-7 (basic or extension table). */
export function isGsm7(text: string): boolean {
  for (const character of text) {
    if (!BASIC.has(character) && !EXTENSION.has(character)) return false
  }
  return true
}

/** The encoding a text is sent in: GSM-7 when it can be, UCS-2 as soon as one character cannot. */
export function smsEncoding(text: string): SmsEncoding {
  return isGsm7(text) ? 'GSM-7' : 'UCS-2'
}

// Iterating a string yields code points, so a surrogate pair arrives as one 2-unit character.
function unitsOf(character: string, encoding: SmsEncoding): number {
  if (encoding === 'UCS-2') return character.length
  return EXTENSION.has(character) ? 2 : 1
}

/** The parts a text is sent as, in order; joined they give the text back. An empty text is no part at all. */
export function splitIntoSegments(text: string): string[] {
  const encoding = smsEncoding(text)
  const characters = Array.from(text)
  const total = characters.reduce((sum, character) => sum + unitsOf(character, encoding), 0)
  if (total === 0) return []
  if (total <= SINGLE_SEGMENT_UNITS[encoding]) return [text]
  const capacity = MULTI_SEGMENT_UNITS[encoding]
  const segments: string[] = []
  let current = ''
  let used = 0
  for (const character of characters) {
    const units = unitsOf(character, encoding)
    if (used + units > capacity) {
      segments.push(current)
      current = ''
      used = 0
    }
    current += character
    used += units
  }
  segments.push(current)
  return segments
}

/** The encoding, size and number of parts of a text, as the settings page shows them. */
export function countSegments(text: string): SegmentCount {
  const encoding = smsEncoding(text)
  let units = 0
  for (const character of text) units += unitsOf(character, encoding)
  return { encoding, units, segments: splitIntoSegments(text).length }
}
