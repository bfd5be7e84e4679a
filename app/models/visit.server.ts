// What the office does to a visit (docs/product.md "Schedule"): "Move visit" (this visit only, or this and following)
// and "Cancel visit"; and the skip itself (markSkipped), which "Skip visit" — the office's or the technician's, from the
// phone or a plain form — applies through app/models/visit-work.server.ts. Every function takes the company it works
// in; a visit of another company is "not found". The week board is app/models/week-board.server.ts; a technician's day as a route is
// app/models/day-stops.server.ts and app/models/day-route.server.ts.
import { and, eq, gte, inArray, isNull, lt, ne } from 'drizzle-orm'
import { visits } from '~/db/schema'
import { enqueue } from '~/outbox/enqueue.server'
import { addDays, instantAt, minDate } from '~/schedule/local-date'
import { moveFollowingVisits } from '~/schedule/plan-changes'
import { zonedParts } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { queueVisitNotice } from './notice.server'
import { isCompanyTechnician } from './profile.server'
import { applyPlanChange, companyToday, isUntouchedVisit, loadPlanForChange } from './service-plan.server'
import { type MoveVisitInput, MoveVisitSchema } from './service-plan-schemas'

export const VISIT_NOT_FOUND = 'Visit not found.'
const NOT_OPEN = 'This visit is already completed, skipped or canceled.'

/** An open visit of the company, locked for the rest of the transaction. */
async function lockOpenVisit(tx: Database, companyId: string, visitId: string) {
  if (!isUuid(visitId)) return failure('not-found', VISIT_NOT_FOUND)
  const [visit] = await tx
    .select({
      id: visits.id,
      scheduledAt: visits.scheduledAt,
      appointmentAt: visits.appointmentAt,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      technicianId: visits.technicianId,
      planId: visits.planId,
      occurrenceDate: visits.occurrenceDate,
    })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    .for('update')
  if (!visit) return failure('not-found', VISIT_NOT_FOUND)
  if (visit.completedAt || visit.canceledAt) return failure('conflict', NOT_OPEN)
  return success({ visit })
}

/**
 * "Move visit": to another date, time and/or technician. "This visit only" moves this one (it keeps its occurrence
 * date, so generation never adds it again); "This and following visits" ends the plan the day before and starts a
 * new one from the new date (docs/product.md "Schedule"), and a time typed applies to the moved visit. Without a time
 * the visit keeps its time of day in the company's zone. A visit with a fixed appointment keeps it, at the new date and
 * time (the route's ETAs follow: docs/routing.md).
 */
export async function moveVisit({
  companyId,
  visitId,
  input,
  now = new Date(),
}: {
  companyId: string
  visitId: string
  input: MoveVisitInput
  now?: Date
}): Promise<Result<{ visitId: string }>> {
  const parsed = MoveVisitSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the move.')
  const move = parsed.data
  if (move.technicianId && !(await isCompanyTechnician(companyId, move.technicianId))) {
    return failure('invalid', 'Choose one of your technicians.')
  }
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', VISIT_NOT_FOUND)
  if (move.date < clock.today) return failure('invalid', 'Choose today or a later date.')
  return db().transaction(async (tx) => {
    const locked = await lockOpenVisit(tx, companyId, visitId)
    if (!locked.ok) return locked
    const { visit } = locked
    if (move.scope === 'following') {
      if (!visit.planId || !visit.occurrenceDate) {
        return failure('invalid', 'This is a one-off visit: it has no following visits. Choose "This visit only".')
      }
      const loaded = await loadPlanForChange(tx, companyId, visit.planId, minDate(visit.occurrenceDate, move.date))
      if (!loaded) return failure('not-found', VISIT_NOT_FOUND)
      // The visit being moved is replaced by the new plan's first visit, even when it had been moved before.
      const outcome = moveFollowingVisits(
        loaded.plan,
        { occurrenceDate: visit.occurrenceDate, to: move.date, changes: { technicianId: move.technicianId } },
        {
          today: clock.today,
          visits: loaded.visits,
          isUntouched: (other) => (other.id === visit.id && !other.hasReadings) || isUntouchedVisit(other),
        },
      )
      if (!outcome.ok) return outcome
      const planIds = await applyPlanChange(tx, companyId, outcome.change, now)
      const [moved] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(eq(visits.companyId, companyId), inArray(visits.planId, planIds), eq(visits.occurrenceDate, move.date)),
        )
        .limit(1)
      if (moved && move.time) {
        const at = instantAt(move.date, move.time, clock.timezone)
        await tx
          .update(visits)
          .set({ scheduledAt: at, movedAt: now, routePosition: null })
          .where(and(eq(visits.companyId, companyId), eq(visits.id, moved.id)))
      }
      await publishCompanyEvent({ companyId, type: 'visit.updated' }, tx)
      return success({ visitId: moved?.id ?? visit.id })
    }
    if (visit.planId) {
      // Two visits of one plan on one day is a mistake, not a schedule.
      const [taken] = await tx
        .select({ id: visits.id })
        .from(visits)
        .where(
          and(
            eq(visits.companyId, companyId),
            eq(visits.planId, visit.planId),
            ne(visits.id, visit.id),
            isNull(visits.canceledAt),
            gte(visits.scheduledAt, instantAt(move.date, '00:00', clock.timezone)),
            lt(visits.scheduledAt, instantAt(addDays(move.date, 1), '00:00', clock.timezone)),
          ),
        )
        .limit(1)
      if (taken) return failure('conflict', `This plan already has a visit on ${move.date}.`)
    }
    const scheduledAt = instantAt(move.date, move.time ?? wallTimeOf(visit.scheduledAt, clock.timezone), clock.timezone)
    await tx
      .update(visits)
      .set({
        scheduledAt,
        appointmentAt: visit.appointmentAt ? scheduledAt : null,
        technicianId: move.technicianId,
        movedAt: now,
        routePosition: null,
      })
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visit.id)))
    await publishCompanyEvent({ companyId, type: 'visit.updated', visitId: visit.id }, tx)
    return success({ visitId: visit.id })
  })
}

/** An instant's wall-clock time in `timezone`, "HH:MM" (what a time input shows and posts). */
export function wallTimeOf(instant: Date, timezone: string) {
  const local = zonedParts(instant, timezone)
  return `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`
}

/**
 * Skips an open visit (locked by the caller) with its reason and tells the customer ("Visit skipped",
 * docs/product.md "Notices"), in the caller's transaction (applyFieldChange's, for the office's skip and the
 * technician's alike).
 */
export async function markSkipped(
  tx: Database,
  { companyId, visitId, reason, now }: { companyId: string; visitId: string; reason: string; now: Date },
) {
  await tx
    .update(visits)
    .set({ canceledAt: now, skipReason: reason })
    .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
  await queueVisitNotice(tx, {
    companyId,
    visitId,
    event: 'visit-skipped',
    values: { reason: skipReasonForCustomer(reason) },
  })
  await publishCompanyEvent({ companyId, type: 'visit.updated', visitId }, tx)
  await enqueue(tx, { kind: 'webhook', companyId, type: 'visit.skipped', data: { visitId: visitId, reason } })
}

/** "Other: the pump was off" reads "the pump was off" to the customer. */
function skipReasonForCustomer(reason: string) {
  return reason.replace(/^Other: /, '')
}

/** "Cancel visit": an open visit nobody will do. It stays in history as "Canceled". */
export async function cancelVisit({
  companyId,
  visitId,
  now = new Date(),
}: {
  companyId: string
  visitId: string
  now?: Date
}): Promise<Result> {
  return db().transaction(async (tx) => {
    const locked = await lockOpenVisit(tx, companyId, visitId)
    if (!locked.ok) return locked
    await tx
      .update(visits)
      .set({ canceledAt: now })
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visitId)))
    await publishCompanyEvent({ companyId, type: 'visit.updated', visitId }, tx)
    return success({})
  })
}
