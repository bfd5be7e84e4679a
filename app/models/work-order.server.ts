// Work orders (issue 33 item 4; docs/work-orders.md, docs/decisions/059-work-orders.md). An approved quote becomes one
// work order — numbered per company ("WO-0001"), made from the version approved — whose visits are ordinary visits
// (made by the one visit-creation path, createVisit) at the customer's first location. A technician records the parts
// fitted on their visit; each takes stock through takeStockForVisit. "Complete work order" once every visit is done.
// What the pages read is in work-order-read.server.ts; the invoice and the deposit in work-order-invoice.server.ts.
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { workOrderNumberLabel } from '~/billing/billing-fields'
import type { WORK_ORDER_STATES, WORK_ORDER_TEMPLATES } from '~/db/schema'
import {
  companies,
  priceBookItems,
  quoteDecisions,
  quotes,
  quoteVersions,
  workOrderPartsUsed,
  workOrders,
  workOrderVisits,
} from '~/db/schema'
import { addDays, type LocalDate } from '~/schedule/local-date'
import { zonedTimeToUtc } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { takeStockForVisit } from './stock-use.server'
import { createVisit } from './visit-changes.server'
import { visitsOf } from './work-order-read.server'

export type WorkOrderTemplate = (typeof WORK_ORDER_TEMPLATES)[number]
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number]

/** A work order without a template has at most this many visits (the form offers 1 to this). */
export const MAX_VISITS = 6
/** The hour of the day each visit is scheduled at, in the company's time zone; dispatch moves them as usual. */
const VISIT_HOUR = 9

/** Each template's visits: the day after the start date and what the visit is for. */
export const TEMPLATE_VISITS: Record<WorkOrderTemplate, { day: number; title: string }[]> = {
  'green-to-clean': [
    { day: 0, title: 'Shock and brush' },
    { day: 1, title: 'Vacuum and clean filter' },
    { day: 3, title: 'Test and balance' },
  ],
  'equipment-install': [{ day: 0, title: 'Install' }],
}

export const TEMPLATE_LABELS: Record<WorkOrderTemplate, string> = {
  'green-to-clean': 'Green-to-clean',
  'equipment-install': 'Equipment install',
}

export const WORK_ORDER_MESSAGES = {
  notFound: 'Work order not found.',
  quoteNotFound: 'Quote not found.',
  notApproved: 'Only an approved quote becomes a work order.',
  noVisit: 'The customer has no active service location, or a technician is not on your team.',
  visitsOpen: 'Every visit must be completed or canceled first.',
  completed: 'This work order is completed: parts can no longer be recorded.',
  notWorkOrderVisit: 'This visit is not part of a work order.',
  quantity: 'Enter a whole quantity of 1 or more.',
} as const

export { workOrderNumberLabel }

/** The visits a new work order gets: a template's, or `visitCount` on consecutive days ("Visit 1", …). */
export function plannedVisits(template: WorkOrderTemplate | null, visitCount: number) {
  if (template) return TEMPLATE_VISITS[template]
  const n = Math.max(1, Math.min(MAX_VISITS, Math.floor(visitCount)))
  return Array.from({ length: n }, (_, i) => ({ day: i, title: n === 1 ? 'Visit' : `Visit ${i + 1}` }))
}

class RolledBack extends Error {
  constructor(readonly result: Result<never>) {
    super('rolled back')
  }
}

export type NewWorkOrder = {
  companyId: string
  quoteId: string
  template: WorkOrderTemplate | null
  /** The first visit's date (the company's local date). */
  startDate: LocalDate
  /** Used without a template: how many visits, one a day from the start date. */
  visitCount: number
  /** The technician of each visit in order (null or missing: unassigned, for dispatch to assign). */
  technicianIds: (string | null)[]
  timezone: string
  createdBy: string | null
}

/**
 * "Create work order" on an approved quote, in one transaction under the quote's row lock: the work order (number per
 * company, the approved version, the quote's note as its notes) and its visits. A second click, or a second tab,
 * finds the work order made and answers it (`created: false`) — the unique (company, quote) key backs this up.
 */
export async function createWorkOrder(
  input: NewWorkOrder,
  database: Database = db(),
): Promise<Result<{ workOrderId: string; created: boolean }>> {
  const { companyId, quoteId } = input
  if (!isUuid(quoteId)) return failure('not-found', WORK_ORDER_MESSAGES.quoteNotFound)
  return database
    .transaction(async (tx) => {
      const [quote] = await tx
        .select({ id: quotes.id, customerId: quotes.customerId, state: quotes.state })
        .from(quotes)
        .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)))
        .for('update')
      if (!quote) return failure('not-found', WORK_ORDER_MESSAGES.quoteNotFound)
      const [existing] = await tx
        .select({ id: workOrders.id })
        .from(workOrders)
        .where(and(eq(workOrders.companyId, companyId), eq(workOrders.quoteId, quoteId)))
      if (existing) return success({ workOrderId: existing.id, created: false })
      const [decision] = await tx
        .select({ versionId: quoteDecisions.versionId, note: quoteVersions.customerNote })
        .from(quoteDecisions)
        .innerJoin(
          quoteVersions,
          and(eq(quoteVersions.companyId, quoteDecisions.companyId), eq(quoteVersions.id, quoteDecisions.versionId)),
        )
        .where(
          and(
            eq(quoteDecisions.companyId, companyId),
            eq(quoteDecisions.quoteId, quoteId),
            eq(quoteDecisions.decision, 'approved'),
          ),
        )
      if (quote.state !== 'approved' || !decision) return failure('conflict', WORK_ORDER_MESSAGES.notApproved)
      // Numbers per company: the company's row is the lock that keeps two new work orders from taking the same one.
      await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update')
      const [last] = await tx
        .select({ number: sql<number>`coalesce(max(${workOrders.number}), 0)::int` })
        .from(workOrders)
        .where(eq(workOrders.companyId, companyId))
      const [order] = await tx
        .insert(workOrders)
        .values({
          companyId,
          customerId: quote.customerId,
          quoteId,
          quoteVersionId: decision.versionId,
          number: (last?.number ?? 0) + 1,
          template: input.template,
          notes: decision.note,
          createdBy: input.createdBy,
        })
        .returning({ id: workOrders.id })
      if (!order) throw new Error('work order insert returned nothing')
      const planned = plannedVisits(input.template, input.visitCount)
      for (const [i, plannedVisit] of planned.entries()) {
        const date = addDays(input.startDate, plannedVisit.day)
        const visit = await createVisit(
          {
            companyId,
            customerId: quote.customerId,
            scheduledAt: zonedTimeToUtc(
              {
                year: Number(date.slice(0, 4)),
                month: Number(date.slice(5, 7)),
                day: Number(date.slice(8, 10)),
                hour: VISIT_HOUR,
              },
              input.timezone,
            ),
            technicianId: input.technicianIds[i] || null,
          },
          tx as unknown as Database,
        )
        if (!visit) throw new RolledBack(failure('invalid', WORK_ORDER_MESSAGES.noVisit))
        await tx
          .insert(workOrderVisits)
          .values({ companyId, workOrderId: order.id, visitId: visit.id, position: i + 1, title: plannedVisit.title })
      }
      return success({ workOrderId: order.id, created: true })
    })
    .catch((error: unknown) => {
      if (error instanceof RolledBack) return error.result
      throw error
    })
}

/** "Complete work order" (asked first on the page): once every visit is completed or canceled. Twice is once. */
export async function completeWorkOrder(
  { companyId, workOrderId, now = new Date() }: { companyId: string; workOrderId: string; now?: Date },
  database: Database = db(),
): Promise<Result> {
  if (!isUuid(workOrderId)) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
  return database.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: workOrders.id, state: workOrders.state })
      .from(workOrders)
      .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, workOrderId)))
      .for('update')
    if (!order) return failure('not-found', WORK_ORDER_MESSAGES.notFound)
    if (order.state === 'completed') return success({})
    const visitList = await visitsOf(tx, companyId, order.id)
    if (!visitList.length || visitList.some((v) => v.state !== 'completed' && v.state !== 'canceled')) {
      return failure('conflict', WORK_ORDER_MESSAGES.visitsOpen)
    }
    await tx
      .update(workOrders)
      .set({ state: 'completed', completedAt: now })
      .where(and(eq(workOrders.companyId, companyId), eq(workOrders.id, order.id)))
    return success({})
  })
}

/**
 * "Record part used" on a work order's visit: the stock item taken (takeStockForVisit, refused below zero) and the
 * part recorded at the price book's price for that item (else the stock item's), in one transaction. Refused on a
 * completed work order. The caller has checked the member may work this visit.
 */
export async function recordPartUsed(
  input: { companyId: string; visitId: string; itemId: string; quantity: number; recordedBy: string | null },
  database: Database = db(),
): Promise<Result<{ description: string }>> {
  const { companyId, visitId, itemId, quantity } = input
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 10_000) {
    return failure('invalid', WORK_ORDER_MESSAGES.quantity, 'quantity')
  }
  if (!isUuid(visitId)) return failure('not-found', WORK_ORDER_MESSAGES.notWorkOrderVisit)
  return database
    .transaction(async (tx) => {
      const [order] = await tx
        .select({ id: workOrders.id, state: workOrders.state })
        .from(workOrderVisits)
        .innerJoin(
          workOrders,
          and(eq(workOrders.companyId, workOrderVisits.companyId), eq(workOrders.id, workOrderVisits.workOrderId)),
        )
        .where(and(eq(workOrderVisits.companyId, companyId), eq(workOrderVisits.visitId, visitId)))
        .for('update', { of: workOrders })
      if (!order) return failure('not-found', WORK_ORDER_MESSAGES.notWorkOrderVisit)
      if (order.state === 'completed') return failure('conflict', WORK_ORDER_MESSAGES.completed)
      const taken = await takeStockForVisit(tx, { companyId, visitId, itemId, quantity })
      if (!taken.ok) throw new RolledBack(taken)
      // The price book's part for this stock item, when there is one, prices it as the quote would have.
      const [book] = await tx
        .select({ priceCents: priceBookItems.priceCents, costCents: priceBookItems.costCents })
        .from(priceBookItems)
        .where(
          and(
            eq(priceBookItems.companyId, companyId),
            eq(priceBookItems.inventoryItemId, itemId),
            eq(priceBookItems.kind, 'part'),
            isNull(priceBookItems.archivedAt),
          ),
        )
        .orderBy(asc(priceBookItems.createdAt))
        .limit(1)
      await tx.insert(workOrderPartsUsed).values({
        companyId,
        workOrderId: order.id,
        visitId,
        inventoryItemId: itemId,
        description: taken.name,
        quantity,
        unitPriceCents: book?.priceCents ?? taken.priceCents,
        unitCostCents: book?.costCents ?? taken.costCents,
        recordedBy: input.recordedBy,
      })
      return success({ description: `${quantity} × ${taken.name}` })
    })
    .catch((error: unknown) => {
      if (error instanceof RolledBack) return error.result
      throw error
    })
}
