// Service plans (docs/product.md "Schedule", decision 018): "Add service plan", and the one way a plan changes — a
// change computed by `~/schedule/plan-changes` written with its visits (untouched ones replaced, touched ones kept),
// then generation run for the plans — used by "Ends on" here, by the plan edits and by a visit's "This and
// following visits".
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm'
import { companies, customers, planRateChanges, serviceLocations, servicePlans, visits } from '~/db/schema'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { endPlan, type PlanChange } from '~/schedule/plan-changes'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { customerOfLocation } from './joins.server'
import { isCompanyTechnician } from './profile.server'
import { type ServicePlanInput, ServicePlanSchema } from './service-plan-schemas'
import { asSchedule, generateVisits, type StoredPlan } from './visit-generation.server'

export const PLAN_NOT_FOUND = 'Service plan not found.'

/** "Add service plan" on a location: the plan, then its visits for the next 8 weeks. */
export async function createServicePlan(
  { companyId, locationId, now = new Date() }: { companyId: string; locationId: string; now?: Date },
  input: ServicePlanInput,
): Promise<Result<{ planId: string; visits: number }>> {
  const parsed = ServicePlanSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the plan.')
  const plan = parsed.data
  if (!isUuid(locationId)) return failure('not-found', 'Service location not found.')
  if (plan.technicianId && !(await isCompanyTechnician(companyId, plan.technicianId))) {
    return failure('invalid', 'Choose one of your technicians.')
  }
  const [location] = await db()
    .select({ id: serviceLocations.id })
    .from(serviceLocations)
    .innerJoin(customers, customerOfLocation)
    .where(
      and(
        eq(serviceLocations.companyId, companyId),
        eq(serviceLocations.id, locationId),
        isNull(serviceLocations.archivedAt),
        eq(customers.status, 'active'),
      ),
    )
    .limit(1)
  if (!location) return failure('not-found', 'Service location not found.')
  const [row] = await db()
    .insert(servicePlans)
    .values({
      companyId,
      locationId,
      frequencyWeeks: plan.frequencyWeeks,
      weekday: plan.weekday,
      technicianId: plan.technicianId,
      startsOn: plan.startsOn,
      endsOn: plan.endsOn ?? null,
      serviceWindow: plan.serviceWindow,
      rateCents: plan.rate,
      rateType: plan.rateType,
    })
    .returning({ id: servicePlans.id })
  if (!row) return failure('failed', 'The plan could not be saved.')
  const { created } = await generateVisits({ now, companyId, planIds: [row.id] })
  return success({ planId: row.id, visits: created })
}

/** A plan of the company, locked for the rest of the transaction. */
export async function lockPlan(executor: Database, companyId: string, planId: string) {
  if (!isUuid(planId)) return null
  const [row] = await executor
    .select()
    .from(servicePlans)
    .where(and(eq(servicePlans.companyId, companyId), eq(servicePlans.id, planId)))
    .for('update')
  return row ? asSchedule(row) : null
}

/** A plan's visits from `from` on, with what makes one "touched" (moved, skipped, completed, or worked on). */
async function planVisitsFrom(executor: Database, companyId: string, planId: string, from: LocalDate) {
  return executor
    .select({
      id: visits.id,
      occurrenceDate: visits.occurrenceDate,
      movedAt: visits.movedAt,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      // Table names written out: in a one-table select drizzle leaves columns unqualified, and inside the
      // subquery "company_id" and "id" would name the subquery's own columns (the check was then always false).
      hasPhotos: sql<boolean>`exists (select 1 from "visit_photos" where "visit_photos"."company_id" = "visits"."company_id" and "visit_photos"."visit_id" = "visits"."id")`,
      hasReadings: sql<boolean>`exists (select 1 from "chem_logs" where "chem_logs"."company_id" = "visits"."company_id" and "chem_logs"."visit_id" = "visits"."id")`,
    })
    .from(visits)
    .where(and(eq(visits.companyId, companyId), eq(visits.planId, planId), gte(visits.occurrenceDate, from)))
    .for('update')
    .then((rows) => rows.map((row) => ({ ...row, occurrenceDate: row.occurrenceDate as LocalDate })))
}

type PlanVisit = Awaited<ReturnType<typeof planVisitsFrom>>[number]

/** Untouched: as generation made it. Anything else is history or someone's decision, and a plan change keeps it. */
export function isUntouchedVisit(
  visit: Pick<PlanVisit, 'movedAt' | 'completedAt' | 'canceledAt' | 'hasPhotos' | 'hasReadings'>,
) {
  return !visit.movedAt && !visit.completedAt && !visit.canceledAt && !visit.hasPhotos && !visit.hasReadings
}

/**
 * Writes a plan change (from `~/schedule/plan-changes`) in the caller's transaction: the plan rows, untouched visits
 * the change replaces deleted, touched visits re-homed; then generation runs
 * for the plans. Returns the ids of the plans that now hold the schedule.
 */
export async function applyPlanChange(
  tx: Database,
  companyId: string,
  change: PlanChange<StoredPlan, PlanVisit>,
  now: Date,
) {
  const { id, createdAt: _createdAt, ...current } = change.current
  await tx
    .update(servicePlans)
    .set(current)
    .where(and(eq(servicePlans.companyId, companyId), eq(servicePlans.id, id)))
  let nextId: string | null = null
  if (change.next) {
    const { id: _id, createdAt: _created, ...next } = change.next
    const [row] = await tx.insert(servicePlans).values(next).returning({ id: servicePlans.id })
    nextId = row?.id ?? null
    // The plan's rate history goes with its rate: a price change scheduled for a later month still bills the old
    // rate until then on the new row (plan-rate.server.ts). A rate typed in this change starts afresh.
    if (nextId && next.rateCents === current.rateCents) {
      await tx.execute(sql`insert into ${planRateChanges}
          (company_id, plan_id, price_change_id, effective_on, from_rate_cents, to_rate_cents, created_at)
        select company_id, ${nextId}::uuid, price_change_id, effective_on, from_rate_cents, to_rate_cents, created_at
        from ${planRateChanges} where company_id = ${companyId} and plan_id = ${id}`)
    }
  }
  if (change.remove.length > 0) {
    await tx.delete(visits).where(
      and(
        eq(visits.companyId, companyId),
        inArray(
          visits.id,
          change.remove.map((visit) => visit.id),
        ),
      ),
    )
  }
  for (const { visit, plan, occurrenceDate } of change.rehome) {
    const planId = plan === 'current' ? id : nextId
    if (!planId) continue
    await tx
      .update(visits)
      .set({ planId, occurrenceDate })
      .where(and(eq(visits.companyId, companyId), eq(visits.id, visit.id)))
  }
  const planIds = nextId ? [id, nextId] : [id]
  await generateVisits({ now, companyId, planIds, executor: tx })
  return planIds
}

/** Loads a plan and its visits from `from`, locked, for a change computed by `~/schedule/plan-changes`. */
export async function loadPlanForChange(tx: Database, companyId: string, planId: string, from: LocalDate) {
  const plan = await lockPlan(tx, companyId, planId)
  if (!plan) return null
  const visits = await planVisitsFrom(tx, companyId, planId, from)
  return { plan, visits }
}

/** The company's today, for plan changes ("Choose today or a later date"). */
export async function companyToday(companyId: string, now = new Date(), executor: Database = db()) {
  const [row] = await executor
    .select({ timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, companyId))
  return row ? { today: localDateAt(now, row.timezone), timezone: row.timezone } : null
}

/** "Ends on" for a plan: untouched visits after the end go; moved, skipped or completed ones stay. */
export async function endServicePlan({
  companyId,
  planId,
  endsOn,
  now = new Date(),
}: {
  companyId: string
  planId: string
  endsOn: LocalDate
  now?: Date
}): Promise<Result> {
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', PLAN_NOT_FOUND)
  return db().transaction(async (tx) => {
    const loaded = await loadPlanForChange(tx, companyId, planId, clock.today)
    if (!loaded) return failure('not-found', PLAN_NOT_FOUND)
    const outcome = endPlan(loaded.plan, endsOn, {
      today: clock.today,
      visits: loaded.visits,
      isUntouched: isUntouchedVisit,
    })
    if (!outcome.ok) return outcome
    await applyPlanChange(tx, companyId, outcome.change, now)
    await publishCompanyEvent({ companyId, type: 'visit.updated' }, tx)
    return success({})
  })
}
