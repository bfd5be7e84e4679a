// What the office and the field do to one visit (docs/product.md "The visit", "Schedule"): create it, assign and
// reschedule it (with the version two editors compare), complete it (its report and notice queued in the same
// transaction) and reopen it. Each change publishes its live event.
import { and, eq, sql } from 'drizzle-orm'
import { customers, visits } from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { queueVisitNotice } from './notice.server'
import { isCompanyTechnician } from './profile.server'
import { locationForNewVisit } from './service-location.server'
import { queueServiceReport } from './service-report.server'
import { ASSIGN_MESSAGES } from './visit-assignment'
import { isOpen } from './visit-record.server'

export const COMPLETE_MESSAGES = {
  notFound: 'Visit not found.',
  completed: 'This visit was already completed.',
  closed: 'This visit was skipped or canceled: it can no longer be completed.',
} as const

/**
 * Marks an open visit complete now and, in the same transaction, queues the customer's service report: the visit is
 * never complete without its report queued, nor the report sent for a visit that is not. A visit already complete, or
 * skipped or canceled, is a conflict (nothing changes, nothing is sent); one the company does not have, not found.
 */
export async function completeVisit(
  {
    companyId,
    visitId,
    completedBy = null,
    now = new Date(),
  }: {
    companyId: string
    visitId: string
    /** Who marked it complete (null: not known, as for visits completed before this was kept). */
    completedBy?: string | null
    now?: Date
  },
  // Inside a caller's transaction (the field app's change) this one becomes a savepoint.
  executor: Database = db(),
): Promise<Result> {
  if (!isUuid(visitId)) return failure('not-found', COMPLETE_MESSAGES.notFound)
  return executor.transaction(async (tx) => {
    const updated = await tx
      .update(visits)
      .set({ completedAt: now, completedBy })
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId), isOpen()))
      .returning({ id: visits.id })
    if (updated.length === 0) {
      const [visit] = await tx
        .select({ completedAt: visits.completedAt })
        .from(visits)
        .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
      if (!visit) return failure('not-found', COMPLETE_MESSAGES.notFound)
      return failure('conflict', visit.completedAt ? COMPLETE_MESSAGES.completed : COMPLETE_MESSAGES.closed)
    }
    await queueServiceReport({ companyId, visitId }, tx)
    // The report is the email; a company that texts "Visit completed" texts it too (docs/product.md "Notices").
    await queueVisitNotice(tx, {
      companyId,
      visitId,
      event: 'visit-completed',
      channels: ['text'],
    })
    await publishCompanyEvent({ companyId, type: 'visit.completed', visitId }, tx)
    await enqueue(tx, { kind: 'webhook', companyId, type: 'visit.completed', data: { visitId: visitId } })
    return success({})
  })
}

/**
 * "Reopen visit" (office, docs/product.md "The visit"): a completed or skipped visit becomes open work again, so the
 * technician can finish it. Its readings, ticks and photos stay. A report already sent is not sent again when it is
 * completed a second time (service_reports keeps the first).
 */
export async function reopenVisit({ companyId, visitId }: { companyId: string; visitId: string }): Promise<Result> {
  if (!isUuid(visitId)) return failure('not-found', 'Visit not found.')
  return db().transaction(async (tx) => {
    const [visit] = await tx
      .select({
        completedAt: visits.completedAt,
        skipReason: visits.skipReason,
        reopenedCompletionAt: visits.reopenedCompletionAt,
      })
      .from(visits)
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
      .for('update')
    if (!visit) return failure('not-found', 'Visit not found.')
    if (!visit.completedAt && !visit.skipReason)
      return failure('conflict', 'Only a completed or skipped visit can be reopened.')
    await tx
      .update(visits)
      .set({
        completedAt: null,
        completedBy: null,
        canceledAt: null,
        skipReason: null,
        // The completion an invoice may have counted, kept so completing it again does not bill it twice (decision
        // 042).
        ...(visit.completedAt && !visit.reopenedCompletionAt
          ? { reopenedCompletionAt: visit.completedAt, reopenedAt: sql`now()` }
          : {}),
      })
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    await publishCompanyEvent({ companyId, type: 'visit.updated', visitId }, tx)
    return success({})
  })
}

/**
 * What a form saw of a visit's assignment. Sent back with the save, it lets two people editing the
 * same visit at once end with one consistent result: the second save finds it changed and is told.
 */
export function assignmentVersion(visit: { technicianId: string | null; scheduledAt: Date }) {
  return `${visit.technicianId ?? ''}@${visit.scheduledAt.toISOString()}`
}

function parseAssignmentVersion(version: string) {
  const at = version.lastIndexOf('@')
  const scheduledAt = new Date(version.slice(at + 1))
  if (at < 0 || Number.isNaN(scheduledAt.getTime())) return null
  return { technicianId: version.slice(0, at) || null, scheduledAt }
}

/**
 * Assigns and reschedules an open visit of the company. With `expectedVersion` (from
 * `assignmentVersion`), the update only applies if nobody changed the visit since: PostgreSQL
 * re-checks the condition after waiting for a concurrent update, so of two simultaneous saves one
 * wins and the other gets a conflict. A visit that is not an open one of the company, or a technician of another
 * company, is refused as invalid.
 */
export async function assignVisit({
  companyId,
  visitId,
  technicianId,
  scheduledAt,
  expectedVersion,
}: {
  companyId: string
  visitId: string
  technicianId: string | null
  scheduledAt: Date
  expectedVersion?: string
}): Promise<Result> {
  const refused = failure('invalid', ASSIGN_MESSAGES.refused)
  const conflict = failure('conflict', ASSIGN_MESSAGES.conflict)
  if (!isUuid(visitId)) return refused
  if (technicianId && !(await isCompanyTechnician(companyId, technicianId))) return refused
  const conditions = [eq(visits.companyId, companyId), eq(visits.id, visitId), isOpen()]
  if (expectedVersion !== undefined) {
    const expected = parseAssignmentVersion(expectedVersion)
    if (!expected) return conflict
    conditions.push(
      sql`${visits.technicianId} is not distinct from ${expected.technicianId}`,
      eq(visits.scheduledAt, expected.scheduledAt),
    )
  }
  const updated = await db()
    .update(visits)
    .set({ technicianId, scheduledAt })
    .where(and(...conditions))
    .returning({ id: visits.id })
  if (updated.length) {
    await publishCompanyEvent({ companyId, type: 'visit.updated', visitId })
    return success({})
  }
  if (expectedVersion === undefined) return refused
  // Nothing matched: either the visit changed meanwhile (tell them) or it is not an open visit here.
  const [stillOpen] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId), isOpen()))
  return stillOpen ? conflict : refused
}

/**
 * Creates a visit at one of the company's active customers' locations (and optionally for one of its technicians).
 * Without `locationId` the visit goes to the customer's first location (today's form chooses only the customer).
 * The name and address are the visit's snapshot: the customer's name and the location's address unless the form
 * gave its own. Null when the customer, location or technician is not the company's, or the customer is archived.
 */
export async function createVisit(
  input: {
    companyId: string
    customerId: string
    locationId?: string | null
    customerName?: string
    address?: string
    scheduledAt: Date
    technicianId: string | null
    /** A fixed appointment at `scheduledAt` (the route keeps it: docs/routing.md). */
    appointment?: boolean
  },
  executor: Database = db(),
) {
  const { companyId, customerId, scheduledAt, technicianId } = input
  if (!isUuid(customerId)) return null
  if (technicianId && !(await isCompanyTechnician(companyId, technicianId, executor))) return null
  // The composite foreign keys also refuse another company's customer or location; checking first gives a null.
  const [customer] = await executor
    .select({ name: customers.customerName })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId), eq(customers.status, 'active')))
    .limit(1)
  if (!customer) return null
  const location = await locationForNewVisit(executor, { companyId, customerId, locationId: input.locationId })
  if (!location) return null
  const [row] = await executor
    .insert(visits)
    .values({
      companyId,
      customerId,
      locationId: location.id,
      customerName: input.customerName?.trim() || customer.name,
      address: input.address?.trim() || location.address,
      scheduledAt,
      appointmentAt: input.appointment ? scheduledAt : null,
      technicianId,
    })
    .returning({ id: visits.id })
  if (row) await publishCompanyEvent({ companyId, type: 'visit.created', visitId: row.id }, executor)
  if (row)
    await enqueue(executor, {
      kind: 'webhook',
      companyId,
      type: 'visit.scheduled',
      data: { visitId: row.id, customerId },
    })
  return row ?? null
}
