// Inventory's forms, shared by the page, its action and their tests: "Add an item" / edit, and "Adjust stock". Also
// what the action answers each of them.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'
import { ITEM_UNITS } from '~/utils/stock-units'

/** The largest price accepted, $1,000,000.00, keeps cents well inside a 32-bit integer. */
const MAX_PRICE_CENTS = 100_000_000
const MAX_QTY = 1_000_000

/**
 * Dollars text to whole cents without floating point: '12.34' → 1234, '12.3' → 1230, '12' → 1200,
 * '$1,299.5' → 129950. More than two decimals, negatives and non-numbers are null.
 */
export function parseDollars(text: string): number | null {
  const value = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '')
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(value) ?? /^()\.(\d{1,2})$/.exec(value)
  if (!match) return null
  const whole = Number.parseInt(match[1] || '0', 10)
  const cents = Number.parseInt((match[2] ?? '').padEnd(2, '0'), 10)
  const total = whole * 100 + cents
  return total <= MAX_PRICE_CENTS ? total : null
}

/** Cents as the price field shows them, e.g. 1230 → '12.30'. */
export function centsToDollarText(cents: number) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}

const PRICE_ERROR = 'Enter a price in dollars, like 12.34 (no more than 2 decimals).'
const COST_ERROR = 'Enter a unit cost in dollars, like 4.20 (no more than 2 decimals), or leave it blank.'
const QTY_ERROR = 'Enter a whole number of 0 or more.'

/**
 * The item a form names (`itemId`; '' for none), read before the rest of the form: another company's item is
 * answered as a missing one before anything is validated.
 */
export const ItemTargetSchema = z.object({ itemId: z.string().trim().default('') })

export const InventorySchema = z
  .object({
    itemId: z.string().trim().optional(),
    name: z
      .string({ error: 'Name is required.' })
      .trim()
      .min(1, 'Name is required.')
      .max(200, 'Use at most 200 characters.'),
    sku: z
      .string({ error: 'SKU is required.' })
      .trim()
      .min(1, 'SKU is required.')
      .max(64, 'Use at most 64 characters.'),
    price: z
      .string({ error: 'Price is required.' })
      .trim()
      .min(1, 'Price is required.')
      .transform((value, ctx) => {
        const cents = parseDollars(value)
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message: PRICE_ERROR })
          return z.NEVER
        }
        return cents
      }),
    // What one unit costs the company ("Profit per pool"'s chemical cost). Optional: blank is $0.00, so forms and
    // imports written before the field existed still save, and an office that does not track costs is not blocked.
    cost: z
      .string()
      .trim()
      .optional()
      .transform((value, ctx) => {
        if (!value) return 0
        const cents = parseDollars(value)
        if (cents === null) {
          ctx.addIssue({ code: 'custom', message: COST_ERROR })
          return z.NEVER
        }
        return cents
      }),
    qty: z
      .string({ error: 'Quantity is required.' })
      .trim()
      .min(1, 'Quantity is required.')
      .regex(/^\d{1,7}$/, QTY_ERROR)
      .transform((value) => Number.parseInt(value, 10))
      .refine((value) => value <= MAX_QTY, `Use at most ${MAX_QTY.toLocaleString('en-US')}.`),
    // Units and packs, and the low-stock minimum (decision 060). Optional, so forms and imports written before them
    // still save: absent keeps the stored value (an edit) or the column's default (a new item).
    unit: z.enum(ITEM_UNITS, { error: 'Choose a unit.' }).optional(),
    packName: z.string().trim().max(20, 'Use at most 20 characters.').optional(),
    packSize: z
      .string()
      .trim()
      .optional()
      .refine((value) => !value || /^\d{1,5}$/.test(value), 'Enter how many units a pack holds, like 4.')
      .transform((value) => (value ? Number.parseInt(value, 10) : undefined))
      .refine((value) => value === undefined || (value >= 2 && value <= 10_000), 'A pack holds 2 to 10,000 units.'),
    minQty: z
      .string()
      .trim()
      .optional()
      .refine((value) => !value || /^\d{1,7}$/.test(value), QTY_ERROR)
      .transform((value) => (value ? Number.parseInt(value, 10) : undefined)),
  })
  .superRefine((value, context) => {
    if (value.packName && value.packSize === undefined)
      context.addIssue({ code: 'custom', path: ['packSize'], message: 'Enter how many units the pack holds.' })
    if (!value.packName && value.packSize !== undefined)
      context.addIssue({ code: 'custom', path: ['packName'], message: 'Name the pack, like case.' })
  })

const CHANGE_ERROR = 'Enter a whole number change, like +12 or -2.'

/** 'Adjust stock': a signed, non-zero whole number and a reason ("+12 delivery", "-2 used on visit"). */
export const AdjustSchema = z.object({
  itemId: z.string({ error: 'Missing item.' }).trim().min(1, 'Missing item.'),
  change: z
    .string({ error: CHANGE_ERROR })
    .trim()
    .regex(/^[+-]?\d{1,7}$/, CHANGE_ERROR)
    .transform((value) => Number.parseInt(value, 10))
    .refine((value) => value !== 0, 'The change cannot be 0.')
    .refine((value) => Math.abs(value) <= MAX_QTY, `Use a change of at most ${MAX_QTY.toLocaleString('en-US')}.`),
  reason: z
    .string({ error: 'Give a reason for the change.' })
    .trim()
    .min(1, 'Give a reason for the change.')
    .max(200, 'Use at most 200 characters.'),
})

export type InventoryFormValues = {
  id: string
  name: string
  sku: string
  price: string
  cost: string
  qty: string
  unit: string
  packName: string
  packSize: string
  minQty: string
}

/** What the action answers the add/edit form. */
export type SaveItemReply = {
  intent: 'save'
  ok: boolean
  result: SubmissionResult<string[]>
  message: string | null
  /** After a save: the item and a fresh token, so the page shows "Item saved." once per save. */
  savedId?: string
}

/** What the action answers "Update stock" of one item. */
export type AdjustStockReply = {
  intent: 'adjust'
  itemId: string
  ok: boolean
  result: SubmissionResult<string[]>
  message: string | null
  adjustment?: { change: number; reason: string; qty: number }
}
