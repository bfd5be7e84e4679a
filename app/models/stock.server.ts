// Truck stock (issue 33 item 5; docs/inventory.md, decision 060): stock per location, and the one way it changes —
// `applyMovement`, which moves one location's quantity with a guard (never below zero), keeps the item's company-wide
// total (`inventory_items.qty`) equal to the sum of its locations, and writes the movement row of the history.
// Locks are always taken stock level first (in location id order), then the item, so two changes never deadlock.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { inventoryItems, type StockMovementKind, stockLevels, stockMovements } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { locationById, notEnoughMessage, resolvePlace, type StockLocation } from './stock-locations.server'

export const STOCK_MESSAGES = {
  itemNotFound: 'That item was not found.',
  locationNotFound: 'Choose a stock location.',
  sameLocation: 'Choose two different locations.',
  noTruck: 'That technician has no truck stock yet.',
} as const

/** Whether `error` (or anything in its cause chain) is a Postgres unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true
    current = (current as { cause?: unknown }).cause
  }
  return false
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
  visitId?: string | null
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
    visitId: movement.visitId ?? null,
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

/** The company's item and the place a form's `field` names (a technician's first truck made when `create`), or why not. */
async function itemAndPlace(
  tx: Database,
  companyId: string,
  itemId: string,
  { value, field, create }: { value: string; field: string; create: boolean },
): Promise<Result<{ item: ItemRow; place: StockLocation }>> {
  const item = await stockItem(tx, companyId, itemId)
  if (!item) return itemMissing()
  const place = await resolvePlace(tx, companyId, value, create)
  if (!place) return noLocation(field)
  return success({ item, place })
}

/** A keyed form's change of one location's stock (a receipt, a count): its item and place found, the stock locked. */
function changeAtPlace<T extends object>(
  { companyId, itemId, requestKey }: Keyed,
  { kind, location, create }: { kind: StockMovementKind; location: string; create: boolean },
  run: (tx: Database, place: StockLocation) => Promise<Result<T>>,
  executor: Database,
) {
  return once(
    requestKey,
    kind,
    companyId,
    async (tx) => {
      const found = await itemAndPlace(tx, companyId, itemId, { value: location, field: 'location', create })
      if (!found.ok) return found
      await lockLevels(tx, companyId, itemId, [found.place.id])
      return run(tx, found.place)
    },
    executor,
  )
}

/** "Receive": units delivered to a location (the warehouse, or straight onto a truck). */
export async function receiveStock(
  { companyId, itemId, location, quantity, requestKey, userId }: Keyed & { location: string; quantity: number },
  executor: Database = db(),
) {
  const keyed = { companyId, itemId, requestKey, userId }
  return changeAtPlace(
    keyed,
    { kind: 'received', location, create: true },
    async (tx, place) => {
      const applied = await applyMovement(tx, { ...keyed, locationId: place.id, kind: 'received', change: quantity })
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
  const keyed = { companyId, itemId, requestKey, userId }
  return once(
    requestKey,
    'transfer-out',
    companyId,
    async (tx) => {
      const found = await itemAndPlace(tx, companyId, itemId, { value: from, field: 'from', create: false })
      if (!found.ok) return found
      const { item, place: source } = found
      const target = await resolvePlace(tx, companyId, to, true)
      if (!target) return noLocation('to')
      if (source.id === target.id) return failure('invalid', STOCK_MESSAGES.sameLocation, 'to')
      await lockLevels(tx, companyId, itemId, [source.id, target.id])
      const out = await applyMovement(tx, {
        ...keyed,
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
        ...keyed,
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
  const keyed = { companyId, itemId, requestKey, userId }
  return changeAtPlace(
    keyed,
    { kind: 'count', location, create: false },
    async (tx, place) => {
      const before = await levelAt(tx, companyId, itemId, place.id)
      const change = counted - before
      const applied = await applyMovement(tx, { ...keyed, locationId: place.id, kind: 'count', change, reason })
      if (!applied) throw new Error('a count cannot go below zero')
      return success({ change, qtyAfter: applied.qtyAfter })
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
