// Reading the values people type into pool-company spreadsheets: "$1,200.50", "15k", "Tuesdays", "Every other
// week", "Y". Each reader returns the value or a problem in plain words (the plan puts "Row N:" in front); none
// throws on any text. Numbers are read digit by digit into integers: no floating point touches money or gallons.
import { SANITIZERS, type Sanitizer, SURFACES, type Surface, surfaceWord } from '~/water/targets'

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string }

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value })
const bad = <T>(problem: string): Parsed<T> => ({ ok: false, problem })

/** A value as quoted in a message: long text is cut so the message stays readable. */
export function quote(text: string) {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return `'${oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine}'`
}

function words(text: string) {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[+&]/g, ' plus ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

// ---- Numbers ----

type Decimal = { whole: string; fraction: string }

/**
 * Digits of a plain decimal number as written in the US or in Europe: "1,200.50", "1.200,50", "1 200", "85",
 * "85,5". When the only separator is followed by exactly three digits, `dotOfThreeIs` says what a dot is there:
 * "$1.200" is $1.20 (US money) but "15.000" gallons is 15,000; a lone comma before three digits is always thousands.
 */
function readDecimal(text: string, dotOfThreeIs: 'decimal' | 'thousands'): Decimal | null {
  const s = text.replace(/(\d)[ \u00a0\u202f](?=\d{3}\b)/g, '$1')
  if (!/^\d[\d.,]*$/.test(s) && !/^[.,]\d+$/.test(s)) return null
  const separators = s.replace(/\d/g, '')
  if (!separators) return { whole: s, fraction: '' }
  const last = separators.charAt(separators.length - 1)
  const other = last === '.' ? ',' : '.'
  const lastAt = s.lastIndexOf(last)
  const after = s.slice(lastAt + 1)
  let decimalSeparator: string | null
  if (separators.includes(other)) decimalSeparator = last
  else if (separators.length > 1) decimalSeparator = null
  else if (after.length === 3) decimalSeparator = last === '.' && dotOfThreeIs === 'decimal' ? last : null
  else decimalSeparator = last
  const wholePart = decimalSeparator ? s.slice(0, lastAt) : s
  const fraction = decimalSeparator ? after : ''
  const groupSeparator = decimalSeparator === '.' ? ',' : decimalSeparator === ',' ? '.' : last
  if (!/^\d*$/.test(fraction)) return null
  if (wholePart.includes(groupSeparator)) {
    const groups = wholePart.split(groupSeparator)
    if (!/^\d{1,3}$/.test(groups[0] ?? '') || groups.slice(1).some((group) => !/^\d{3}$/.test(group))) return null
  } else if (!/^\d*$/.test(wholePart)) return null
  return { whole: wholePart.split(groupSeparator).join('') || '0', fraction }
}

/** The whole number nearest `decimal × multiplier` (halves up), computed on integers. */
function roundedTimes({ whole, fraction }: Decimal, multiplier: number): number {
  const digits = fraction.replace(/0+$/, '')
  const scale = 10 ** digits.length
  const numerator = Number(whole) * scale * multiplier + Number(digits || '0') * multiplier
  return Math.floor((2 * numerator + scale) / (2 * scale))
}

// ---- Money ----

export const MAX_RATE_CENTS = 100_000_000
export const RATE_TYPES = ['per-visit', 'monthly', 'monthly-plus-chemicals', 'per-visit-plus-chemicals'] as const
export type RateType = (typeof RATE_TYPES)[number]

/** "$85", "85.00", "$1,200.50", "USD 85", "85 €"… → cents, exactly. Fractions of a cent and negatives are refused. */
export function parseMoneyCents(text: string, what = 'rate'): Parsed<number> {
  const example = `(e.g. 85, $85.00 or $1,200.50)`
  let s = text.trim()
  const negative = /^-|^\(.*\)$|-$/.test(s.replace(/\s/g, ''))
  s = s.replace(/^\(|\)$/g, '').replace(/^-|-$/g, '')
  s = s.replace(/^(?:us\$|usd|\$|€|£)\s*/i, '').replace(/\s*(?:usd|\$|€|£|dollars?)$/i, '')
  s = s.replace(/^-/, '').trim()
  const decimal = readDecimal(s, 'decimal')
  if (!decimal) return bad(`the ${what} ${quote(text)} is not an amount of money ${example}.`)
  if (negative) return bad(`the ${what} ${quote(text)} is negative; use an amount of $0 or more.`)
  if (decimal.fraction.replace(/0+$/, '').length > 2) {
    return bad(`the ${what} ${quote(text)} has a fraction of a cent; round it to the cent.`)
  }
  if (decimal.whole.replace(/^0+/, '').length > 9) return bad(`the ${what} ${quote(text)} is too large.`)
  const cents = Number(decimal.whole) * 100 + Number(decimal.fraction.slice(0, 2).padEnd(2, '0'))
  if (cents > MAX_RATE_CENTS) return bad(`the ${what} ${quote(text)} is more than $1,000,000.00.`)
  return ok(cents)
}

/** A rate, possibly with what it is per: "$85/visit", "$160 per month". */
export function parseRate(text: string): Parsed<{ cents: number; rateType: RateType | null }> {
  const per = text.match(/\s*(?:\/|\bper\b|\ba\b|\beach\b)\s*([a-z ]+)$/i)
  const amount = per ? text.slice(0, per.index) : text
  let rateType: RateType | null = null
  if (per) {
    const unit = words(per[1] ?? '')
    if (/^(visit|stop|service|clean|cleaning|week|wk)s?$/.test(unit)) rateType = 'per-visit'
    else if (/^(month|mo|mth)s?$/.test(unit)) rateType = 'monthly'
    else return bad(`the rate ${quote(text)} is not an amount per visit or per month (e.g. $85 or $160/month).`)
  }
  const cents = parseMoneyCents(amount)
  return cents.ok ? ok({ cents: cents.value, rateType }) : bad(cents.problem.replace(quote(amount), quote(text)))
}

export function parseRateType(text: string): Parsed<RateType> {
  const w = ` ${words(text).replace(/\bchem(ical)?s?\b/g, 'chemicals')} `
  const plusChemicals = / plus chemicals | chemicals extra | chemicals billed | and chemicals /.test(w)
  const monthly = /month|flat/.test(w)
  const perVisit = /visit|stop|service|clean|each|per time/.test(w)
  if (monthly && !perVisit) return ok(plusChemicals ? 'monthly-plus-chemicals' : 'monthly')
  if (perVisit && !monthly) return ok(plusChemicals ? 'per-visit-plus-chemicals' : 'per-visit')
  return bad(
    `the rate type ${quote(text)} is not one Pool Bud knows: use Per visit, Monthly, Monthly plus chemicals or ` +
      'Per visit plus chemicals.',
  )
}

// ---- Gallons ----

export const MIN_GALLONS = 100
export const MAX_GALLONS = 2_000_000

/** "15k", "15,000", "15000 gal", "15.5k", "~15,000 gallons" → 15000, 15000, 15000, 15500, 15000. */
export function parseGallons(text: string): Parsed<number> {
  const example = '(e.g. 15000, 15,000 or 15k)'
  let s = text
    .trim()
    .toLowerCase()
    .replace(/^(?:~|approx\.?|approximately|about|ca\.?|est\.?)\s*/, '')
  if (/\d\s*(?:l|lt|ltr|liters?|liters?)\.?$/.test(s)) {
    return bad(`the pool size ${quote(text)} is in liters; give it in gallons ${example}.`)
  }
  s = s.replace(/\s*(?:us\s*)?(?:gallons?|gals?|g)\.?$/, '')
  let multiplier = 1
  const thousands = s.match(/^(.*?)\s*(?:k|thousand)$/)
  if (thousands) {
    multiplier = 1000
    s = thousands[1] ?? ''
  }
  const decimal = readDecimal(s, 'thousands')
  if (!decimal) return bad(`the pool size ${quote(text)} is not a number of gallons ${example}.`)
  // More than nine digits is out of range whatever they say, and would not fit the integer arithmetic below.
  const huge = decimal.whole.replace(/^0+/, '').length > 9
  const gallons = huge ? Number.POSITIVE_INFINITY : roundedTimes(decimal, multiplier)
  if (gallons < MIN_GALLONS || gallons > MAX_GALLONS) {
    return bad(`the pool size ${quote(text)} is outside 100 to 2,000,000 gallons.`)
  }
  return ok(gallons)
}

// ---- Days and frequency ----

const DAY_WORDS: Record<string, number> = {}
for (const [day, names] of [
  [1, ['m', 'mo', 'mon', 'monday']],
  [2, ['tu', 'tue', 'tues', 'tuesday']],
  [3, ['w', 'we', 'wed', 'weds', 'wednesday']],
  [4, ['th', 'thu', 'thur', 'thurs', 'thursday', 'r']],
  [5, ['f', 'fr', 'fri', 'friday']],
  [6, ['sa', 'sat', 'saturday']],
  [7, ['su', 'sun', 'sunday']],
] as Array<[number, string[]]>) {
  for (const name of names) {
    DAY_WORDS[name] = day
    if (name.length > 3) DAY_WORDS[`${name}s`] = day
  }
}
// ISO numbering (1 = Monday … 7 = Sunday); 0 is Sunday in the numbering that starts the week on Sunday at 0.
for (let day = 0; day <= 7; day++) DAY_WORDS[String(day)] = day === 0 ? 7 : day

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** One or more days: "Mon", "monday", "Tuesdays", "1" (ISO), "Mon/Thu", "Monday and Thursday" → ISO weekdays. */
export function parseWeekdays(text: string): Parsed<number[]> {
  const tokens = words(text)
    .split(' ')
    .filter((token) => token && !['and', 'plus', 'every', 'each', 'on'].includes(token))
  const days: number[] = []
  for (const token of tokens) {
    const day = DAY_WORDS[token]
    if (day === undefined) return bad(`the service day ${quote(text)} is not a day of the week (e.g. Monday or Mon).`)
    if (!days.includes(day)) days.push(day)
  }
  if (days.length === 0) return bad(`the service day ${quote(text)} is not a day of the week (e.g. Monday or Mon).`)
  return ok(days)
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, other: 2, second: 2, third: 3 }

/** Every how many weeks, or how many times a week ("Twice a week" becomes one weekly plan per day). */
export type Frequency = { weeks: number } | { timesPerWeek: number }

export function parseFrequency(text: string): Parsed<Frequency> {
  const w = words(text)
    .replace(/\bwks?\b/g, 'week')
    .replace(/\bweeks\b/g, 'week')
  const outOfRange = () =>
    bad<Frequency>(`the frequency ${quote(text)} is not one Pool Bud can plan: choose every 1 to 4 weeks.`)
  if (/^(?:(?:every|each|once a|once per|1x|1 x|one time a|1 time per) ?week|weekly|once weekly|w)$/.test(w)) {
    return ok({ weeks: 1 })
  }
  if (/^(?:bi ?weekly|fortnightly|every fortnight|eow|semi monthly|twice a month|2x month)$/.test(w)) {
    return ok({ weeks: 2 })
  }
  if (/^(?:monthly|every month|once a month|once monthly|1x month|per month)$/.test(w)) return ok({ weeks: 4 })
  const every = w.match(/^(?:every|each)? ?(\d+|one|two|three|four|other|second|third) ?week(?:ly)?$/)
  if (every) {
    const weeks = NUMBER_WORDS[every[1] ?? ''] ?? Number(every[1])
    return weeks >= 1 && weeks <= 4 ? ok({ weeks }) : outOfRange()
  }
  if (/^\d+$/.test(w)) {
    const weeks = Number(w)
    return weeks >= 1 && weeks <= 4 ? ok({ weeks }) : outOfRange()
  }
  const times = w.match(/^(twice|thrice|\d+ ?x|\d+ times?|two times|three times) (?:a |per |each )?week(?:ly)?$/)
  if (times || /^semi ?weekly$|^twice weekly$/.test(w)) {
    const count = times?.[1] ?? 'twice'
    const n = /^(twice|two)/.test(count) ? 2 : /^(thrice|three)/.test(count) ? 3 : Number.parseInt(count, 10)
    if (n >= 1 && n <= 7) return ok({ timesPerWeek: n })
  }
  if (/^(?:every )?(?:\d+ )?(?:day|daily|month|year)/.test(w) || /week/.test(w)) return outOfRange()
  return bad(`the frequency ${quote(text)} is not every 1 to 4 weeks (e.g. Weekly, Every 2 weeks, Monthly).`)
}

export function describeFrequency(weeks: number) {
  return weeks === 1 ? 'Weekly' : `Every ${weeks} weeks`
}

// ---- Yes / no ----

const YES = new Set(['yes', 'y', 'true', 't', '1', 'x', 'checked', 'on', '✓', '✔'])
const NO = new Set(['no', 'n', 'false', 'f', '0', 'none', 'off', 'unchecked', 'n a', 'na'])

/** Yes/no as spreadsheets write it; null when the text is neither. */
export function readYesNo(text: string): boolean | null {
  const s = text.trim().toLowerCase()
  const w = words(text)
  if (YES.has(s) || YES.has(w)) return true
  if (NO.has(s) || NO.has(w)) return false
  return null
}

export function parseYesNo(text: string, what: string): Parsed<boolean> {
  const value = readYesNo(text)
  return value === null ? bad(`the ${what} value ${quote(text)} is not yes or no.`) : ok(value)
}

/** "Dog": yes/no, or words about the dog ("Big friendly lab"), which mean yes and are worth keeping as a note. */
export function parseDog(text: string): { dog: boolean; note: string | null } {
  const value = readYesNo(text)
  if (value !== null) return { dog: value, note: null }
  const w = words(text)
  if (/^no (dog|dogs|pets?)$/.test(w)) return { dog: false, note: null }
  if (/^(dog|dogs|pet|pets)$/.test(w)) return { dog: true, note: null }
  return { dog: true, note: `Dog: ${text.trim()}` }
}

export function parseIndoor(text: string): Parsed<boolean> {
  const w = words(text)
  if (/^(indoors?|inside|enclosed)$/.test(w)) return ok(true)
  if (/^(outdoors?|outside)$/.test(w)) return ok(false)
  return parseYesNo(text, 'indoor')
}

export function parseSalt(text: string): Parsed<boolean> {
  const w = words(text)
  if (/^(salt|salt water|saltwater|swg)$/.test(w)) return ok(true)
  if (/^(chlorine|fresh)$/.test(w)) return ok(false)
  return parseYesNo(text, 'salt')
}

// ---- The location ----

export function parseCoordinate(text: string, axis: 'latitude' | 'longitude'): Parsed<number> {
  const s = text.trim().replace(/°$/, '')
  const limit = axis === 'latitude' ? 90 : 180
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return bad(`the ${axis} ${quote(text)} is not a number.`)
  const value = Number(s)
  if (Math.abs(value) > limit) return bad(`the ${axis} ${quote(text)} is not between -${limit} and ${limit}.`)
  return ok(value)
}

export const MAX_MINUTES_ON_SITE = 480

/** "30", "30 min", "0:45", "1h", "1 hr 15 min", "1.5 hours" → whole minutes, 1 to 480. */
export function parseMinutes(text: string): Parsed<number> {
  const w = text.trim().toLowerCase()
  const problem = () => bad<number>(`the minutes on site ${quote(text)} is not a number of minutes (e.g. 30 or 1:15).`)
  let minutes: number | null = null
  const clock = w.match(/^(\d{1,2}):(\d{2})$/)
  const parts = w.match(
    /^(?:(\d+(?:\.\d+)?)\s*(?:h|hr|hrs|hour|hours))?\s*(?:(\d+)\s*(?:m|min|mins|minute|minutes)?)?\.?$/,
  )
  if (clock) minutes = Number(clock[1]) * 60 + Number(clock[2])
  else if (parts && (parts[1] || parts[2])) {
    minutes = Math.round(Number(parts[1] ?? 0) * 60) + Number(parts[2] ?? 0)
  }
  if (minutes === null) return problem()
  if (minutes < 1 || minutes > MAX_MINUTES_ON_SITE) {
    return bad(`the minutes on site ${quote(text)} is not between 1 and ${MAX_MINUTES_ON_SITE} minutes.`)
  }
  return ok(minutes)
}

// ---- The water ----

/** "Pool", "Spa", "Hot tub", "Pool & Spa", "Inground" → the bodies of water's names ("Pool & Spa" is two). */
export function parseBodyNames(text: string): string[] {
  const w = words(text)
  const one = (part: string): string => {
    if (/^(pool|swimming pool|in ?ground|above ?ground|inground pool|residential|commercial|main pool)$/.test(part)) {
      return 'Pool'
    }
    if (/^(spa|hot ?tub|jacuzzi|whirlpool|attached spa|spillover spa)$/.test(part)) return 'Spa'
    const cleaned = text.trim().replace(/\s+/g, ' ').slice(0, 40)
    return cleaned.charAt(0).toUpperCase() + cleaned.slice(1)
  }
  const parts = w.split(/ (?:plus|and|with) | ?\/ ?/).filter(Boolean)
  if (parts.length > 1 && parts.every((part) => /^(pool|spa|hot ?tub|jacuzzi)$/.test(part))) {
    return [...new Set(parts.map(one))]
  }
  return [one(w)]
}

export function parseSurface(text: string): Parsed<Surface> {
  const w = words(text)
  if (/plaster|marcite|pebble|quartz|diamond ?brite|gunite|concrete|shotcrete|aggregate/.test(w)) {
    return ok('plaster')
  }
  if (/vinyl|liner/.test(w)) return ok('vinyl')
  if (/fib(er|re) ?glass|^glass$/.test(w)) return ok('fiberglass')
  const known = SURFACES.map((surface) => {
    const word = surfaceWord(surface) ?? surface
    return word.charAt(0).toUpperCase() + word.slice(1)
  }).join(', ')
  return bad(
    `the surface ${quote(text)} is not one Pool Bud knows: use ${known.replace(/, (?=[^,]*$)/, ' or ')} ` +
      '(pebble and quartz finishes count as plaster), or leave it blank.',
  )
}

export function parseSanitizer(text: string): Parsed<Sanitizer> {
  const w = words(text)
  if (/\bsalt\b|saltwater|swg|salt cell|generator/.test(w)) return ok('salt')
  if (/chlor|^tabs?$|tablets|trichlor|bleach|^liquid$|^cl$/.test(w)) return ok('chlorine')
  return bad(
    `the sanitizer ${quote(text)} is not one Pool Bud plans for: use ${SANITIZERS.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join(' or ')}, or leave it blank.`,
  )
}

// ---- The plan and the customer ----

export const SERVICE_WINDOWS = ['morning', 'afternoon', 'flexible'] as const
export type ServiceWindow = (typeof SERVICE_WINDOWS)[number]

export function parseServiceWindow(text: string): Parsed<ServiceWindow> {
  const w = words(text)
  if (/^(morning|mornings|am|a m|early|before noon)$/.test(w)) return ok('morning')
  if (/^(afternoon|afternoons|pm|p m|late|after noon)$/.test(w)) return ok('afternoon')
  if (/^(flexible|flex|any|anytime|any time|all day|none|no preference)$/.test(w)) return ok('flexible')
  return bad(`the service window ${quote(text)} is not Morning, Afternoon or Flexible.`)
}

export type CustomerStatus = 'active' | 'archived'

export function parseStatus(text: string): Parsed<CustomerStatus> {
  const w = words(text)
  if (/^(active|current|yes|open|ok)$/.test(w)) return ok('active')
  if (/^(inactive|archived|canceled|canceled|former|closed|terminated|lost|no|paused|on hold)$/.test(w)) {
    return ok('archived')
  }
  return bad(`the status ${quote(text)} is not Active or Archived.`)
}

/** A local date: "2026-01-05", "1/5/2026" (month first, unless `dayFirst`), "1/5/26", "2026/01/05". */
export function parseLocalDate(text: string, what: string, dayFirst = false): Parsed<string> {
  const s = text.trim()
  let year: number
  let month: number
  let day: number
  const iso = s.match(/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$/)
  const local = s.match(/^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/)
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  else if (local) {
    const [first, second] = [Number(local[1]), Number(local[2])]
    ;[month, day] = dayFirst ? [second, first] : [first, second]
    year = Number(local[3]) + ((local[3] ?? '').length === 2 ? 2000 : 0)
  } else {
    return bad(`the ${what} ${quote(text)} is not a date (e.g. 2026-01-05 or ${dayFirst ? '5/1/2026' : '1/5/2026'}).`)
  }
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return bad(`the ${what} ${quote(text)} is not a date on the calendar.`)
  }
  return ok(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`)
}
