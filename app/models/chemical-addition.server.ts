import { and, asc, eq, gte, sql } from 'drizzle-orm'
import { inventoryItems, jobChemicalAdditions } from '~/db/schema'
import { CHEMICAL_MESSAGES, type ChemicalAdditionInput } from '~/utils/chemicals'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { logger } from '~/utils/logger.server'
import { failure, type Result } from '~/utils/result'

/** Chemical additions listed on a job page. */
export const JOB_CHEMICALS_LIMIT = 50

export type AddChemicalResult = Result

/**
 * Records what was added to the water on a job. With a stock item chosen, that item's stock goes down by the
 * same whole number in the same transaction, guarded so two technicians can never take it below zero.
 */
export async function addChemicalToJob(
  {
    companyId,
    jobId,
    input,
    userId,
  }: {
    companyId: string
    jobId: string
    input: ChemicalAdditionInput
    userId?: string
  },
  // Inside a caller's transaction this one becomes a savepoint.
  executor: Database = db(),
): Promise<AddChemicalResult> {
  const result = await executor.transaction(async (tx): Promise<AddChemicalResult> => {
    let product = input.product ?? ''
    if (input.inventoryItemId) {
      const item = and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.id, input.inventoryItemId))
      const [taken] = await tx
        .update(inventoryItems)
        .set({ qty: sql`${inventoryItems.qty} - ${input.quantity}` })
        .where(and(item, gte(inventoryItems.qty, input.quantity)))
        .returning({ name: inventoryItems.name, qty: inventoryItems.qty })
      if (!taken) {
        const [current] = await tx.select({ qty: inventoryItems.qty }).from(inventoryItems).where(item)
        return current
          ? failure('invalid', CHEMICAL_MESSAGES.notEnough(current.qty), 'quantity')
          : failure('invalid', CHEMICAL_MESSAGES.itemMissing, 'inventoryItemId')
      }
      product = taken.name
    }
    await tx.insert(jobChemicalAdditions).values({
      companyId,
      jobId,
      inventoryItemId: input.inventoryItemId ?? null,
      product,
      quantity: input.quantity,
      unit: input.inventoryItemId ? 'each' : (input.unit ?? 'each'),
    })
    return { ok: true }
  })
  if (result.ok) {
    if (input.inventoryItemId)
      logger.info(
        { companyId, jobId, userId, itemId: input.inventoryItemId, change: -input.quantity },
        'stock used on a job',
      )
    await publishCompanyEvent({ companyId, type: 'job.updated', jobId }, executor)
  }
  return result
}

/** What was added to a job's water, in the order it was added. */
export async function listChemicalsForJob({ companyId, jobId }: { companyId: string; jobId: string }) {
  return db()
    .select({
      id: jobChemicalAdditions.id,
      product: jobChemicalAdditions.product,
      quantity: jobChemicalAdditions.quantity,
      unit: jobChemicalAdditions.unit,
      fromStock: sql<boolean>`${jobChemicalAdditions.inventoryItemId} is not null`,
      addedAt: jobChemicalAdditions.addedAt,
    })
    .from(jobChemicalAdditions)
    .where(and(eq(jobChemicalAdditions.companyId, companyId), eq(jobChemicalAdditions.jobId, jobId)))
    .orderBy(asc(jobChemicalAdditions.addedAt), asc(jobChemicalAdditions.id))
    .limit(JOB_CHEMICALS_LIMIT)
}
