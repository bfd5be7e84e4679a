// Reading work orders (issue 33 item 4; docs/work-orders.md): the paged list, one work order with its visits, the
// approved version's lines (the parts list) and the parts used, and a visit's work order. Writes are in
// work-order.server.ts. Every statement filters by company_id; inside a transaction they run one after the other.
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { workOrderNumberLabel } from '~/billing/billing-fields'
import { quoteNumberLabel } from '~/billing/quote-math'
import type { WORK_ORDER_STATES } from '~/db/schema'
import {
  customers,
  equipment,
  inventoryItems,
  invoices,
  priceBookItems,
  profiles,
  quoteDecisions,
  quoteLines,
  quotes,
  quoteVersions,
  visits,
  workOrderPartsUsed,
  workOrders,
  workOrderVisits,
} from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { visitState } from './visit-state'

type WorkOrderState = (typeof WORK_ORDER_STATES)[number]
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0]

export const WORK_ORDERS_PAGE_SIZE = 25
/** The parts recorded on a work order that its page and its invoice read (a repair fits a handful). */
export const PARTS_USED_LIMIT = 200

/** The work order of a quote, if one was made. */
export async function workOrderOfQuote(companyId: string, quoteId: string) {
  if (!isUuid(quoteId)) return null
  const [row] = await db()
    .select({ id: workOrders.id, number: workOrders.number })
    .from(workOrders)
    .where(and(eq(workOrders.companyId, companyId), eq(workOrders.quoteId, quoteId)))
  return row ? { id: row.id, numberLabel: workOrderNumberLabel(row.number) } : null
}

export type WorkOrderListRow = {
  id: string
  numberLabel: string
  customerName: string
  quoteLabel: string
  state: WorkOrderState
  createdAt: Date
  visits: number
  visitsDone: number
}

/** One page of the company's work orders, newest first, open or completed or both. Two statements. */
export async function listWorkOrders({
  companyId,
  state = null,
  page = 1,
}: {
  companyId: string
  state?: WorkOrderState | null
  page?: number
}) {
  const rows = await db()
    .select({
      id: workOrders.id,
      number: workOrders.number,
      customerName: customers.customerName,
      quoteNumber: quotes.number,
      state: workOrders.state,
      createdAt: workOrders.createdAt,
    })
    .from(workOrders)
    .innerJoin(customers, and(eq(customers.companyId, workOrders.companyId), eq(customers.id, workOrders.customerId)))
    .innerJoin(quotes, and(eq(quotes.companyId, workOrders.companyId), eq(quotes.id, workOrders.quoteId)))
    .where(and(eq(workOrders.companyId, companyId), state ? eq(workOrders.state, state) : undefined))
    .orderBy(desc(workOrders.createdAt), desc(workOrders.number))
    .limit(WORK_ORDERS_PAGE_SIZE + 1)
    .offset((Math.max(1, page) - 1) * WORK_ORDERS_PAGE_SIZE)
  const shown = rows.slice(0, WORK_ORDERS_PAGE_SIZE)
  const ids = shown.map((row) => row.id)
  const progress = ids.length
    ? await db()
        .select({
          workOrderId: workOrderVisits.workOrderId,
          visits: count(),
          done: sql<number>`count(*) filter (where ${visits.completedAt} is not null or ${visits.canceledAt} is not null)`.mapWith(
            Number,
          ),
        })
        .from(workOrderVisits)
        .innerJoin(visits, and(eq(visits.companyId, workOrderVisits.companyId), eq(visits.id, workOrderVisits.visitId)))
        .where(and(eq(workOrderVisits.companyId, companyId), inArray(workOrderVisits.workOrderId, ids)))
        .groupBy(workOrderVisits.workOrderId)
    : []
  const byOrder = new Map(progress.map((row) => [row.workOrderId, row]))
  return {
    hasNext: rows.length > WORK_ORDERS_PAGE_SIZE,
    workOrders: shown.map(
      (row): WorkOrderListRow => ({
        id: row.id,
        numberLabel: workOrderNumberLabel(row.number),
        customerName: row.customerName,
        quoteLabel: quoteNumberLabel(row.quoteNumber),
        state: row.state,
        createdAt: row.createdAt,
        visits: byOrder.get(row.id)?.visits ?? 0,
        visitsDone: byOrder.get(row.id)?.done ?? 0,
      }),
    ),
  }
}

/** The approved version's lines, and which are parts (a price book part) and counted (required, or ticked). */
async function approvedLines(executor: Database | Tx, companyId: string, versionId: string, chosen: string[]) {
  const rows = await executor
    .select({
      id: quoteLines.id,
      position: quoteLines.position,
      description: quoteLines.description,
      quantityHundredths: quoteLines.quantityHundredths,
      unitPriceCents: quoteLines.unitPriceCents,
      amountCents: quoteLines.amountCents,
      taxable: quoteLines.taxable,
      optional: quoteLines.optional,
      kind: priceBookItems.kind,
      inventoryItemId: priceBookItems.inventoryItemId,
    })
    .from(quoteLines)
    .leftJoin(
      priceBookItems,
      and(eq(priceBookItems.companyId, quoteLines.companyId), eq(priceBookItems.id, quoteLines.priceBookItemId)),
    )
    .where(and(eq(quoteLines.companyId, companyId), eq(quoteLines.versionId, versionId)))
    .orderBy(asc(quoteLines.position))
  return rows
    .filter((line) => !line.optional || chosen.includes(line.id))
    .map((line) => ({ ...line, part: line.kind === 'part' }))
}

export type ApprovedLine = Awaited<ReturnType<typeof approvedLines>>[number]

/** The work order's header: its quote, version and decision's choices. */
async function headerOf(executor: Database | Tx, companyId: string, workOrderId: string) {
  if (!isUuid(workOrderId)) return null
  const [row] = await executor
    .select({
      id: workOrders.id,
      number: workOrders.number,
      state: workOrders.state,
      template: workOrders.template,
      notes: workOrders.notes,
      completedAt: workOrders.completedAt,
      invoiceId: workOrders.invoiceId,
      invoiceNumber: invoices.number,
      customerId: workOrders.customerId,
      customerName: customers.customerName,
      quoteId: workOrders.quoteId,
      quoteNumber: quotes.number,
      versionId: workOrders.quoteVersionId,
      version: quoteVersions.version,
      chosenLineIds: quoteDecisions.chosenLineIds,
      approvedTotalCents: quoteDecisions.totalCents,
      createdAt: workOrders.createdAt,
      // The equipment its quote is for ("For: …", "Under warranty"), if any.
      equipmentId: equipment.id,
      equipmentKind: equipment.kind,
      equipmentMake: equipment.make,
      equipmentModel: equipment.model,
      equipmentSerial: equipment.serial,
      warrantyUntil: equipment.warrantyUntil,
    })
    .from(workOrders)
    .innerJoin(customers, and(eq(customers.companyId, workOrders.companyId), eq(customers.id, workOrders.customerId)))
    .innerJoin(quotes, and(eq(quotes.companyId, workOrders.companyId), eq(quotes.id, workOrders.quoteId)))
    .innerJoin(
      quoteVersions,
      and(eq(quoteVersions.companyId, workOrders.companyId), eq(quoteVersions.id, workOrders.quoteVersionId)),
    )
    .leftJoin(
      quoteDecisions,
      and(eq(quoteDecisions.companyId, workOrders.companyId), eq(quoteDecisions.quoteId, workOrders.quoteId)),
    )
    .leftJoin(invoices, and(eq(invoices.companyId, workOrders.companyId), eq(invoices.id, workOrders.invoiceId)))
    .leftJoin(equipment, and(eq(equipment.companyId, workOrders.companyId), eq(equipment.id, quotes.equipmentId)))
    .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, workOrderId)))
  return row ?? null
}

export async function visitsOf(executor: Database | Tx, companyId: string, workOrderId: string) {
  const rows = await executor
    .select({
      visitId: workOrderVisits.visitId,
      position: workOrderVisits.position,
      title: workOrderVisits.title,
      scheduledAt: visits.scheduledAt,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
      locationId: visits.locationId,
      technicianId: visits.technicianId,
      technicianName: profiles.fullName,
    })
    .from(workOrderVisits)
    .innerJoin(visits, and(eq(visits.companyId, workOrderVisits.companyId), eq(visits.id, workOrderVisits.visitId)))
    .leftJoin(profiles, eq(profiles.id, visits.technicianId))
    .where(and(eq(workOrderVisits.companyId, companyId), eq(workOrderVisits.workOrderId, workOrderId)))
    .orderBy(asc(workOrderVisits.position))
  return rows.map((row) => ({ ...row, state: visitState(row) }))
}

export async function partsUsedOf(executor: Database | Tx, companyId: string, workOrderId: string) {
  return executor
    .select({
      id: workOrderPartsUsed.id,
      visitId: workOrderPartsUsed.visitId,
      inventoryItemId: workOrderPartsUsed.inventoryItemId,
      description: workOrderPartsUsed.description,
      quantity: workOrderPartsUsed.quantity,
      unitPriceCents: workOrderPartsUsed.unitPriceCents,
      unitCostCents: workOrderPartsUsed.unitCostCents,
      recordedByName: profiles.fullName,
      recordedAt: workOrderPartsUsed.recordedAt,
    })
    .from(workOrderPartsUsed)
    .leftJoin(profiles, eq(profiles.id, workOrderPartsUsed.recordedBy))
    .where(and(eq(workOrderPartsUsed.companyId, companyId), eq(workOrderPartsUsed.workOrderId, workOrderId)))
    .orderBy(asc(workOrderPartsUsed.recordedAt), asc(workOrderPartsUsed.id))
    .limit(PARTS_USED_LIMIT)
}

/** Everything the work order's page shows; null for another company's work order or a made-up id. */
export async function getWorkOrder(companyId: string, workOrderId: string, executor: Database | Tx = db()) {
  const header = await headerOf(executor, companyId, workOrderId)
  if (!header) return null
  // One after the other: inside a transaction the statements share one connection.
  const lines = await approvedLines(executor, companyId, header.versionId, header.chosenLineIds ?? [])
  const visits = await visitsOf(executor, companyId, header.id)
  const partsUsed = await partsUsedOf(executor, companyId, header.id)
  return {
    ...header,
    numberLabel: workOrderNumberLabel(header.number),
    quoteLabel: quoteNumberLabel(header.quoteNumber),
    lines,
    parts: lines.filter((line) => line.part),
    visits,
    partsUsed,
    allVisitsDone: visits.length > 0 && visits.every((v) => v.state === 'completed' || v.state === 'canceled'),
  }
}

export type WorkOrderDetail = NonNullable<Awaited<ReturnType<typeof getWorkOrder>>>

/** The work order a visit belongs to (the visit page's "Work order WO-0007" section), with its parts. */
export async function workOrderOfVisit(companyId: string, visitId: string) {
  if (!isUuid(visitId)) return null
  const [link] = await db()
    .select({ workOrderId: workOrderVisits.workOrderId })
    .from(workOrderVisits)
    .where(and(eq(workOrderVisits.companyId, companyId), eq(workOrderVisits.visitId, visitId)))
  if (!link) return null
  const header = await headerOf(db(), companyId, link.workOrderId)
  if (!header) return null
  const [lines, partsUsed] = await Promise.all([
    approvedLines(db(), companyId, header.versionId, header.chosenLineIds ?? []),
    partsUsedOf(db(), companyId, header.id),
  ])
  return {
    id: header.id,
    numberLabel: workOrderNumberLabel(header.number),
    state: header.state,
    notes: header.notes,
    parts: lines.filter((line) => line.part),
    partsUsed,
  }
}

/** Whether the company has this work order: another company's (or a made-up id) is answered as missing first. */
export async function workOrderExists(companyId: string, workOrderId: string) {
  if (!isUuid(workOrderId)) return false
  const [row] = await db()
    .select({ id: workOrders.id })
    .from(workOrders)
    .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, workOrderId)))
  return Boolean(row)
}

/** The stock items a technician may record (the visit page's picker): the company's, by name. */
export async function stockChoices(companyId: string) {
  return db()
    .select({ id: inventoryItems.id, name: inventoryItems.name, qty: inventoryItems.qty })
    .from(inventoryItems)
    .where(eq(inventoryItems.companyId, companyId))
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(200)
}
