// The equipment on a body of water (OPERATIONS §1): pump, filter, heater, salt cell… with make, model and serial,
// so the technician brings the right part.
import { and, eq } from 'drizzle-orm'
import { bodiesOfWater, equipment } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { BODY_NOT_FOUND } from './body-of-water.server'
import { type EquipmentInput, EquipmentSchema, firstIssue } from './customer-schemas'

export const EQUIPMENT_NOT_FOUND = 'Equipment not found.'

export async function addEquipment(
  { companyId, bodyOfWaterId, input }: { companyId: string; bodyOfWaterId: string; input: EquipmentInput },
  executor: Database = db(),
): Promise<Result<{ equipmentId: string }>> {
  const parsed = EquipmentSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(bodyOfWaterId)) return failure('not-found', BODY_NOT_FOUND)
  const [body] = await executor
    .select({ id: bodiesOfWater.id })
    .from(bodiesOfWater)
    .where(and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.id, bodyOfWaterId)))
    .limit(1)
  if (!body) return failure('not-found', BODY_NOT_FOUND)
  const [row] = await executor
    .insert(equipment)
    .values({ companyId, bodyOfWaterId, ...parsed.data })
    .returning({ id: equipment.id })
  if (!row) throw new Error('equipment insert returned no row')
  return success({ equipmentId: row.id })
}

export async function updateEquipment({
  companyId,
  equipmentId,
  input,
}: {
  companyId: string
  equipmentId: string
  input: EquipmentInput
}): Promise<Result> {
  const parsed = EquipmentSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', firstIssue(parsed.error))
  if (!isUuid(equipmentId)) return failure('not-found', EQUIPMENT_NOT_FOUND)
  const rows = await db()
    .update(equipment)
    .set(parsed.data)
    .where(and(eq(equipment.companyId, companyId), eq(equipment.id, equipmentId)))
    .returning({ id: equipment.id })
  return rows.length ? success({}) : failure('not-found', EQUIPMENT_NOT_FOUND)
}

export async function removeEquipment({
  companyId,
  equipmentId,
}: {
  companyId: string
  equipmentId: string
}): Promise<Result> {
  if (!isUuid(equipmentId)) return failure('not-found', EQUIPMENT_NOT_FOUND)
  const rows = await db()
    .delete(equipment)
    .where(and(eq(equipment.companyId, companyId), eq(equipment.id, equipmentId)))
    .returning({ id: equipment.id })
  return rows.length ? success({}) : failure('not-found', EQUIPMENT_NOT_FOUND)
}
