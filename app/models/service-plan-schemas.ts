// The rules of the schedule's forms — "Add service plan", "Move visit", "Skip visit" — as Zod schemas shared by the
// forms (Conform) and the models, which parse again on the server. Labels in messages are docs/product.md "Schedule"'s.
import { z } from 'zod'
import { isLocalDate } from '~/schedule/local-date'
import { FREQUENCY_WEEKS } from '~/schedule/recurrence'
import { SERVICE_WINDOWS } from '~/schedule/service-window'
import { RATE_TYPES } from '~/utils/customer-fields'

export const FREQUENCY_LABELS: Record<(typeof FREQUENCY_WEEKS)[number], string> = {
  1: 'Weekly',
  2: 'Every 2 weeks',
  3: 'Every 3 weeks',
  4: 'Every 4 weeks',
}

export const WEEKDAY_LABELS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

export const RATE_TYPE_LABELS: Record<(typeof RATE_TYPES)[number], string> = {
  'per-visit': 'Per visit',
  monthly: 'Monthly',
  'monthly-plus-chemicals': 'Monthly plus chemicals',
  'per-visit-plus-chemicals': 'Per visit plus chemicals',
}

export const SKIP_REASONS = [
  'Locked gate',
  'Dog in yard',
  'Weather',
  'Customer request',
  'Pool closed',
  'Other',
] as const

/** Dollars as typed ("$1,234.5", "85") to whole cents, exactly (no floating point); null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const match = /^\$?\s*(\d{1,7}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!match) return null
  const dollars = Number((match[1] as string).replace(/,/g, ''))
  const cents = Number(`${match[2] ?? ''}00`.slice(0, 2))
  const total = dollars * 100 + cents
  return Number.isSafeInteger(total) && total <= 100_000_000 ? total : null
}

const localDate = (label: string) =>
  z
    .string({ error: `Enter "${label}".` })
    .trim()
    .refine((value) => isLocalDate(value), `"${label}" must be a date.`)

const optionalId = z.preprocess((value) => (value === '' ? null : value), z.string().trim().max(100).nullable())

const rateField = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return 0
    const cents = parseDollars(value)
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'Enter the "Rate" in dollars, like 85 or 85.50.' })
      return z.NEVER
    }
    return cents
  })

/** The fields of a plan's schedule, technician and window, shared by "Add service plan" and "Edit plan". */
const planFields = {
  frequencyWeeks: z.coerce
    .number()
    .int()
    .refine((value) => (FREQUENCY_WEEKS as readonly number[]).includes(value), 'Choose a "Frequency".'),
  weekday: z.coerce.number({ error: 'Choose a "Day".' }).int().min(1, 'Choose a "Day".').max(7, 'Choose a "Day".'),
  technicianId: optionalId.optional().transform((value) => value ?? null),
  serviceWindow: z.enum(SERVICE_WINDOWS, { error: 'Choose a "Service window".' }).default('flexible'),
  rate: rateField,
}

export const ServicePlanSchema = z
  .object({
    ...planFields,
    startsOn: localDate('Starts on'),
    endsOn: z.preprocess((value) => (value === '' ? null : value), localDate('Ends on').nullable().optional()),
    rateType: z.enum(RATE_TYPES, { error: 'Choose a "Rate type".' }).default('per-visit'),
  })
  .refine((plan) => !plan.endsOn || plan.endsOn >= plan.startsOn, {
    message: '"Ends on" cannot be before "Starts on".',
    path: ['endsOn'],
  })
export type ServicePlanInput = z.input<typeof ServicePlanSchema>

/**
 * "Yes, …": the second post of a change that removes visits, after the page said how many (docs/decisions/048-…).
 * Absent on the first post.
 */
const confirmedField = z.literal('yes').optional()

/** "Edit plan": the plan's schedule, technician, window and rate from "From" on (docs/decisions/048-…). */
export const EditPlanSchema = z.object({ ...planFields, from: localDate('From'), confirmed: confirmedField })
export type EditPlanInput = z.input<typeof EditPlanSchema>

/** "Pause plan": no visits from "Pause from" until "Resume on" (the off-season). */
export const PausePlanSchema = z
  .object({ from: localDate('Pause from'), resumeOn: localDate('Resume on'), confirmed: confirmedField })
  .refine((pause) => pause.resumeOn > pause.from, {
    message: '"Resume on" must be after "Pause from".',
    path: ['resumeOn'],
  })
export type PausePlanInput = z.input<typeof PausePlanSchema>

/** "End plan": the plan's last day. */
export const EndPlanSchema = z.object({ endsOn: localDate('Ends on') })

export const MOVE_SCOPES = ['one', 'following'] as const
export const MoveVisitSchema = z.object({
  date: localDate('Date'),
  /** The wall-clock time in the company's zone ("14:30", as a time input posts it); empty keeps the visit's time. */
  time: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, '"Time" must be a time, like 9:30 AM.')
      .optional(),
  ),
  technicianId: optionalId.optional().transform((value) => value ?? null),
  scope: z.enum(MOVE_SCOPES, { error: 'Choose "This visit only" or "This and following visits".' }).default('one'),
})
export type MoveVisitInput = z.input<typeof MoveVisitSchema>

export const SkipVisitSchema = z
  .object({
    reason: z.enum(SKIP_REASONS, { error: 'Choose a reason.' }),
    otherReason: z.string().trim().max(200, 'Use at most 200 characters.').optional(),
  })
  .refine((skip) => skip.reason !== 'Other' || Boolean(skip.otherReason), {
    message: 'Say why the visit is skipped.',
    path: ['otherReason'],
  })
  .transform((skip) => ({ reason: skip.reason === 'Other' ? `Other: ${skip.otherReason}` : skip.reason }))
