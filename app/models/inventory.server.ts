import { and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm'
import { type ItemUnit, inventoryItems, stockLevels } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { logger } from '~/utils/logger.server'
import { failure, type Result, success } from '~/utils/result'
import { likePattern } from './customer-search.server'
import { applyMovement, isUniqueViolation } from './stock.server'
import { countLowStock, LOW_STOCK_LIMIT, listLowStock } from './stock-lists.server'
import { warehouseOf } from './stock-locations.server'

/** docs/product.md "Limits": the inventory list is capped at 200 rows. */
export const INVENTORY_LIMIT = 200
/** docs/product.md "Limits": an item is low on stock at or below this quantity (the default of each item's minimum, decision 060). */
export const LOW_STOCK_QTY = 5

export type InventoryItem = {
  id: string
  name: string
  sku: string
  /** The company-wide total, or with `locationId` the quantity at that location. */
  qty: number
  priceCents: number
  /** What a unit costs the company ("Profit per pool"); shown to those who manage inventory only. */
  costCents: number
  unit: ItemUnit
  packName: string | null
  packSize: number | null
  minQty: number
}

export const INVENTORY_MESSAGES = {
  notFound: 'That item was not found.',
  skuTaken: 'That SKU is already used by another item.',
} as const

/** Why stock cannot be taken below zero, with what is left. */
export function belowZeroMessage(qty: number) {
  return `Stock can't go below 0: there ${qty === 1 ? 'is' : 'are'} only ${qty} in stock.`
}

export type InventoryFields = {
  name: string
  sku: string
  priceCents: number
  costCents?: number
  qty: number
  /** Absent: kept as stored (an update) or the column's default (a new item). */
  unit?: ItemUnit
  pack?: { name: string; size: number } | null
  minQty?: number
}

const columns = {
  id: inventoryItems.id,
  name: inventoryItems.name,
  sku: inventoryItems.sku,
  qty: inventoryItems.qty,
  priceCents: inventoryItems.priceCents,
  costCents: inventoryItems.costCents,
  unit: inventoryItems.unit,
  packName: inventoryItems.packName,
  packSize: inventoryItems.packSize,
  minQty: inventoryItems.minQty,
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
  locationId,
}: {
  companyId: string
  query?: string
  limit?: number
  /** Only the items ever stocked at this location, with its quantity as `qty` (decision 060). */
  locationId?: string
}): Promise<InventoryItem[]> {
  if (locationId !== undefined) {
    if (!isUuid(locationId)) return []
    return db()
      .select({ ...columns, qty: stockLevels.qty })
      .from(inventoryItems)
      .innerJoin(
        stockLevels,
        and(
          eq(stockLevels.companyId, inventoryItems.companyId),
          eq(stockLevels.itemId, inventoryItems.id),
          eq(stockLevels.locationId, locationId),
        ),
      )
      .where(inventoryFilter(companyId, query))
      .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
      .limit(Math.max(1, Math.min(INVENTORY_LIMIT, Math.floor(limit))))
  }
  return db()
    .select(columns)
    .from(inventoryItems)
    .where(inventoryFilter(companyId, query))
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(Math.max(1, Math.min(INVENTORY_LIMIT, Math.floor(limit))))
}

/** What the stock is worth (quantity × price, in cents) and how many (item, location) pairs are low. */
export async function getInventorySummary(companyId: string) {
  const [[row], lowStock] = await Promise.all([
    db()
      .select({
        valueCents:
          sql<number>`coalesce(sum(${inventoryItems.qty}::bigint * ${inventoryItems.priceCents}), 0)::bigint`.mapWith(
            Number,
          ),
      })
      .from(inventoryItems)
      .where(eq(inventoryItems.companyId, companyId)),
    countLowStock(companyId),
  ])
  return { valueCents: row?.valueCents ?? 0, lowStock }
}

/**
 * The restock list: an item at a location at or below its minimum (docs/product.md "Limits": 5 unless set), emptiest first, each
 * row saying where ("Low at Truck — Tyler Brooks").
 */
export async function listLowStockItems({ companyId, limit = LOW_STOCK_LIMIT }: { companyId: string; limit?: number }) {
  return listLowStock({ companyId, limit })
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

/** The item's own columns (not its quantity, which only stock movements change). */
function cleanFields(fields: InventoryFields) {
  return {
    name: fields.name.trim(),
    sku: fields.sku.trim(),
    priceCents: fields.priceCents,
    // Absent: the stored cost stays as it is (an update) or starts at the column's $0.00 (a new item).
    ...(fields.costCents === undefined ? {} : { costCents: fields.costCents }),
    ...(fields.unit === undefined ? {} : { unit: fields.unit }),
    ...(fields.pack === undefined
      ? {}
      : { packName: fields.pack?.name.trim() ?? null, packSize: fields.pack?.size ?? null }),
    ...(fields.minQty === undefined ? {} : { minQty: fields.minQty }),
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
    // The database puts a new item's quantity in the warehouse with its "initial" movement (decision 060).
    const [row] = await executor
      .insert(inventoryItems)
      .values({ companyId, ...cleanFields(fields), qty: fields.qty })
      .returning(columns)
    if (!row) throw new Error('insert returned no row')
    return success({ item: row })
  } catch (error) {
    if (isUniqueViolation(error)) return skuTaken()
    throw error
  }
}

/** Why an edit cannot set the total: the warehouse would go below zero (the rest is on trucks). */
export function warehouseShortMessage(qty: number) {
  return `The warehouse has only ${qty}: count the trucks or transfer stock back first.`
}

/**
 * Updates one item of `companyId`; another company's id is not found. A new quantity is the company-wide total:
 * the difference is an "adjusted" movement at the warehouse (decision 060), refused below zero there.
 */
export async function updateInventoryItem({
  companyId,
  itemId,
  userId,
  ...fields
}: InventoryFields & { companyId: string; itemId: string; userId?: string }): Promise<SaveResult> {
  if (!isUuid(itemId)) return itemNotFound()
  const where = and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId))
  try {
    return await db().transaction(async (tx): Promise<SaveResult> => {
      const [current] = await tx.select({ qty: inventoryItems.qty }).from(inventoryItems).where(where)
      if (!current) return itemNotFound()
      const change = fields.qty - current.qty
      // The quantity first: stock is locked before its item, as every stock change does (no deadlock).
      if (change !== 0) {
        const warehouse = await warehouseOf(tx, companyId)
        const applied = await applyMovement(tx, {
          companyId,
          itemId,
          locationId: warehouse.id,
          kind: 'adjusted',
          change,
          reason: 'Quantity edited on the item',
          userId,
        })
        if (!applied) {
          const [level] = await tx
            .select({ qty: stockLevels.qty })
            .from(stockLevels)
            .where(
              and(
                eq(stockLevels.companyId, companyId),
                eq(stockLevels.itemId, itemId),
                eq(stockLevels.locationId, warehouse.id),
              ),
            )
          return failure('invalid', warehouseShortMessage(level?.qty ?? 0), 'qty')
        }
      }
      const [row] = await tx.update(inventoryItems).set(cleanFields(fields)).where(where).returning(columns)
      return row ? success({ item: row }) : itemNotFound()
    })
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
 * "Adjust stock": changes the warehouse's quantity of an item by `change` with its reason, as an "adjusted" movement
 * (decision 060) in one guarded statement, so concurrent adjustments never lose an update or go below zero.
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
  const result = await db().transaction(async (tx): Promise<AdjustResult> => {
    const [exists] = await tx.select({ id: inventoryItems.id }).from(inventoryItems).where(where)
    if (!exists) return itemNotFound()
    const warehouse = await warehouseOf(tx, companyId)
    const applied =
      change === 0
        ? null
        : await applyMovement(tx, {
            companyId,
            itemId,
            locationId: warehouse.id,
            kind: 'adjusted',
            change,
            reason: reason.trim() || 'Adjusted',
            userId,
          })
    if (!applied) {
      const [level] = await tx
        .select({ qty: stockLevels.qty })
        .from(stockLevels)
        .where(
          and(
            eq(stockLevels.companyId, companyId),
            eq(stockLevels.itemId, itemId),
            eq(stockLevels.locationId, warehouse.id),
          ),
        )
      return failure('invalid', belowZeroMessage(level?.qty ?? 0))
    }
    const [row] = await tx.select(columns).from(inventoryItems).where(where)
    if (!row) return itemNotFound()
    return success({
      item: row,
      adjustment: {
        itemId,
        change,
        reason: reason.trim(),
        previousQty: row.qty - change,
        qty: row.qty,
        adjustedAt: new Date(),
      },
    })
  })
  if (result.ok) logger.info({ companyId, userId, ...result.adjustment }, 'inventory stock adjusted')
  return result
}
