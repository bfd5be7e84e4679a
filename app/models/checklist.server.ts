// The company's service checklist (Settings → "Checklist", OPERATIONS §5) and the ticks saved on a visit.
import { and, asc, eq, isNull } from 'drizzle-orm'
import { checklistItems, visitChecks } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'

/** What every new company starts with: the checklist that was built in before companies could edit theirs. */
export const DEFAULT_CHECKLIST = [
  'Vacuum pool',
  'Skim surface and empty baskets',
  'Brush walls',
  'Test and balance chemicals',
] as const

/** Gives a new company the default checklist, in the transaction that creates it. */
export async function addDefaultChecklist(tx: Pick<Database, 'insert'>, companyId: string) {
  await tx
    .insert(checklistItems)
    .values(DEFAULT_CHECKLIST.map((label, index) => ({ companyId, label, position: index + 1 })))
}

export type ChecklistItem = { id: string; label: string; photoRequired: boolean }

/** The company's current checklist, in its order (archived items are gone from it, not from past visits). */
export async function listChecklist(companyId: string, executor: Pick<Database, 'select'> = db()) {
  return executor
    .select({ id: checklistItems.id, label: checklistItems.label, photoRequired: checklistItems.photoRequired })
    .from(checklistItems)
    .where(and(eq(checklistItems.companyId, companyId), isNull(checklistItems.archivedAt)))
    .orderBy(asc(checklistItems.position), asc(checklistItems.createdAt))
}

/** The items ticked on a visit, with the labels they had when ticked. */
export async function listVisitChecks(
  { companyId, jobId }: { companyId: string; jobId: string },
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select({ itemId: visitChecks.itemId, label: visitChecks.label, checkedAt: visitChecks.checkedAt })
    .from(visitChecks)
    .leftJoin(
      checklistItems,
      and(eq(checklistItems.companyId, visitChecks.companyId), eq(checklistItems.id, visitChecks.itemId)),
    )
    .where(and(eq(visitChecks.companyId, companyId), eq(visitChecks.jobId, jobId)))
    .orderBy(asc(checklistItems.position), asc(visitChecks.checkedAt))
}
