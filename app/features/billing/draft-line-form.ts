// What the draft editor on the invoice page posts (issue 31 item 1; docs/billing.md): "Add line" and a line's edit
// (Description, Quantity, Unit price, optionally an inventory item that fills the price), "Add discount" and
// "Note for customer". Dollars as people type them. Safe in the browser (no database here).
import { z } from 'zod'
import { parseDollars } from '~/models/service-plan-schemas'

export const DRAFT_FORM_MESSAGES = {
  description: 'Enter a description (at most 200 characters).',
  quantity: 'Enter a quantity above 0, with at most two decimals.',
  unitPrice: 'Enter the unit price in dollars and cents, like 45 or 1,234.50.',
  discount: 'Enter a discount above $0.00, like 10 or 12.50.',
  note: 'Keep the note under 1,000 characters.',
  line: 'Choose a line of this invoice.',
} as const

const dollars = (message: string, { positive }: { positive: boolean }) =>
  z.string().transform((text, ctx) => {
    const cents = parseDollars(text)
    if (cents === null || cents < 0 || (positive && cents === 0)) {
      ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    return cents
  })

const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value)

export const DraftLineSchema = z.object({
  description: z.preprocess(blankToNull, z.string().trim().max(200, DRAFT_FORM_MESSAGES.description).nullable()),
  quantity: z
    .string({ error: DRAFT_FORM_MESSAGES.quantity })
    .trim()
    .regex(/^\d{1,8}(\.\d{1,2})?$/, DRAFT_FORM_MESSAGES.quantity)
    .refine((text) => Number(text) > 0, DRAFT_FORM_MESSAGES.quantity),
  /** Blank: the inventory item's price. */
  unitPrice: z.preprocess(
    blankToNull,
    dollars(DRAFT_FORM_MESSAGES.unitPrice, { positive: false }).nullable().default(null),
  ),
  inventoryItemId: z.preprocess(blankToNull, z.string().max(64).nullable().default(null)),
})

export const DraftLineEditSchema = DraftLineSchema.extend({
  lineId: z.string({ error: DRAFT_FORM_MESSAGES.line }).max(64),
})

export const DraftLineRemoveSchema = z.object({ lineId: z.string({ error: DRAFT_FORM_MESSAGES.line }).max(64) })

export const DraftDiscountSchema = z.object({
  description: z.preprocess(blankToNull, z.string().trim().max(200, DRAFT_FORM_MESSAGES.description).nullable()),
  amount: dollars(DRAFT_FORM_MESSAGES.discount, { positive: true }),
})

export const DraftNoteSchema = z.object({
  note: z.string().max(1000, DRAFT_FORM_MESSAGES.note).default(''),
})
