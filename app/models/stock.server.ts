// Truck stock (issue 33 item 5; docs/inventory.md, decision 060): stock per location, and the one way it changes —
// `applyMovement`, which moves one location's quantity with a guard (never below zero), keeps the item's company-wide
// total (`inventory_items.qty`) equal to the sum of its locations, and writes the movement row of the history.
// Locks are always taken stock level first (in location id order), then the item, so two changes never deadlock.
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import {
  inventoryItems,
  profiles,
  type StockMovementKind,
  stockLevels,
  stockLocations,
  stockMovements,
} from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { formatUnits } from '~/utils/stock-units'

/** A page of an item's history. */
export const HISTORY_PAGE_SIZE = 25
/** The most low-stock rows a list shows. */
export const LOW_STOCK_LIMIT = 20

export const STOCK_MESSAGES = {
  itemNotFound: 'That item was not found.',
  locationNotFound: 'Choose a stock location.',
  sameLocation: 'Choose two different locations.',
  noTruck: 'That technician has no truck stock yet.',
} as const

export type StockLocation = { id: string; kind: 'warehouse' | 'truck'; name: string; technicianId: string | null }

/** Whether `error` (or anything in its cause chain) is a Postgres unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
}

const locationColumns = {
  id: stockLocations.id,
  kind: stockLocations.kind,
  name: stockLocations.name,
  technicianId: stockLocations.technicianId,
}

/** Where "Only 2 gal left …" says the stock is. */
export function placeText(location: Pick<StockLocation, 'kind' | 'name'>) {
  return location.kind === 'warehouse' ? `in the ${location.name}` : `on ${location.name}`
}

/** "Only 2 gal left on Truck — Tyler Brooks." */
export function notEnoughMessage(qty: number, unit: string, location: Pick<StockLocation, 'kind' | 'name'>) {
  return `Only ${formatUnits(qty, unit)} left ${placeText(location)}.`
}

/** The company's warehouse (made now if a company somehow has none: the database function is the one maker). */
export async function warehouseOf(tx: Database, companyId: string): Promise<StockLocation> {
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(sql`${stockLocations.id} = pool_bud_warehouse_of(${companyId}::uuid)`)
  if (!row) throw new Error('no warehouse')
  return row
}

/** A technician's truck, or null when they have none yet. */
export async function truckOf(tx: Database, companyId: string, technicianId: string): Promise<StockLocation | null> {
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(and(eq(stockLocations.companyId, companyId), eq(stockLocations.technicianId, technicianId)))
  return row ?? null
}

/** A technician's truck, made ("Truck — Tyler Brooks") the first time they get stock; null if not a technician. */
async function makeTruck(tx: Database, companyId: string, technicianId: string): Promise<StockLocation | null> {
  const [tech] = await tx
    .select({ name: sql<string>`coalesce(nullif(trim(${profiles.fullName}), ''), ${profiles.email})` })
    .from(profiles)
    .where(and(eq(profiles.id, technicianId), eq(profiles.companyId, companyId), eq(profiles.role, 'tech')))
  if (!tech) return null
  await tx
    .insert(stockLocations)
    .values({ companyId, kind: 'truck', technicianId, name: `Truck — ${tech.name}` })
    .onConflictDoNothing()
  return truckOf(tx, companyId, technicianId)
}

/** One location of the company by id, or null (another company's is null too). */
export async function locationById(tx: Database, companyId: string, locationId: string) {
  if (!isUuid(locationId)) return null
  const [row] = await tx
    .select(locationColumns)
    .from(stockLocations)
    .where(and(eq(stockLocations.companyId, companyId), eq(stockLocations.id, locationId)))
  return row ?? null
}

/**
 * A place a form names: a location id, or `tech:<profile id>` for an active technician who has no truck yet (the
 * truck is made when `create`).
 */
export async function resolvePlace(tx: Database, companyId: string, value: string, create: boolean) {
  if (value.startsWith('tech:')) {
    const technicianId = value.slice(5)
    return (await truckOf(tx, companyId, technicianId)) ?? (create ? makeTruck(tx, companyId, technicianId) : null)
  }
  return locationById(tx, companyId, value)
}

/** Every place stock can be: the warehouse, trucks, and active technicians without a truck yet (`tech:<id>`). */
export async function listStockPlaces(companyId: string) {
  const [locations, techs] = await Promise.all([
    db()
      .select(locationColumns)
      .from(stockLocations)
      .where(eq(stockLocations.companyId, companyId))
      .orderBy(sql`${stockLocations.kind} = 'truck'`, asc(stockLocations.name))
      .limit(200),
    db()
      .select({
        id: profiles.id,
        name: sql<string>`coalesce(nullif(trim(${profiles.fullName}), ''), ${profiles.email})`,
      })
      .from(profiles)
      .leftJoin(
        stockLocations,
        and(eq(stockLocations.companyId, profiles.companyId), eq(stockLocations.technicianId, profiles.id)),
      )
      .where(
        and(
          eq(profiles.companyId, companyId),
          eq(profiles.role, 'tech'),
          isNull(profiles.deactivatedAt),
          isNull(stockLocations.id),
        ),
      )
      .orderBy(asc(profiles.fullName))
      .limit(200),
  ])
  return [
    ...locations.map((l) => ({ value: l.id, name: l.name, kind: l.kind })),
    ...techs.map((t) => ({ value: `tech:${t.id}`, name: `Truck — ${t.name}`, kind: 'truck' as const })),
  ]
}

type ItemRow = {
  name: string
  unit: string
  priceCents: number
  costCents: number
  packName: string | null
  packSize: number | null
}

/** The item, locked for this transaction's change of its total; null when not the company's. */
export async function stockItem(tx: Database, companyId: string, itemId: string): Promise<ItemRow | null> {
  if (!isUuid(itemId)) return null
  const [row] = await tx
    .select({
      name: inventoryItems.name,
      unit: inventoryItems.unit,
      priceCents: inventoryItems.priceCents,
      costCents: inventoryItems.costCents,
      packName: inventoryItems.packName,
      packSize: inventoryItems.packSize,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
  return row ?? null
}

/** A location's quantity of an item (0 when it never had any). */
export async function levelAt(tx: Database, companyId: string, itemId: string, locationId: string) {
  const [row] = await tx
    .select({ qty: stockLevels.qty })
    .from(stockLevels)
    .where(
      and(eq(stockLevels.companyId, companyId), eq(stockLevels.itemId, itemId), eq(stockLevels.locationId, locationId)),
    )
  return row?.qty ?? 0
}

export type Movement = {
  companyId: string
  itemId: string
  locationId: string
  kind: StockMovementKind
  change: number
  otherLocationId?: string | null
  jobId?: string | null
  reason?: string | null
  requestKey?: string | null
  userId?: string | null
}

/**
 * The one change of stock: the location's quantity moves by `change` in one guarded statement (null when it would go
 * below zero, and nothing is written), the item's total with it (a transfer's two sides leave it as it is), and the
 * movement row records it. Run inside the caller's transaction.
 */
export async function applyMovement(tx: Database, movement: Movement): Promise<{ qtyAfter: number } | null> {
  const { companyId, itemId, locationId, change } = movement
  const [level] =
    change < 0
      ? await tx
          .update(stockLevels)
          .set({ qty: sql`${stockLevels.qty} + ${change}` })
          .where(
            and(
              eq(stockLevels.companyId, companyId),
              eq(stockLevels.itemId, itemId),
              eq(stockLevels.locationId, locationId),
              sql`${stockLevels.qty} + ${change} >= 0`,
            ),
          )
          .returning({ qty: stockLevels.qty })
      : await tx
          .insert(stockLevels)
          .values({ companyId, itemId, locationId, qty: change })
          .onConflictDoUpdate({
            target: [stockLevels.companyId, stockLevels.itemId, stockLevels.locationId],
            set: { qty: sql`${stockLevels.qty} + ${change}` },
          })
          .returning({ qty: stockLevels.qty })
  if (!level) return null
  if (change !== 0 && movement.kind !== 'transfer-in' && movement.kind !== 'transfer-out')
    await tx
      .update(inventoryItems)
      .set({ qty: sql`${inventoryItems.qty} + ${change}` })
      .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
  await tx.insert(stockMovements).values({
    companyId,
    itemId,
    locationId,
    kind: movement.kind,
    change,
    qtyAfter: level.qty,
    otherLocationId: movement.otherLocationId ?? null,
    jobId: movement.jobId ?? null,
    reason: movement.reason?.trim() || null,
    requestKey: movement.requestKey ?? null,
    createdBy: movement.userId ?? null,
  })
  return { qtyAfter: level.qty }
}

/** Locks the item's stock at these locations (made at 0 where there is none yet), in one order for every caller. */
async function lockLevels(tx: Database, companyId: string, itemId: string, locationIds: string[]) {
  await tx
    .insert(stockLevels)
    .values(locationIds.map((locationId) => ({ companyId, itemId, locationId, qty: 0 })))
    .onConflictDoNothing()
  await tx
    .select({ qty: stockLevels.qty })
    .from(stockLevels)
    .where(
      and(
        eq(stockLevels.companyId, companyId),
        eq(stockLevels.itemId, itemId),
        inArray(stockLevels.locationId, locationIds),
      ),
    )
    .orderBy(asc(stockLevels.locationId))
    .for('update')
}

/** Whether a form with this token already changed stock (the same form sent twice is one change). */
async function alreadyDone(tx: Database, companyId: string, requestKey: string | undefined, kind: StockMovementKind) {
  if (!requestKey) return false
  const [row] = await tx
    .select({ id: stockMovements.id })
    .from(stockMovements)
    .where(
      and(
        eq(stockMovements.companyId, companyId),
        eq(stockMovements.requestKey, requestKey),
        eq(stockMovements.kind, kind),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/**
 * Runs a keyed change once: a token already used answers success (`replayed`), and two sends racing each other
 * meet at the unique key — the loser's transaction rolls back whole and it answers as a replay too.
 */
async function once<T extends object>(
  requestKey: string | undefined,
  kind: StockMovementKind,
  companyId: string,
  run: (tx: Database) => Promise<Result<T>>,
  executor: Database,
): Promise<Result<T | { replayed: true }>> {
  try {
    return await executor.transaction(async (tx) => {
      if (await alreadyDone(tx, companyId, requestKey, kind)) return success({ replayed: true as const })
      return run(tx)
    })
  } catch (error) {
    if (requestKey && isUniqueViolation(error)) return success({ replayed: true as const })
    throw error
  }
}

const itemMissing = () => failure('not-found', STOCK_MESSAGES.itemNotFound)
const noLocation = (field: string) => failure('invalid', STOCK_MESSAGES.locationNotFound, field)

type Keyed = { companyId: string; itemId: string; requestKey?: string; userId?: string }

/** "Receive": units delivered to a location (the warehouse, or straight onto a truck). */
export async function receiveStock(
  { companyId, itemId, location, quantity, requestKey, userId }: Keyed & { location: string; quantity: number },
  executor: Database = db(),
) {
  return once(
    requestKey,
    'received',
    companyId,
    async (tx) => {
      if (!(await stockItem(tx, companyId, itemId))) return itemMissing()
      const place = await resolvePlace(tx, companyId, location, true)
      if (!place) return noLocation('location')
      await lockLevels(tx, companyId, itemId, [place.id])
      const applied = await applyMovement(tx, {
        companyId,
        itemId,
        locationId: place.id,
        kind: 'received',
        change: quantity,
        requestKey,
        userId,
      })
      if (!applied) throw new Error('receiving cannot go below zero')
      return success({ qtyAfter: applied.qtyAfter })
    },
    executor,
  )
}

/** "Transfer": units from one location to another in one transaction; refused when the source has too few. */
export async function transferStock(
  { companyId, itemId, from, to, quantity, requestKey, userId }: Keyed & { from: string; to: string; quantity: number },
  executor: Database = db(),
) {
  return once(
    requestKey,
    'transfer-out',
    companyId,
    async (tx) => {
      const item = await stockItem(tx, companyId, itemId)
      if (!item) return itemMissing()
      const source = await resolvePlace(tx, companyId, from, false)
      if (!source) return noLocation('from')
      const target = await resolvePlace(tx, companyId, to, true)
      if (!target) return noLocation('to')
      if (source.id === target.id) return failure('invalid', STOCK_MESSAGES.sameLocation, 'to')
      await lockLevels(tx, companyId, itemId, [source.id, target.id])
      const common = { companyId, itemId, requestKey, userId }
      const out = await applyMovement(tx, {
        ...common,
        locationId: source.id,
        kind: 'transfer-out',
        change: -quantity,
        otherLocationId: target.id,
      })
      if (!out) {
        const left = await levelAt(tx, companyId, itemId, source.id)
        return failure('invalid', notEnoughMessage(left, item.unit, source), 'quantity')
      }
      const into = await applyMovement(tx, {
        ...common,
        locationId: target.id,
        kind: 'transfer-in',
        change: quantity,
        otherLocationId: source.id,
      })
      if (!into) throw new Error('a transfer in cannot go below zero')
      return success({ fromQty: out.qtyAfter, toQty: into.qtyAfter, toLocationId: target.id })
    },
    executor,
  )
}

/** "Count": the quantity counted at a location; the difference (maybe 0) is a "count" movement with its reason. */
export async function countStock(
  {
    companyId,
    itemId,
    location,
    counted,
    reason,
    requestKey,
    userId,
  }: Keyed & { location: string; counted: number; reason: string },
  executor: Database = db(),
) {
  return once(
    requestKey,
    'count',
    companyId,
    async (tx) => {
      if (!(await stockItem(tx, companyId, itemId))) return itemMissing()
      const place = await resolvePlace(tx, companyId, location, false)
      if (!place) return noLocation('location')
      await lockLevels(tx, companyId, itemId, [place.id])
      const before = await levelAt(tx, companyId, itemId, place.id)
      const applied = await applyMovement(tx, {
        companyId,
        itemId,
        locationId: place.id,
        kind: 'count',
        change: counted - before,
        reason,
        requestKey,
        userId,
      })
      if (!applied) throw new Error('a count cannot go below zero')
      return success({ change: counted - before, qtyAfter: applied.qtyAfter })
    },
    executor,
  )
}

/** A location's own minimum for an item (null: the item's). */
export async function setLocationMinimum(
  {
    companyId,
    itemId,
    locationId,
    minQty,
  }: { companyId: string; itemId: string; locationId: string; minQty: number | null },
  executor: Database = db(),
): Promise<Result> {
  return executor.transaction(async (tx) => {
    if (!(await stockItem(tx, companyId, itemId))) return itemMissing()
    const place = await locationById(tx, companyId, locationId)
    if (!place) return noLocation('locationId')
    await tx
      .insert(stockLevels)
      .values({ companyId, itemId, locationId: place.id, qty: 0, minQty })
      .onConflictDoUpdate({
        target: [stockLevels.companyId, stockLevels.itemId, stockLevels.locationId],
        set: { minQty },
      })
    return success({})
  })
}

/** An item's stock at each location it has ever been, the warehouse first. */
export async function listItemLevels({ companyId, itemId }: { companyId: string; itemId: string }) {
  return db()
    .select({
      locationId: stockLocations.id,
      kind: stockLocations.kind,
      name: stockLocations.name,
      qty: stockLevels.qty,
      ownMinQty: stockLevels.minQty,
      minQty: sql<number>`coalesce(${stockLevels.minQty}, ${inventoryItems.minQty})`,
    })
    .from(stockLevels)
    .innerJoin(
      stockLocations,
      and(eq(stockLocations.companyId, stockLevels.companyId), eq(stockLocations.id, stockLevels.locationId)),
    )
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.companyId, stockLevels.companyId), eq(inventoryItems.id, stockLevels.itemId)),
    )
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
      jobId: stockMovements.jobId,
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

const lowAt = sql`${stockLevels.qty} <= coalesce(${stockLevels.minQty}, ${inventoryItems.minQty})`

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
      minQty: sql<number>`coalesce(${stockLevels.minQty}, ${inventoryItems.minQty})`,
    })
    .from(stockLevels)
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.companyId, stockLevels.companyId), eq(inventoryItems.id, stockLevels.itemId)),
    )
    .innerJoin(
      stockLocations,
      and(eq(stockLocations.companyId, stockLevels.companyId), eq(stockLocations.id, stockLevels.locationId)),
    )
    .where(and(eq(stockLevels.companyId, companyId), lowAt))
    .orderBy(asc(stockLevels.qty), asc(inventoryItems.name), asc(stockLocations.name))
    .limit(Math.max(1, Math.min(200, limit)))
}

/** How many (item, location) pairs are low. */
export async function countLowStock(companyId: string, executor: Database = db()) {
  const [row] = await executor
    .select({ n: sql<number>`count(*)::int` })
    .from(stockLevels)
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.companyId, stockLevels.companyId), eq(inventoryItems.id, stockLevels.itemId)),
    )
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
      minQty: sql<number>`coalesce(${stockLevels.minQty}, ${inventoryItems.minQty})`,
    })
    .from(stockLevels)
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.companyId, stockLevels.companyId), eq(inventoryItems.id, stockLevels.itemId)),
    )
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
