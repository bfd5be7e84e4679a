// "Create a visit" on the dispatcher dashboard (docs/product.md "Forms"): a customer must be chosen; name, address and
// schedule are required after trimming. One schema for the form (the browser's check), its server part
// (create-visit.server.ts) and their tests, so both refuse the same things with the same words. The time stays as typed
// (a datetime-local value, the company's wall clock); the server reads it in the company's timezone.
import { z } from 'zod'
import { fromZonedInputValue } from '~/utils/dates'

export const CREATE_VISIT_INTENT = 'create-visit'

export const CREATE_VISIT_MESSAGES = {
  customer: 'Select a customer for this visit.',
  required: 'Customer, address, and schedule are required.',
  refused: 'Unable to create visit.',
  created: 'Visit created.',
} as const

/** "2026-12-01T09:00" is a time of day on a calendar date in any zone: the check the server's conversion makes. */
const isDateTimeInput = (text: string) => fromZonedInputValue(text, 'UTC') !== null

/** Blank (Conform reads '' as absent) is none. */
const optionalId = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || null)

export const CreateVisitSchema = z.object({
  customerId: z.string({ error: CREATE_VISIT_MESSAGES.customer }).trim().min(1, CREATE_VISIT_MESSAGES.customer),
  // One of the customer's locations (the picker offers them); without one, the customer's first.
  locationId: optionalId,
  customerName: z
    .string({ error: CREATE_VISIT_MESSAGES.required })
    .trim()
    .min(1, CREATE_VISIT_MESSAGES.required)
    .max(200, 'Use at most 200 characters.'),
  address: z
    .string({ error: CREATE_VISIT_MESSAGES.required })
    .trim()
    .min(1, CREATE_VISIT_MESSAGES.required)
    .max(300, 'Use at most 300 characters.'),
  scheduledAt: z
    .string({ error: CREATE_VISIT_MESSAGES.required })
    .trim()
    .refine(isDateTimeInput, CREATE_VISIT_MESSAGES.required),
  technicianId: optionalId,
  // "Fixed appointment": the technician arrives by the scheduled time, and "Optimize route" keeps it (docs/routing.md).
  appointment: z.boolean().default(false),
})

/**
 * The browser's check of `formData`. It cannot look a typed name up, so a name typed but not chosen from the list
 * (the `customerQuery` field) passes for the customer: the server finds it, or asks to select one.
 */
export function browserCreateVisitSchema(formData: FormData) {
  const chosen = String(formData.get('customerId') ?? '').trim()
  const typed = String(formData.get('customerQuery') ?? '').trim()
  return !chosen && typed ? CreateVisitSchema.omit({ customerId: true }) : CreateVisitSchema
}
