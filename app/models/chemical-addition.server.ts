import { and, asc, eq, sql } from 'drizzle-orm'
import { inventoryItems, visitChemicalAdditions } from '~/db/schema'
import { CHEMICAL_UNITS, type ChemicalAdditionInput, type ChemicalUnit } from '~/utils/chemicals'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { logger } from '~/utils/logger.server'
import type { Result } from '~/utils/result'
import { takeStockForVisit } from './stock-use.server'

/** Chemical additions listed on a visit page. */
export const VISIT_CHEMICALS_LIMIT = 50

export type AddChemicalResult = Result

/** A stock item's unit as the addition records it (every item unit is a chemical unit; 'each' otherwise). */
async function unitOf(tx: Database, companyId: string, itemId: string): Promise<ChemicalUnit> {
  const [row] = await tx
    .select({ unit: inventoryItems.unit })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, itemId)))
  const unit = row?.unit ?? 'each'
  return (CHEMICAL_UNITS as readonly string[]).includes(unit) ? (unit as ChemicalUnit) : 'each'
}

/**
 * Records what was added to the water on a visit. With a stock item chosen, that item's stock goes down by the
 * same whole number of its unit in the same transaction (`takeStockForVisit`: the technician's truck, guarded so
 * two technicians can never take it below zero).
 */
export async function addChemicalToVisit(
  {
    companyId,
    visitId,
    input,
    userId,
  }: {
    companyId: string
    visitId: string
    input: ChemicalAdditionInput
    userId?: string
  },
  // Inside a caller's transaction this one becomes a savepoint.
  executor: Database = db(),
): Promise<AddChemicalResult> {
  const result = await executor.transaction(async (tx): Promise<AddChemicalResult> => {
    let product = input.product ?? ''
    let unit = input.unit ?? 'each'
    if (input.inventoryItemId) {
      // Off the visit technician's truck (or the warehouse), guarded, with its "used" movement (decision 060).
      const taken = await takeStockForVisit(tx, {
        companyId,
        visitId,
        itemId: input.inventoryItemId,
        quantity: input.quantity,
      })
      if (!taken.ok) return taken
      product = taken.name
      unit = await unitOf(tx, companyId, input.inventoryItemId)
    }
    await tx.insert(visitChemicalAdditions).values({
      companyId,
      visitId,
      inventoryItemId: input.inventoryItemId ?? null,
      product,
      quantity: input.quantity,
      unit,
    })
    return { ok: true }
  })
  if (result.ok) {
    if (input.inventoryItemId)
      logger.info(
        { companyId, visitId, userId, itemId: input.inventoryItemId, change: -input.quantity },
        'stock used on a visit',
      )
    await publishCompanyEvent({ companyId, type: 'visit.updated', visitId }, executor)
  }
  return result
}

/** What was added to a visit's water, in the order it was added. */
export async function listChemicalsForVisit({ companyId, visitId }: { companyId: string; visitId: string }) {
  return db()
    .select({
      id: visitChemicalAdditions.id,
      product: visitChemicalAdditions.product,
      quantity: visitChemicalAdditions.quantity,
      unit: visitChemicalAdditions.unit,
      fromStock: sql<boolean>`${visitChemicalAdditions.inventoryItemId} is not null`,
      addedAt: visitChemicalAdditions.addedAt,
    })
    .from(visitChemicalAdditions)
    .where(and(eq(visitChemicalAdditions.companyId, companyId), eq(visitChemicalAdditions.visitId, visitId)))
    .orderBy(asc(visitChemicalAdditions.addedAt), asc(visitChemicalAdditions.id))
    .limit(VISIT_CHEMICALS_LIMIT)
}
