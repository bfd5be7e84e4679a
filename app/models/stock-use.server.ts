// Stock used on a visit (issue 33 item 5; docs/inventory.md "Use on a visit", decision 060): the one function every
// path that fits a part or adds a chemical calls, inside its own transaction, so the stock and what was recorded
// on the visit commit together (a phone's replay that rolls back takes nothing).
import { and, eq } from 'drizzle-orm'
import { stockLevels, visits } from '~/db/schema'
import type { Database } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { applyMovement, levelAt, stockItem } from './stock.server'
import { notEnoughMessage, truckOf, warehouseOf } from './stock-locations.server'

const MESSAGES = {
  itemMissing: 'That stock item no longer exists.',
  visitMissing: 'That visit was not found.',
  quantity: 'Use a whole number of 1 or more.',
} as const

/**
 * Where a visit's stock comes from: its technician's truck when the truck carries the item (has ever had it), else
 * the warehouse — a visit with no technician, a technician with no truck yet, or an item trucks do not carry.
 */
async function sourceOf(tx: Database, companyId: string, itemId: string, technicianId: string | null) {
  const truck = technicianId ? await truckOf(tx, companyId, technicianId) : null
  if (truck) {
    const [carried] = await tx
      .select({ qty: stockLevels.qty })
      .from(stockLevels)
      .where(
        and(eq(stockLevels.companyId, companyId), eq(stockLevels.itemId, itemId), eq(stockLevels.locationId, truck.id)),
      )
    if (carried) return truck
  }
  return warehouseOf(tx, companyId)
}

/**
 * Takes `quantity` units of an item for a visit: off the visit technician's truck (the warehouse when the visit has
 * no technician, or their truck has never carried the item), guarded so it never goes below zero, recorded as a
 * "used" movement with the visit. Answers what the item is and costs, for the line recorded on the visit.
 */
export async function takeStockForVisit(
  tx: Database,
  { companyId, visitId, itemId, quantity }: { companyId: string; visitId: string; itemId: string; quantity: number },
): Promise<Result<{ name: string; priceCents: number; costCents: number }>> {
  if (!Number.isSafeInteger(quantity) || quantity < 1) return failure('invalid', MESSAGES.quantity, 'quantity')
  const item = await stockItem(tx, companyId, itemId)
  if (!item) return failure('invalid', MESSAGES.itemMissing, 'inventoryItemId')
  if (!isUuid(visitId)) return failure('not-found', MESSAGES.visitMissing)
  const [visit] = await tx
    .select({ technicianId: visits.technicianId })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
  if (!visit) return failure('not-found', MESSAGES.visitMissing)
  const source = await sourceOf(tx, companyId, itemId, visit.technicianId)
  const taken = await applyMovement(tx, {
    companyId,
    itemId,
    locationId: source.id,
    kind: 'used',
    change: -quantity,
    visitId,
  })
  if (!taken) {
    const left = await levelAt(tx, companyId, itemId, source.id)
    return failure('invalid', notEnoughMessage(left, item.unit, source), 'quantity')
  }
  return success({ name: item.name, priceCents: item.priceCents, costCents: item.costCents })
}
