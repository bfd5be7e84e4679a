// The equipment on a body of water (docs/product.md "Records"): pump, filter, heater, salt cell… with make, model and
// serial, so the technician brings the right part; its warranty and its history — the quotes for it and their work orders
// (issue 33 item 7; docs/quotes.md "Equipment").
import { and, desc, eq, sql } from 'drizzle-orm'
import { workOrderNumberLabel } from '~/billing/billing-fields'
import { type QuoteStatus, quoteNumberLabel, quoteStatus } from '~/billing/quote-math'
import {
  bodiesOfWater,
  companies,
  customers,
  equipment,
  quotes,
  quoteVersions,
  serviceLocations,
  workOrders,
} from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { BODY_NOT_FOUND } from './body-of-water.server'
import { type EquipmentInput, EquipmentSchema, firstIssue } from './customer-schemas'
import { bodyOfEquipment, customerOfLocation, locationOfBody } from './joins.server'

/** A piece of equipment as its page and its customer's record show it. */
export const equipmentColumns = {
  id: equipment.id,
  kind: equipment.kind,
  make: equipment.make,
  model: equipment.model,
  serial: equipment.serial,
  installedOn: equipment.installedOn,
  warrantyUntil: equipment.warrantyUntil,
  notes: equipment.notes,
}

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

/** The history shows the newest quotes for the item, at most this many (with a note when there are more). */
export const EQUIPMENT_HISTORY_LIMIT = 50

export type EquipmentHistoryQuote = {
  id: string
  numberLabel: string
  status: QuoteStatus
  totalCents: number
  /** The day it was started, in the company's calendar. */
  date: string
  workOrder: { id: string; numberLabel: string; state: 'open' | 'completed' } | null
  /** The parts fitted on its work order's visits, in the order fitted (at most EQUIPMENT_PARTS_LIMIT). */
  partsFitted: Array<{ description: string; quantity: number; date: string }>
}

/** Parts listed per work order in the history: a repair fits a handful; more are on the work order's page. */
export const EQUIPMENT_PARTS_LIMIT = 20

export type EquipmentHistory = {
  equipment: {
    id: string
    kind: string
    make: string | null
    model: string | null
    serial: string | null
    installedOn: string | null
    warrantyUntil: string | null
    notes: string | null
    bodyOfWaterName: string
    locationArchived: boolean
  }
  customer: { id: string; name: string; archived: boolean }
  quotes: EquipmentHistoryQuote[]
  /** More quotes than EQUIPMENT_HISTORY_LIMIT name the item. */
  more: boolean
}

/**
 * One equipment item of the company with its history: its quotes, newest first, each at its current version's total
 * and with the work order made from it (a work order's equipment is its quote's) and the parts fitted on it. The history is one query — quotes
 * joined to their version and to work_orders on the quote (one work order per quote, so no row is doubled) — on the
 * (company_id, equipment_id) index. Null for another company's item or a made-up id.
 */
export async function getEquipmentHistory({
  companyId,
  equipmentId,
  today,
}: {
  companyId: string
  equipmentId: string
  /** The company's local date: a sent quote past "Valid until" is Expired. */
  today: string
}): Promise<EquipmentHistory | null> {
  if (!isUuid(equipmentId)) return null
  const [item] = await db()
    .select({
      ...equipmentColumns,
      bodyOfWaterName: bodiesOfWater.name,
      locationArchivedAt: serviceLocations.archivedAt,
      customerId: customers.id,
      customerName: customers.customerName,
      customerStatus: customers.status,
    })
    .from(equipment)
    .innerJoin(bodiesOfWater, bodyOfEquipment)
    .innerJoin(serviceLocations, locationOfBody)
    .innerJoin(customers, customerOfLocation)
    .where(and(eq(equipment.companyId, companyId), eq(equipment.id, equipmentId)))
    .limit(1)
  if (!item) return null
  const rows = await db()
    .select({
      id: quotes.id,
      number: quotes.number,
      state: quotes.state,
      totalCents: quoteVersions.totalCents,
      validUntil: quoteVersions.validUntil,
      date: sql<string>`to_char(${quotes.createdAt} at time zone ${companies.timezone}, 'YYYY-MM-DD')`,
      workOrderId: workOrders.id,
      workOrderNumber: workOrders.number,
      workOrderState: workOrders.state,
      // Raw names (work_orders, companies) inside the subquery: it is correlated to this row's work order.
      partsFitted: sql<Array<{ description: string; quantity: number; date: string }> | null>`(
        select json_agg(json_build_object('description', p.description, 'quantity', p.quantity, 'date', p.date)
                        order by p.recorded_at, p.id)
        from (select u.description, u.quantity, u.recorded_at, u.id,
                     to_char(u.recorded_at at time zone companies.timezone, 'YYYY-MM-DD') as date
              from work_order_parts_used u
              where u.company_id = work_orders.company_id and u.work_order_id = work_orders.id
              order by u.recorded_at, u.id
              limit ${EQUIPMENT_PARTS_LIMIT}) p)`,
    })
    .from(quotes)
    .innerJoin(companies, eq(companies.id, quotes.companyId))
    .innerJoin(
      quoteVersions,
      and(
        eq(quoteVersions.companyId, quotes.companyId),
        eq(quoteVersions.quoteId, quotes.id),
        eq(quoteVersions.version, quotes.currentVersion),
      ),
    )
    .leftJoin(workOrders, and(eq(workOrders.companyId, quotes.companyId), eq(workOrders.quoteId, quotes.id)))
    .where(and(eq(quotes.companyId, companyId), eq(quotes.equipmentId, item.id)))
    .orderBy(desc(quotes.createdAt), desc(quotes.number))
    .limit(EQUIPMENT_HISTORY_LIMIT + 1)
  const { locationArchivedAt, customerId, customerName, customerStatus, ...rest } = item
  return {
    equipment: { ...rest, locationArchived: locationArchivedAt !== null },
    customer: { id: customerId, name: customerName, archived: customerStatus === 'archived' },
    more: rows.length > EQUIPMENT_HISTORY_LIMIT,
    quotes: rows.slice(0, EQUIPMENT_HISTORY_LIMIT).map((row) => ({
      id: row.id,
      numberLabel: quoteNumberLabel(row.number),
      status: quoteStatus(row.state, row.validUntil, today),
      totalCents: row.totalCents,
      date: row.date,
      workOrder:
        row.workOrderId !== null && row.workOrderNumber !== null && row.workOrderState !== null
          ? { id: row.workOrderId, numberLabel: workOrderNumberLabel(row.workOrderNumber), state: row.workOrderState }
          : null,
      partsFitted: row.partsFitted ?? [],
    })),
  }
}
