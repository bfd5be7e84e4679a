// The price book's and the quote editor's forms (issue 33 items 1–2; docs/quotes.md), shared by the components,
// the actions and their tests. Dollars as people type them; safe in the browser (no database here).
import { z } from 'zod'
import { QUOTE_STATUSES, type QuoteStatus } from '~/billing/quote-math'
import { parseDollars } from '~/models/service-plan-schemas'

export const QUOTE_FORM_MESSAGES = {
  name: 'Enter a name (at most 200 characters).',
  kind: 'Choose Part or Labor.',
  price: 'Enter the price in dollars and cents, like 45 or 1,234.50.',
  cost: 'Enter the cost in dollars and cents, or leave it blank.',
  description: 'Enter a description (at most 200 characters).',
  quantity: 'Enter a quantity above 0, with at most two decimals.',
  unitPrice: 'Enter the unit price in dollars and cents, like 45 or 1,234.50.',
  depositPercent: 'Enter a whole percent from 1 to 100.',
  depositAmount: 'Enter the deposit in dollars and cents, like 250.',
  validUntil: 'Enter a date, like 2026-12-31.',
  note: 'Keep the note under 1,000 characters.',
  customer: 'Choose a customer.',
  line: 'Choose a line of this quote.',
} as const

const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value)

const dollars = (message: string) =>
  z.string({ error: message }).transform((text, ctx) => {
    const cents = parseDollars(text)
    if (cents === null || cents < 0) {
      ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }
    return cents
  })

const checkbox = z.preprocess((value) => value === 'on' || value === 'true', z.boolean())

export const PriceBookItemSchema = z.object({
  itemId: z.preprocess(blankToNull, z.string().max(64).nullable().default(null)),
  name: z.string({ error: QUOTE_FORM_MESSAGES.name }).trim().min(1, QUOTE_FORM_MESSAGES.name).max(200),
  kind: z.enum(['part', 'labor'], { error: QUOTE_FORM_MESSAGES.kind }),
  price: dollars(QUOTE_FORM_MESSAGES.price),
  cost: z.preprocess(blankToNull, dollars(QUOTE_FORM_MESSAGES.cost).nullable().default(null)),
  taxable: checkbox,
  inventoryItemId: z.preprocess(blankToNull, z.string().max(64).nullable().default(null)),
})

export const PriceBookTargetSchema = z.object({ itemId: z.string({ error: 'Choose an item.' }).max(64) })

export type PriceBookFormValues = {
  itemId: string
  name: string
  kind: 'part' | 'labor'
  price: string
  cost: string
  taxable: string
  inventoryItemId: string
}

export const NewQuoteSchema = z.object({
  customerId: z.string({ error: QUOTE_FORM_MESSAGES.customer }).max(64),
  /** "New quote" from an equipment item: the item the quote is for. */
  equipmentId: z.preprocess(blankToNull, z.string().max(64).nullable().default(null)),
})

export const QuoteLineSchema = z.object({
  priceBookItemId: z.preprocess(blankToNull, z.string().max(64).nullable().default(null)),
  description: z.preprocess(blankToNull, z.string().trim().max(200, QUOTE_FORM_MESSAGES.description).nullable()),
  quantity: z
    .string({ error: QUOTE_FORM_MESSAGES.quantity })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, QUOTE_FORM_MESSAGES.quantity)
    .refine((text) => Number(text) > 0, QUOTE_FORM_MESSAGES.quantity),
  /** Blank: the price book item's price. */
  unitPrice: z.preprocess(blankToNull, dollars(QUOTE_FORM_MESSAGES.unitPrice).nullable().default(null)),
  optional: checkbox,
})

export const QuoteLineRemoveSchema = z.object({
  position: z.coerce.number({ error: QUOTE_FORM_MESSAGES.line }).int().min(1, QUOTE_FORM_MESSAGES.line),
})

export const QuoteTermsSchema = z
  .object({
    depositKind: z.enum(['none', 'percent', 'amount']).default('none'),
    depositPercent: z.preprocess(blankToNull, z.string().nullable().default(null)),
    depositAmount: z.preprocess(blankToNull, z.string().nullable().default(null)),
    validUntil: z.preprocess(
      blankToNull,
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, QUOTE_FORM_MESSAGES.validUntil)
        .nullable()
        .default(null),
    ),
    note: z.preprocess(blankToNull, z.string().trim().max(1000, QUOTE_FORM_MESSAGES.note).nullable().default(null)),
  })
  .transform((value, ctx) => {
    let depositValue = 0
    if (value.depositKind === 'percent') {
      const pct = /^\d{1,3}$/.test(value.depositPercent ?? '') ? Number(value.depositPercent) : Number.NaN
      if (!(pct >= 1 && pct <= 100)) {
        ctx.addIssue({ code: 'custom', message: QUOTE_FORM_MESSAGES.depositPercent, path: ['depositPercent'] })
        return z.NEVER
      }
      depositValue = pct
    } else if (value.depositKind === 'amount') {
      const cents = parseDollars(value.depositAmount ?? '')
      if (cents === null || cents <= 0) {
        ctx.addIssue({ code: 'custom', message: QUOTE_FORM_MESSAGES.depositAmount, path: ['depositAmount'] })
        return z.NEVER
      }
      depositValue = cents
    }
    return {
      deposit: { kind: value.depositKind, value: depositValue },
      validUntil: value.validUntil,
      customerNote: value.note,
    }
  })

/** The list's "Status" filter: a status, or all. */
export function readStatusFilter(value: string | null): QuoteStatus | null {
  return QUOTE_STATUSES.find((status) => status === value) ?? null
}

const idList = z.preprocess(
  (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]),
  z.array(z.string().max(64)).max(100),
)

export const APPROVAL_MESSAGES = {
  name: 'Type your full name to sign.',
  reason: 'Tell us why (at most 1,000 characters).',
  approvedBy: 'Enter who approved the quote.',
  method: 'Choose how they approved it.',
  when: 'Enter the date they approved it.',
} as const

/** The portal's "Approve": the version shown, the optional lines ticked, the typed name and the drawn signature. */
export const ApproveQuoteSchema = z.object({
  versionId: z.string().max(64),
  signerName: z.string({ error: APPROVAL_MESSAGES.name }).trim().min(2, APPROVAL_MESSAGES.name).max(120),
  /** A canvas PNG as a data URL; blank when signed with the typed name (keyboard). */
  signature: z.preprocess(blankToNull, z.string().max(300_000).nullable().default(null)),
  optionalLineId: idList,
})

export const DeclineQuoteSchema = z.object({
  versionId: z.string().max(64),
  reason: z.string({ error: APPROVAL_MESSAGES.reason }).trim().min(1, APPROVAL_MESSAGES.reason).max(1000),
})

/** The office's "Mark as approved": who approved, how and when. */
export const MarkApprovedSchema = z.object({
  approvedBy: z.string({ error: APPROVAL_MESSAGES.approvedBy }).trim().min(1, APPROVAL_MESSAGES.approvedBy).max(120),
  method: z.enum(['phone', 'paper', 'in-person'], { error: APPROVAL_MESSAGES.method }),
  approvedOn: z.string({ error: APPROVAL_MESSAGES.when }).regex(/^\d{4}-\d{2}-\d{2}$/, APPROVAL_MESSAGES.when),
  optionalLineId: idList,
})
