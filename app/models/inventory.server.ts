import { and, asc, eq, ilike, lte, or, type SQL, sql } from 'drizzle-orm'
import { inventoryItems } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { failure, type Result, success } from '~/utils/result'
import { likePattern } from './customer.server'

/** SPEC §9: the inventory list is capped at 200 rows. */
export const INVENTORY_LIMIT = 200
/** SPEC §9: an item is low on stock at or below this quantity. */
export const LOW_STOCK_QTY = 5

export type InventoryItem = {
  id: string
  name: string
  sku: string
  qty: number
  priceCents: number
  /** What a unit costs the company ("Profit per pool"); shown to those who manage inventory only. */
  costCents: number
}

export const INVENTORY_MESSAGES = {
  notFound: 'That item was not found.',
  skuTaken: 'That SKU is already used by another item.',
} as const

/** Why stock cannot be taken below zero, with what is left. */
export function belowZeroMessage(qty: number) {
  return `Stock can't go below 0: there ${qty === 1 ? 'is' : 'are'} only ${qty} in stock.`
}

export type InventoryFields = { name: string; sku: string; priceCents: number; costCents?: number; qty: number }

const columns = {
  id: inventoryItems.id,
  name: inventoryItems.name,
  sku: inventoryItems.sku,
  qty: inventoryItems.qty,
  priceCents: inventoryItems.priceCents,
  costCents: inventoryItems.costCents,
}

/**
 * The company filter plus, when `query` has text, a literal (LIKE-escaped, parameterised) match on
 * name or SKU. Text without a letter or digit (`%`, `_`, `-` …) matches nothing, as for customers.
 */
function inventoryFilter(companyId: string, query: string | undefined) {
  const filters: SQL[] = [eq(inventoryItems.companyId, companyId)]
  const text = (query ?? '').trim().slice(0, 100)
  if (text && !/[\p{L}\p{N}]/u.test(text)) filters.push(sql`false`)
  else if (text) {
    const pattern = likePattern(text)
    const match = or(ilike(inventoryItems.name, pattern), ilike(inventoryItems.sku, pattern))
    if (match) filters.push(match)
  }
  return and(...filters)
}

/** The company's items whose name or SKU contains `query` (all when blank), by name, at most 200. */
export async function searchInventory({
  companyId,
  query = '',
  limit = INVENTORY_LIMIT,
}: {
  companyId: string
  query?: string
  limit?: number
}): Promise<InventoryItem[]> {
  return db()
    .select(columns)
    .from(inventoryItems)
    .where(inventoryFilter(companyId, query))
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(Math.max(1, Math.min(INVENTORY_LIMIT, Math.floor(limit))))
}

/** What the stock is worth (quantity × price, in cents) and how many items are low, in one query. */
export async function getInventorySummary(companyId: string) {
  const [row] = await db()
    .select({
      valueCents:
        sql<number>`coalesce(sum(${inventoryItems.qty}::bigint * ${inventoryItems.priceCents}), 0)::bigint`.mapWith(
          Number,
        ),
      lowStock: sql<number>`count(*) filter (where ${inventoryItems.qty} <= ${LOW_STOCK_QTY})::int`,
    })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
  return row ?? { valueCents: 0, lowStock: 0 }
}

/** Items at or below the low-stock level (SPEC §9), emptiest first: the restock list. */
export async function listLowStockItems({ companyId, limit = 20 }: { companyId: string; limit?: number }) {
  return db()
    .select(columns)
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), lte(inventoryItems.qty, LOW_STOCK_QTY)))
    .orderBy(asc(inventoryItems.qty), asc(inventoryItems.name))
    .limit(limit)
}

/** One item, only within `companyId`; another company's item (or a made-up id) is null. */
export async function getInventoryItem({
  companyId,
  itemId,
}: {
  companyId: string
  itemId: string
}): Promise<InventoryItem | null> {
  if (!isUuid(itemId)) return null
  const [row] = await db()
    .select(columns)
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
    .limit(1)
  return row ?? null
}

/** Whether `error` (or anything in its cause chain) is a Postgres unique violation. */
function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

function cleanFields(fields: InventoryFields): InventoryFields {
  return {
    name: fields.name.trim(),
    sku: fields.sku.trim(),
    priceCents: fields.priceCents,
    // Absent: the stored cost stays as it is (an update) or starts at the column's $0.00 (a new item).
    ...(fields.costCents === undefined ? {} : { costCents: fields.costCents }),
    qty: fields.qty,
  }
}

/** A saved item, or why not: not found, or its SKU taken (at the form's `sku` field). */
export type SaveResult = Result<{ item: InventoryItem }>

const skuTaken = () => failure('invalid', INVENTORY_MESSAGES.skuTaken, 'sku')
const itemNotFound = () => failure('not-found', INVENTORY_MESSAGES.notFound)

export async function createInventoryItem(
  { companyId, ...fields }: InventoryFields & { companyId: string },
  executor: Pick<Database, 'insert'> = db(),
): Promise<SaveResult> {
  try {
    const [row] = await executor
      .insert(inventoryItems)
      .values({ companyId, ...cleanFields(fields) })
      .returning(columns)
    if (!row) throw new Error('insert returned no row')
    return success({ item: row })
  } catch (error) {
    if (isUniqueViolation(error)) return skuTaken()
    throw error
  }
}

/** Updates one item of `companyId`; another company's id is not found. */
export async function updateInventoryItem({
  companyId,
  itemId,
  ...fields
}: InventoryFields & { companyId: string; itemId: string }): Promise<SaveResult> {
  if (!isUuid(itemId)) return itemNotFound()
  try {
    const [row] = await db()
      .update(inventoryItems)
      .set(cleanFields(fields))
      .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
      .returning(columns)
    return row ? success({ item: row }) : itemNotFound()
  } catch (error) {
    if (isUniqueViolation(error)) return skuTaken()
    throw error
  }
}

export type StockAdjustment = {
  itemId: string
  change: number
  reason: string
  previousQty: number
  qty: number
  adjustedAt: Date
}

/** The adjusted item, or why not: not found, or (invalid) it would take the stock below zero. */
export type AdjustResult = Result<{ item: InventoryItem; adjustment: StockAdjustment }>

/**
 * Changes an item's quantity by `change` in one guarded statement, so concurrent adjustments
 * never lose an update or take the stock below zero. There is no adjustments table: the
 * reason is returned with the adjustment and written to the log.
 */
export async function adjustStock({
  companyId,
  itemId,
  change,
  reason,
  userId,
}: {
  companyId: string
  itemId: string
  change: number
  reason: string
  userId?: string
}): Promise<AdjustResult> {
  if (!isUuid(itemId)) return itemNotFound()
  if (!Number.isSafeInteger(change)) throw new Error('change must be a whole number')
  const where = and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId))
  const [row] = await db()
    .update(inventoryItems)
    .set({ qty: sql`${inventoryItems.qty} + ${change}` })
    .where(and(where, sql`${inventoryItems.qty} + ${change} >= 0`))
    .returning(columns)
  if (!row) {
    const current = await getInventoryItem({ companyId, itemId })
    if (!current) return itemNotFound()
    return failure('invalid', belowZeroMessage(current.qty))
  }
  const adjustment: StockAdjustment = {
    itemId,
    change,
    reason: reason.trim(),
    previousQty: row.qty - change,
    qty: row.qty,
    adjustedAt: new Date(),
  }
  logger.info({ companyId, userId, ...adjustment }, 'inventory stock adjusted')
  return success({ item: row, adjustment })
}
