// What truck stock lists show (docs/inventory.md, decision 060): an item's stock at each location and its history a
// page at a time, low stock per location, what is on a location, and the visit's stock picker.
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { inventoryItems, profiles, stockLevels, stockLocations, stockMovements } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'

/** A page of an item's history. */
export const HISTORY_PAGE_SIZE = 25
/** The most low-stock rows a list shows. */
export const LOW_STOCK_LIMIT = 20

/** A stock level's item and location (both the company's: composite keys). */
const itemOfLevel = and(eq(inventoryItems.companyId, stockLevels.companyId), eq(inventoryItems.id, stockLevels.itemId))
const locationOfLevel = and(
  eq(stockLocations.companyId, stockLevels.companyId),
  eq(stockLocations.id, stockLevels.locationId),
)
/** The minimum at a location: its own, else the item's. */
const minimumHere = sql<number>`coalesce(${stockLevels.minQty}, ${inventoryItems.minQty})`

/** An item's stock at each location it has ever been, the warehouse first. */
export async function listItemLevels({ companyId, itemId }: { companyId: string; itemId: string }) {
  return db()
    .select({
      locationId: stockLocations.id,
      kind: stockLocations.kind,
      name: stockLocations.name,
      qty: stockLevels.qty,
      ownMinQty: stockLevels.minQty,
      minQty: minimumHere,
    })
    .from(stockLevels)
    .innerJoin(stockLocations, locationOfLevel)
    .innerJoin(inventoryItems, itemOfLevel)
    .where(and(eq(stockLevels.companyId, companyId), eq(stockLevels.itemId, itemId)))
    .orderBy(sql`${stockLocations.kind} = 'truck'`, asc(stockLocations.name))
    .limit(200)
}

const otherLocation = sql<
  string | null
>`(select l.name from stock_locations l where l.company_id = ${stockMovements.companyId} and l.id = ${stockMovements.otherLocationId})`

/** An item's history, newest first, a page at a time (one more row is read to know whether there is a next page). */
export async function listItemHistory({
  companyId,
  itemId,
  page = 1,
}: {
  companyId: string
  itemId: string
  page?: number
}) {
  const rows = await db()
    .select({
      id: stockMovements.id,
      kind: stockMovements.kind,
      change: stockMovements.change,
      qtyAfter: stockMovements.qtyAfter,
      location: stockLocations.name,
      otherLocation,
      visitId: stockMovements.visitId,
      reason: stockMovements.reason,
      by: sql<string | null>`coalesce(nullif(trim(${profiles.fullName}), ''), ${profiles.email})`,
      at: stockMovements.createdAt,
    })
    .from(stockMovements)
    .innerJoin(
      stockLocations,
      and(eq(stockLocations.companyId, stockMovements.companyId), eq(stockLocations.id, stockMovements.locationId)),
    )
    .leftJoin(profiles, eq(profiles.id, stockMovements.createdBy))
    .where(and(eq(stockMovements.companyId, companyId), eq(stockMovements.itemId, itemId)))
    .orderBy(desc(stockMovements.seq))
    .limit(HISTORY_PAGE_SIZE + 1)
    .offset((page - 1) * HISTORY_PAGE_SIZE)
  return { rows: rows.slice(0, HISTORY_PAGE_SIZE), hasNext: rows.length > HISTORY_PAGE_SIZE }
}

const lowAt = sql`${stockLevels.qty} <= ${minimumHere}`

/** Items low at a location (at or below its minimum), emptiest first: "Low at Truck — Tyler Brooks". */
export async function listLowStock({ companyId, limit = LOW_STOCK_LIMIT }: { companyId: string; limit?: number }) {
  return db()
    .select({
      id: inventoryItems.id,
      name: inventoryItems.name,
      sku: inventoryItems.sku,
      unit: inventoryItems.unit,
      priceCents: inventoryItems.priceCents,
      locationId: stockLocations.id,
      location: stockLocations.name,
      qty: stockLevels.qty,
      minQty: minimumHere,
    })
    .from(stockLevels)
    .innerJoin(inventoryItems, itemOfLevel)
    .innerJoin(stockLocations, locationOfLevel)
    .where(and(eq(stockLevels.companyId, companyId), lowAt))
    .orderBy(asc(stockLevels.qty), asc(inventoryItems.name), asc(stockLocations.name))
    .limit(Math.max(1, Math.min(200, limit)))
}

/** How many (item, location) pairs are low. */
export async function countLowStock(companyId: string, executor: Database = db()) {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(stockLevels)
    .innerJoin(inventoryItems, itemOfLevel)
    .where(and(eq(stockLevels.companyId, companyId), lowAt))
  return row?.n ?? 0
}

/** What is on a location: its items, by name (at most 200), with each one's minimum there. */
export async function listLocationStock({ companyId, locationId }: { companyId: string; locationId: string }) {
  return db()
    .select({
      id: inventoryItems.id,
      name: inventoryItems.name,
      sku: inventoryItems.sku,
      unit: inventoryItems.unit,
      packName: inventoryItems.packName,
      packSize: inventoryItems.packSize,
      qty: stockLevels.qty,
      minQty: minimumHere,
    })
    .from(stockLevels)
    .innerJoin(inventoryItems, itemOfLevel)
    .where(and(eq(stockLevels.companyId, companyId), eq(stockLevels.locationId, locationId)))
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(200)
}

/**
 * The visit's stock picker, in one statement: each item (by name, at most 200) with what is at the place the visit
 * would take it from — the technician's truck when it carries the item, else the warehouse (`takeStockForVisit`).
 */
export async function listStockForVisit({
  companyId,
  technicianId,
}: {
  companyId: string
  technicianId: string | null
}) {
  const atTruck = sql<number | null>`(select t.qty from stock_levels t join stock_locations tl
      on tl.company_id = t.company_id and tl.id = t.location_id
    where t.company_id = ${inventoryItems.companyId} and t.item_id = ${inventoryItems.id}
      and tl.technician_id = ${technicianId ?? ''})`
  const atWarehouse = sql<number | null>`(select w.qty from stock_levels w join stock_locations wl
      on wl.company_id = w.company_id and wl.id = w.location_id
    where w.company_id = ${inventoryItems.companyId} and w.item_id = ${inventoryItems.id} and wl.kind = 'warehouse')`
  return db()
    .select({
      id: inventoryItems.id,
      name: inventoryItems.name,
      qty: sql<number>`coalesce(${atTruck}, ${atWarehouse}, 0)::int`,
    })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(200)
}
