// "Assign and reschedule" a visit (docs/product.md "Forms"): the technician (none: "Unassigned") and the date and time it
// is scheduled for. The office sets them on the visit page and on each row of the dispatcher dashboard's unassigned
// list: one schema for both forms, both server parts (assign-visit.server.ts) and their tests, so the browser and the
// server refuse the same things with the same words. The time stays as typed (a datetime-local value, the company's
// wall clock); the server reads it in the company's timezone.
import { z } from 'zod'
import { ASSIGN_MESSAGES } from '~/models/visit-assignment'
import { fromZonedInputValue } from '~/utils/dates'
import { isUuid } from '~/utils/ids'

export { ASSIGN_MESSAGES }

export const ASSIGN_VISIT_INTENT = 'assign'

/** "2026-12-01T09:00" is a time of day on a calendar date in any zone: the check the server's conversion makes. */
const isDateTimeInput = (text: string) => fromZonedInputValue(text, 'UTC') !== null

// No transforms, so Conform reads the browser's constraints (`required`) from the schema itself.
export const AssignVisitSchema = z.object({
  scheduledAt: z.string({ error: ASSIGN_MESSAGES.schedule }).refine(isDateTimeInput, ASSIGN_MESSAGES.schedule),
  // Blank (Conform reads '' as absent) is "Unassigned". The picker offers only technicians' ids, so anything else is
  // a tampered form, refused as the model refuses a technician of another company.
  technicianId: z.string().refine(isUuid, ASSIGN_MESSAGES.refused).optional(),
})
