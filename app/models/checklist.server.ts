// The company's service checklist (Settings → "Checklist", docs/product.md "The visit") and the ticks saved on a visit.
import { and, asc, eq, isNull } from 'drizzle-orm'
import { checklistItems, companies, visitChecks } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { CHECKLIST_LABEL_MAX, CHECKLIST_LIMIT, CHECKLIST_MESSAGES, duplicateLabelMessage } from './checklist-rules'

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
  { companyId, visitId }: { companyId: string; visitId: string },
  executor: Pick<Database, 'select'> = db(),
) {
  return executor
    .select({ itemId: visitChecks.itemId, label: visitChecks.label, checkedAt: visitChecks.checkedAt })
    .from(visitChecks)
    .leftJoin(
      checklistItems,
      and(eq(checklistItems.companyId, visitChecks.companyId), eq(checklistItems.id, visitChecks.itemId)),
    )
    .where(and(eq(visitChecks.companyId, companyId), eq(visitChecks.visitId, visitId)))
    .orderBy(asc(checklistItems.position), asc(visitChecks.checkedAt))
}

type StoredItem = ChecklistItem & { position: number; archived: boolean }

/**
 * Every item of the company (archived ones too), the current ones in their order, after locking the company's row:
 * that lock makes the checklist's changes of one company run one after the other. Locking the item rows alone
 * would not do: two "Add item" at once lock the same rows, then both read the same last position and neither sees
 * the other's new label; two moves would be fine, but not a move and an add.
 */
async function lockChecklist(tx: Database, companyId: string) {
  const [company] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId))
    // No key update: new visits and customers of the company (whose keys point at this row) are not held up.
    .for('no key update')
  if (!company) return null
  const rows = await tx
    .select({
      id: checklistItems.id,
      label: checklistItems.label,
      photoRequired: checklistItems.photoRequired,
      position: checklistItems.position,
      archivedAt: checklistItems.archivedAt,
      createdAt: checklistItems.createdAt,
    })
    .from(checklistItems)
    .where(eq(checklistItems.companyId, companyId))
    .orderBy(asc(checklistItems.position), asc(checklistItems.createdAt))
  const items: StoredItem[] = rows.map(({ archivedAt, createdAt: _createdAt, ...row }) => ({
    ...row,
    archived: archivedAt !== null,
  }))
  return { items, current: items.filter((item) => !item.archived) }
}

type Checklist = NonNullable<Awaited<ReturnType<typeof lockChecklist>>>

/** A label as stored: trimmed; or why it cannot be one. */
function cleanLabel(label: string): Result<{ label: string }> {
  const trimmed = label.trim()
  if (!trimmed) return failure('invalid', CHECKLIST_MESSAGES.blank)
  if (trimmed.length > CHECKLIST_LABEL_MAX) return failure('invalid', CHECKLIST_MESSAGES.tooLong)
  return success({ label: trimmed })
}

/** A current item that already says `label` (ignoring case), other than `exceptId`. */
function sameLabel(checklist: Checklist, label: string, exceptId?: string) {
  const wanted = label.toLowerCase()
  return checklist.current.find((item) => item.id !== exceptId && item.label.toLowerCase() === wanted)
}

const publicItem = ({ id, label, photoRequired }: StoredItem): ChecklistItem => ({ id, label, photoRequired })

/**
 * Runs `change` on the company's locked checklist and the item `itemId` (a current one unless `archived` is
 * allowed). Another company's item, or no item at all, is not-found.
 */
async function changeItem<T extends object>(
  { companyId, itemId, allowArchived = false }: { companyId: string; itemId: string; allowArchived?: boolean },
  change: (tx: Database, checklist: Checklist, item: StoredItem) => Promise<Result<T>>,
): Promise<Result<T>> {
  if (!isUuid(itemId)) return failure('not-found', CHECKLIST_MESSAGES.notFound)
  return db().transaction(async (tx) => {
    const checklist = await lockChecklist(tx, companyId)
    const item = checklist?.items.find((candidate) => candidate.id === itemId)
    if (!checklist || !item) return failure('not-found', CHECKLIST_MESSAGES.notFound)
    if (item.archived && !allowArchived) return failure('not-found', CHECKLIST_MESSAGES.removed)
    return change(tx, checklist, item)
  })
}

/** "Add item": at the end of the checklist. */
export async function addChecklistItem({
  companyId,
  label,
  photoRequired = false,
}: {
  companyId: string
  label: string
  photoRequired?: boolean
}): Promise<Result<{ item: ChecklistItem }>> {
  const cleaned = cleanLabel(label)
  if (!cleaned.ok) return cleaned
  return db().transaction(async (tx) => {
    const checklist = await lockChecklist(tx, companyId)
    if (!checklist) return failure('not-found', CHECKLIST_MESSAGES.notFound)
    const taken = sameLabel(checklist, cleaned.label)
    if (taken) return failure('conflict', duplicateLabelMessage(taken.label))
    if (checklist.current.length >= CHECKLIST_LIMIT) return failure('conflict', CHECKLIST_MESSAGES.full)
    // After every item ever added, removed ones too: "Undo" puts a removed item back at its own position.
    const position = Math.max(0, ...checklist.items.map((item) => item.position)) + 1
    const [item] = await tx
      .insert(checklistItems)
      .values({ companyId, label: cleaned.label, photoRequired, position })
      .returning({ id: checklistItems.id, label: checklistItems.label, photoRequired: checklistItems.photoRequired })
    if (!item) throw new Error('checklist item not inserted')
    return success({ item })
  })
}

/** Renames a current item. Ticks already saved on visits keep the label they were ticked with. */
export async function renameChecklistItem({
  companyId,
  itemId,
  label,
}: {
  companyId: string
  itemId: string
  label: string
}): Promise<Result<{ item: ChecklistItem }>> {
  const cleaned = cleanLabel(label)
  if (!cleaned.ok) return cleaned
  return changeItem({ companyId, itemId }, async (tx, checklist, item) => {
    const taken = sameLabel(checklist, cleaned.label, item.id)
    if (taken) return failure('conflict', duplicateLabelMessage(taken.label))
    await tx
      .update(checklistItems)
      .set({ label: cleaned.label })
      .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, item.id)))
    return success({ item: publicItem({ ...item, label: cleaned.label }) })
  })
}

/** "Move up" / "Move down": swaps the item with its current neighbor. A move past either end is refused. */
export async function moveChecklistItem({
  companyId,
  itemId,
  direction,
}: {
  companyId: string
  itemId: string
  direction: 'up' | 'down'
}): Promise<Result<{ item: ChecklistItem }>> {
  return changeItem({ companyId, itemId }, async (tx, checklist, item) => {
    const index = checklist.current.indexOf(item)
    const neighbor = checklist.current[direction === 'up' ? index - 1 : index + 1]
    if (!neighbor) {
      return failure('conflict', `“${item.label}” is already ${direction === 'up' ? 'first' : 'last'}.`)
    }
    for (const [moved, position] of [
      [item, neighbor.position],
      [neighbor, item.position],
    ] as const) {
      await tx
        .update(checklistItems)
        .set({ position })
        .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, moved.id)))
    }
    return success({ item: publicItem(item) })
  })
}

/**
 * "Remove": archives the item, so it leaves the checklist while past visits keep their ticks of it (and their
 * reports their label). Removing an item already removed (a form sent twice) changes nothing.
 */
export async function removeChecklistItem({
  companyId,
  itemId,
}: {
  companyId: string
  itemId: string
}): Promise<Result<{ item: ChecklistItem }>> {
  return changeItem({ companyId, itemId, allowArchived: true }, async (tx, _checklist, item) => {
    if (!item.archived) {
      await tx
        .update(checklistItems)
        .set({ archivedAt: new Date() })
        .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, item.id)))
    }
    return success({ item: publicItem(item) })
  })
}

/**
 * "Undo" of "Remove": the item is back where it was, unless the checklist is full or has an item of that name again.
 * Restoring an item that is on the checklist changes nothing.
 */
export async function restoreChecklistItem({
  companyId,
  itemId,
}: {
  companyId: string
  itemId: string
}): Promise<Result<{ item: ChecklistItem }>> {
  return changeItem({ companyId, itemId, allowArchived: true }, async (tx, checklist, item) => {
    if (!item.archived) return success({ item: publicItem(item) })
    const taken = sameLabel(checklist, item.label)
    if (taken) return failure('conflict', duplicateLabelMessage(taken.label))
    if (checklist.current.length >= CHECKLIST_LIMIT) return failure('conflict', CHECKLIST_MESSAGES.full)
    await tx
      .update(checklistItems)
      .set({ archivedAt: null })
      .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, item.id)))
    return success({ item: publicItem(item) })
  })
}

/** "Photo required" on or off for a current item. */
export async function setPhotoRequired({
  companyId,
  itemId,
  photoRequired,
}: {
  companyId: string
  itemId: string
  photoRequired: boolean
}): Promise<Result<{ item: ChecklistItem }>> {
  return changeItem({ companyId, itemId }, async (tx, _checklist, item) => {
    await tx
      .update(checklistItems)
      .set({ photoRequired })
      .where(and(eq(checklistItems.companyId, companyId), eq(checklistItems.id, item.id)))
    return success({ item: publicItem({ ...item, photoRequired }) })
  })
}
