// Truck stock's forms (docs/inventory.md, decision 060), shared by the item page, its action and their tests:
// "Transfer", "Count" and "Receive". An amount is entered in the item's unit or in its pack; the action turns it into
// units (`toUnits`). Each form carries a token (`idempotencyKey`): the same form sent twice is one change.
import type { SubmissionResult } from '@conform-to/react'
import { z } from 'zod'

const AMOUNT_ERROR = 'Enter a whole number of 1 or more.'
const COUNT_ERROR = 'Enter the whole number you counted (0 or more).'
const REASON_ERROR = 'Give a reason for the count.'

const amount = (message: string, min: number) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,7}$/, message)
    .transform((value) => Number.parseInt(value, 10))
    .refine((value) => value >= min, message)

const entered = z.enum(['unit', 'pack']).default('unit')
const token = z.uuid().optional()

export const TransferSchema = z.object({
  from: z.string({ error: 'Choose where the stock is.' }).trim().min(1, 'Choose where the stock is.'),
  to: z.string({ error: 'Choose where it goes.' }).trim().min(1, 'Choose where it goes.'),
  quantity: amount(AMOUNT_ERROR, 1),
  entered,
  idempotencyKey: token,
})

export const ReceiveSchema = z.object({
  location: z.string({ error: 'Choose where it arrived.' }).trim().min(1, 'Choose where it arrived.'),
  quantity: amount(AMOUNT_ERROR, 1),
  entered,
  idempotencyKey: token,
})

export const CountSchema = z.object({
  location: z.string({ error: 'Choose the location you counted.' }).trim().min(1, 'Choose the location you counted.'),
  quantity: amount(COUNT_ERROR, 0),
  entered,
  reason: z.string({ error: REASON_ERROR }).trim().min(1, REASON_ERROR).max(200, 'Use at most 200 characters.'),
  idempotencyKey: token,
})

/** A location's own low-stock minimum for the item; blank goes back to the item's. */
export const MinimumSchema = z.object({
  locationId: z.string({ error: 'Choose a location.' }).trim().min(1, 'Choose a location.'),
  minQty: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || /^\d{1,7}$/.test(value), 'Enter a whole number of 0 or more, or leave it blank.')
    .transform((value) => (value ? Number.parseInt(value, 10) : null)),
})

export const STOCK_INTENTS = ['transfer', 'receive', 'count', 'minimum'] as const
export type StockIntent = (typeof STOCK_INTENTS)[number]

/** What the action answers a stock form. */
export type StockReply = {
  intent: StockIntent
  ok: boolean
  result: SubmissionResult<string[]>
  /** The confirmation ("Moved 8 gal from Warehouse to Truck — Tyler Brooks."). */
  message: string | null
}
