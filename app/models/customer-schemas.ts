// The rules of a customer record's inputs — contact, service location, body of water, equipment — as Zod schemas
// shared by the forms (Conform, in the browser) and the models (which parse again on the server). They take what
// a form posts (strings, a checkbox's "on") as well as typed values, and give the cleaned value the database
// stores: trimmed text with blank as null, lower-case email, E.164 phone, whole numbers.
import { z } from 'zod'
import {
  DEFAULT_MINUTES_ON_SITE,
  EQUIPMENT_KINDS,
  MAX_GALLONS,
  MAX_MINUTES_ON_SITE,
  MIN_GALLONS,
  MIN_MINUTES_ON_SITE,
} from '~/utils/customer-fields'
import { INVALID_PHONE, toE164 } from '~/utils/phone'
import { SANITIZERS, SURFACES } from '~/water/targets'

/**
 * Optional text: trimmed, blank (or null) as null. Left out (undefined) it stays undefined: an edit keeps what is
 * stored, a new record gets the column's default. Forms post every field, so a cleared box is a blank, not absent.
 */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters.`)
    .nullable()
    .optional()
    .transform((value) => (value === undefined ? undefined : value || null))

/**
 * Blank as null, so "Not set" and an empty box mean the same. Left out altogether (a caller passing only some
 * fields), the value stays as it is: the database default for a new record, unchanged for an edit.
 */
function blankAsNull<T extends z.ZodType>(schema: T) {
  return z
    .preprocess(
      (value) => (value === null || (typeof value === 'string' && value.trim() === '') ? null : value),
      schema.nullable(),
    )
    .optional()
}

/** A whole number typed in a box (or given as one). */
function wholeNumber(message: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? Number(value.trim().replace(/,/g, '')) : value),
    z.number({ error: message }).int(message),
  )
}

export const PhoneSchema = text(40).pipe(
  z
    .string()
    .nullish()
    .transform((value, ctx) => {
      if (value == null) return value
      const e164 = toE164(value)
      if (!e164) {
        ctx.addIssue({ code: 'custom', message: INVALID_PHONE })
        return z.NEVER
      }
      return e164
    }),
)

export const CustomerEmailSchema = text(254)
  .pipe(z.email('Enter a valid email address.').nullish())
  // One address is always one value (the portal invite looks accounts up by it).
  .transform((value) => (value == null ? value : value.toLowerCase()))

const NAME_REQUIRED = 'Enter the customer’s name.'

/** The account holder's details ("Edit" on the customer record). */
export const ContactSchema = z.object({
  customerName: z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(200, 'Use at most 200 characters.'),
  email: CustomerEmailSchema,
  phone: PhoneSchema,
  billingAddress: text(300),
  notes: text(2000),
})
export type ContactInput = z.input<typeof ContactSchema>

const STREET_REQUIRED = 'Enter the street address.'
const MINUTES = `Minutes on site must be a whole number from ${MIN_MINUTES_ON_SITE} to ${MAX_MINUTES_ON_SITE}.`

function coordinate(label: string, limit: number) {
  const message = `${label} must be a number between -${limit} and ${limit}.`
  return blankAsNull(
    z.preprocess(
      (value) => (typeof value === 'string' ? Number(value.trim()) : value),
      z
        .number({ error: message })
        .min(-limit, message)
        .max(limit, message)
        // Stored with six decimals (about 10 cm).
        .transform((value) => Math.round(value * 1e6) / 1e6),
    ),
  )
}

const CLOCK = 'Enter a time such as 10:00 AM.'
export const TAX_RATE_CHOICE = 'Choose a tax rate from the list.'

/** A wall-clock time from a time box ("14:30"; a stored `time` reads "14:30:00"), as "14:30"; blank as null. */
const clockTime = blankAsNull(
  z
    .string({ error: CLOCK })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, CLOCK)
    .transform((value) => value.slice(0, 5)),
)

/** A checkbox posts "on" when ticked and nothing otherwise. */
const checkbox = z
  .preprocess((value) => value === true || value === 'on' || value === 'true', z.boolean())
  .default(false)

export const ServiceLocationSchema = z
  .object({
    label: text(100),
    street: z.string({ error: STREET_REQUIRED }).trim().min(1, STREET_REQUIRED).max(300, 'Use at most 300 characters.'),
    city: text(100),
    state: text(50),
    postalCode: text(20),
    // Left out (not posted, not passed), these keep what is stored (a new location: none, and 30 minutes).
    lat: coordinate('Latitude', 90),
    lng: coordinate('Longitude', 180),
    gateCode: text(100),
    accessNotes: text(2000),
    // An unticked checkbox posts nothing: absent is "no".
    dogOnSite: checkbox,
    minutesOnSite: z
      .preprocess(
        (value) => (value === null || value === '' ? DEFAULT_MINUTES_ON_SITE : value),
        wholeNumber(MINUTES).pipe(z.number().min(MIN_MINUTES_ON_SITE, MINUTES).max(MAX_MINUTES_ON_SITE, MINUTES)),
      )
      .optional(),
    // "Arrive between" (docs/routing.md): when the technician may arrive, on the company's clock; both or neither.
    arriveFrom: clockTime,
    arriveUntil: clockTime,
    // "Tax rate" (Settings → "Tax rates"): blank is the company's default; absent (the API, an import) keeps what is
    // stored, and a new location takes the default.
    taxRateId: z
      .preprocess((value) => (value === '' ? null : value), z.uuid({ error: TAX_RATE_CHOICE }).nullable())
      .optional(),
  })
  .refine((location) => (location.lat == null) === (location.lng == null), {
    message: 'Fill in both latitude and longitude, or neither.',
    path: ['lng'],
  })
  .refine((location) => (location.arriveFrom == null) === (location.arriveUntil == null), {
    message: 'Fill in both “From” and “Until”, or neither.',
    path: ['arriveUntil'],
  })
  .refine((location) => !location.arriveFrom || !location.arriveUntil || location.arriveFrom <= location.arriveUntil, {
    message: '“Until” must not be before “From”.',
    path: ['arriveUntil'],
  })
export type ServiceLocationInput = z.input<typeof ServiceLocationSchema>

const GALLONS = `Gallons must be a whole number from ${MIN_GALLONS.toLocaleString('en-US')} to ${MAX_GALLONS.toLocaleString('en-US')}.`

/** A pool, spa or fountain; everything but the name is optional ("Not set"). */
export const BodyOfWaterSchema = z.object({
  name: z
    .preprocess(
      (value) => (value === null || (typeof value === 'string' && value.trim() === '') ? 'Pool' : value),
      z.string().trim().max(60, 'Use at most 60 characters.'),
    )
    .optional(),
  gallons: blankAsNull(wholeNumber(GALLONS).pipe(z.number().min(MIN_GALLONS, GALLONS).max(MAX_GALLONS, GALLONS))),
  surface: blankAsNull(z.enum(SURFACES, { error: 'Choose plaster, vinyl or fiberglass.' })),
  sanitizer: blankAsNull(z.enum(SANITIZERS, { error: 'Choose chlorine or salt.' })),
  indoor: blankAsNull(
    z.preprocess(
      (value) => (value === 'indoor' ? true : value === 'outdoor' ? false : value),
      z.boolean({ error: 'Choose outdoor or indoor.' }),
    ),
  ),
})
export type BodyOfWaterInput = z.input<typeof BodyOfWaterSchema>

const DATE = 'Enter the date as YYYY-MM-DD.'

export const EquipmentSchema = z.object({
  kind: z.enum(EQUIPMENT_KINDS, { error: 'Choose what kind of equipment this is.' }),
  make: text(100),
  model: text(100),
  serial: text(100),
  installedOn: blankAsNull(
    z.iso.date(DATE).refine((value) => value >= '1950-01-01' && value <= '2100-12-31', 'Enter a date after 1950.'),
  ),
  /** "Warranty until": the last day the maker covers it ("Under warranty" on its quotes; docs/quotes.md). */
  warrantyUntil: blankAsNull(
    z.iso.date(DATE).refine((value) => value >= '1950-01-01' && value <= '2100-12-31', 'Enter a date after 1950.'),
  ),
  notes: text(2000),
})
export type EquipmentInput = z.input<typeof EquipmentSchema>

/** "Add customer": the contact, the first service location and, optionally, its first body of water. */
export const NewCustomerSchema = ContactSchema.extend({
  location: ServiceLocationSchema,
  bodyOfWater: BodyOfWaterSchema.optional(),
})
export type NewCustomerInput = z.input<typeof NewCustomerSchema>

/** The "Add customer" form: a body of water always comes with it ("Pool" when none is described) — a pool company's customer has a pool. */
export const AddCustomerSchema = NewCustomerSchema.extend({
  bodyOfWater: BodyOfWaterSchema.optional().transform((body) => body ?? {}),
})

/** The first problem of a failed parse, in the schema's words. */
export function firstIssue(error: z.ZodError) {
  return error.issues[0]?.message ?? 'Check the form and try again.'
}
