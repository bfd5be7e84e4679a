// The work orders' forms (issue 33 items 4 and 6; docs/work-orders.md), shared by the components, the actions and
// their tests: "Create work order" and "Record deposit" on an approved quote, "Record part used" on a visit, and the
// list's filter. Safe in the browser (no database here).
import { z } from 'zod'
import { parseDollars } from '~/models/service-plan-schemas'

export const WORK_ORDER_FORM_MESSAGES = {
  template: 'Choose a template, or none.',
  startDate: 'Enter the first visit’s date, like 2026-12-01.',
  visitCount: 'Choose from 1 to 6 visits.',
  amount: 'Enter the deposit in dollars and cents, like 250.',
  receivedOn: 'Enter the date it was received.',
  method: 'Choose Check or Cash.',
  reference: 'Keep the reference under 100 characters.',
  item: 'Choose the stock item fitted.',
  quantity: 'Enter a whole quantity of 1 or more.',
} as const

/** The most visits the form offers (a template sets its own). */
export const FORM_MAX_VISITS = 6

const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value)
const technician = z.preprocess(blankToNull, z.string().max(64).nullable().default(null))
const date = (message: string) => z.string({ error: message }).regex(/^\d{4}-\d{2}-\d{2}$/, message)

export const CreateWorkOrderSchema = z.object({
  template: z
    .enum(['none', 'green-to-clean', 'equipment-install'], { error: WORK_ORDER_FORM_MESSAGES.template })
    .default('none'),
  startDate: date(WORK_ORDER_FORM_MESSAGES.startDate),
  visitCount: z.coerce
    .number({ error: WORK_ORDER_FORM_MESSAGES.visitCount })
    .int(WORK_ORDER_FORM_MESSAGES.visitCount)
    .min(1, WORK_ORDER_FORM_MESSAGES.visitCount)
    .max(FORM_MAX_VISITS, WORK_ORDER_FORM_MESSAGES.visitCount)
    .default(1),
  // One field per visit (a list would lose the blanks' places): the technician of visit 1, 2, …
  technician1: technician,
  technician2: technician,
  technician3: technician,
  technician4: technician,
  technician5: technician,
  technician6: technician,
})

export const RecordDepositSchema = z.object({
  amount: z.string({ error: WORK_ORDER_FORM_MESSAGES.amount }).transform((text, ctx) => {
    const cents = parseDollars(text)
    if (cents === null || cents <= 0) {
      ctx.addIssue({ code: 'custom', message: WORK_ORDER_FORM_MESSAGES.amount })
      return z.NEVER
    }
    return cents
  }),
  receivedOn: date(WORK_ORDER_FORM_MESSAGES.receivedOn),
  method: z.enum(['check', 'cash'], { error: WORK_ORDER_FORM_MESSAGES.method }),
  reference: z.preprocess(
    blankToNull,
    z.string().trim().max(100, WORK_ORDER_FORM_MESSAGES.reference).nullable().default(null),
  ),
})

export const PartUsedSchema = z.object({
  inventoryItemId: z.string({ error: WORK_ORDER_FORM_MESSAGES.item }).max(64, WORK_ORDER_FORM_MESSAGES.item),
  quantity: z.coerce
    .number({ error: WORK_ORDER_FORM_MESSAGES.quantity })
    .int(WORK_ORDER_FORM_MESSAGES.quantity)
    .min(1, WORK_ORDER_FORM_MESSAGES.quantity)
    .max(10_000, WORK_ORDER_FORM_MESSAGES.quantity),
})

/** The list's filter: open, completed, or both (anything else is both). */
export function readStateFilter(value: string | null): 'open' | 'completed' | null {
  return value === 'open' || value === 'completed' ? value : null
}
