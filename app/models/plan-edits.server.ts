// "Edit plan", "Pause plan" and "Resume now" (docs/decisions/048-plan-edits-pauses-and-one-board.md): a plan change
// from a date that first counts what it does to the plan's visits and asks before removing any, and a new rate kept
// in the plan's rate history from its date (decision 024).
import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm'
import { companies, planRateChanges, priceChanges, servicePlans, visits } from '~/db/schema'
import { type LocalDate, maxDate, minDate } from '~/schedule/local-date'
import { changePlanFrom, pausePlan } from '~/schedule/plan-changes'
import type { FrequencyWeeks, PlanSchedule } from '~/schedule/recurrence'
import { type Database, db } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { failure, type Result, success } from '~/utils/result'
import { isCompanyTechnician } from './profile.server'
import {
  applyPlanChange,
  companyToday,
  isUntouchedVisit,
  loadPlanForChange,
  lockPlan,
  PLAN_NOT_FOUND,
} from './service-plan.server'
import { type EditPlanInput, EditPlanSchema, type PausePlanInput, PausePlanSchema } from './service-plan-schemas'
import { generateVisits } from './visit-generation.server'

/** What a plan change did (or, not yet confirmed, would do) to the plan's visits from its date on. */
export type PlanChangeCount = { removed: number; added: number }

export type PlanEditOutcome = PlanChangeCount & {
  /** False: nothing was written, because the change removes visits and was not confirmed (`confirmed: 'yes'`). */
  applied: boolean
}

/** Thrown to roll back a change that was only counted. */
class CountedOnly extends Error {
  constructor(readonly count: PlanChangeCount) {
    super('counted only')
  }
}

/**
 * Runs `change` in a transaction and counts its effect on the visits of the plan's line from `from` on: visits on
 * dates that no longer have one are removed, visits on dates that had none are added (a visit regenerated on its
 * own date for a new technician or window is neither). Unconfirmed, a change that removes visits is rolled back
 * and only counted, so the page can ask first ("12 future visits will be removed").
 */
async function countedChange(
  { companyId, planId, from, confirmed }: { companyId: string; planId: string; from: LocalDate; confirmed: boolean },
  change: (tx: Database) => Promise<Result<{ planIds: string[] }>>,
): Promise<Result<PlanEditOutcome>> {
  try {
    return await db().transaction(async (tx) => {
      const before = await openDatesFrom(tx, companyId, [planId], from)
      const outcome = await change(tx)
      if (!outcome.ok) return outcome
      const after = await openDatesFrom(tx, companyId, outcome.planIds, from)
      const count = {
        removed: [...before].filter((date) => !after.has(date)).length,
        added: [...after].filter((date) => !before.has(date)).length,
      }
      if (count.removed > 0 && !confirmed) throw new CountedOnly(count)
      await publishCompanyEvent({ companyId, type: 'visit.updated' }, tx)
      return success({ ...count, applied: true })
    })
  } catch (error) {
    if (error instanceof CountedOnly) return success({ ...error.count, applied: false })
    throw error
  }
}

/** The dates from `from` on that the plans have an open visit for (one query). */
async function openDatesFrom(tx: Database, companyId: string, planIds: readonly string[], from: LocalDate) {
  const rows = await tx
    .select({ date: sql<string>`to_char(${visits.scheduledAt} at time zone ${companies.timezone}, 'YYYY-MM-DD')` })
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .where(
      and(
        eq(visits.companyId, companyId),
        inArray(visits.planId, [...planIds]),
        gte(visits.occurrenceDate, from),
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
      ),
    )
  return new Set(rows.map((row) => row.date))
}

/** The plan's latest rate change, for "Edit plan"'s rate (changes of a plan go in date order, decision 024). */
async function latestRateChange(tx: Database, companyId: string, planId: string) {
  const [row] = await tx
    .select({ effectiveOn: planRateChanges.effectiveOn })
    .from(planRateChanges)
    .where(and(eq(planRateChanges.companyId, companyId), eq(planRateChanges.planId, planId)))
    .orderBy(sql`${planRateChanges.effectiveOn} desc`)
    .limit(1)
  return row?.effectiveOn ?? null
}

/**
 * "Edit plan": frequency, day, technician, window and rate from `from` on (docs/decisions/048-…). The schedule part
 * is a plan change from the date (`changePlanFrom`: untouched visits from then on follow, moved, skipped and
 * completed ones stay); a new rate goes into the plan's rate history from that date (decision 024), so billing
 * bills the months before it at the old rate and the months from it at the new one. Saving the plan as it is
 * changes nothing.
 */
export async function editServicePlan({
  companyId,
  planId,
  input,
  userId = null,
  now = new Date(),
}: {
  companyId: string
  planId: string
  input: EditPlanInput
  userId?: string | null
  now?: Date
}): Promise<Result<PlanEditOutcome>> {
  const parsed = EditPlanSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the plan.')
  const edit = parsed.data
  if (edit.technicianId && !(await isCompanyTechnician(companyId, edit.technicianId))) {
    return failure('invalid', 'Choose one of your technicians.')
  }
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', PLAN_NOT_FOUND)
  if (edit.from < clock.today) return failure('invalid', 'Choose today or a later date.')
  const scope = { companyId, planId, from: edit.from, confirmed: edit.confirmed === 'yes' }
  return countedChange(scope, async (tx) => {
    const loaded = await loadPlanForChange(tx, companyId, planId, clock.today)
    if (!loaded) return failure('not-found', PLAN_NOT_FOUND)
    const { plan } = loaded
    const changes = {
      frequencyWeeks: edit.frequencyWeeks as FrequencyWeeks,
      weekday: edit.weekday as PlanSchedule['weekday'],
      technicianId: edit.technicianId,
      serviceWindow: edit.serviceWindow,
    }
    const sameSchedule = (Object.keys(changes) as (keyof typeof changes)[]).every((key) => plan[key] === changes[key])
    const newRate = edit.rate !== plan.rateCents
    if (newRate) {
      const latest = await latestRateChange(tx, companyId, planId)
      if (latest !== null && latest > edit.from) {
        return failure('invalid', `This plan already has a price change from ${latest}: choose that date or later.`)
      }
    }
    let planIds = [planId]
    if (!sameSchedule) {
      const outcome = changePlanFrom(plan, edit.from, changes, {
        today: clock.today,
        visits: loaded.visits,
        isUntouched: isUntouchedVisit,
      })
      if (!outcome.ok) return outcome
      planIds = await applyPlanChange(tx, companyId, outcome.change, now)
    }
    if (newRate) {
      await recordRateChange(tx, {
        companyId,
        planId: planIds[planIds.length - 1] as string,
        effectiveOn: edit.from,
        fromRateCents: plan.rateCents,
        toRateCents: edit.rate,
        userId,
      })
    }
    return success({ planIds })
  })
}

/**
 * A plan's rate from `effectiveOn` on, through the rate history (decision 024): a one-plan price change of the
 * difference (shown under "Change prices" like any other), its history row, and the plan's newest rate.
 */
async function recordRateChange(
  tx: Database,
  change: {
    companyId: string
    planId: string
    effectiveOn: LocalDate
    fromRateCents: number
    toRateCents: number
    userId: string | null
  },
) {
  const { companyId, planId, effectiveOn, fromRateCents, toRateCents } = change
  const [row] = await tx
    .insert(priceChanges)
    .values({
      companyId,
      effectiveOn,
      kind: 'amount',
      amount: toRateCents - fromRateCents,
      planCount: 1,
      createdBy: change.userId,
    })
    .returning({ id: priceChanges.id })
  if (!row) throw new Error('The price change could not be saved.')
  await tx
    .insert(planRateChanges)
    .values({ companyId, planId, priceChangeId: row.id, effectiveOn, fromRateCents, toRateCents })
  await tx
    .update(servicePlans)
    .set({ rateCents: toRateCents })
    .where(and(eq(servicePlans.companyId, companyId), eq(servicePlans.id, planId)))
}

/**
 * "Pause plan": no visits from `from` until `resumeOn` (`pausePlan`); untouched visits in between go, and the plan
 * that resumes is marked paused ("Paused until …") until then or until "Resume now".
 */
export async function pauseServicePlan({
  companyId,
  planId,
  input,
  now = new Date(),
}: {
  companyId: string
  planId: string
  input: PausePlanInput
  now?: Date
}): Promise<Result<PlanEditOutcome>> {
  const parsed = PausePlanSchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the pause.')
  const pause = parsed.data
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', PLAN_NOT_FOUND)
  const scope = { companyId, planId, from: pause.from, confirmed: pause.confirmed === 'yes' }
  return countedChange(scope, async (tx) => {
    const loaded = await loadPlanForChange(tx, companyId, planId, clock.today)
    if (!loaded) return failure('not-found', PLAN_NOT_FOUND)
    const outcome = pausePlan(
      loaded.plan,
      { from: pause.from, resumeOn: pause.resumeOn },
      { today: clock.today, visits: loaded.visits, isUntouched: isUntouchedVisit },
    )
    if (!outcome.ok) return outcome
    const { change } = outcome
    if (change.next) change.next.pausedFrom = pause.from
    else if (change.current.startsOn >= pause.resumeOn) change.current.pausedFrom = pause.from
    else return failure('invalid', `The plan ends before ${pause.resumeOn}: end it instead.`)
    return success({ planIds: await applyPlanChange(tx, companyId, change, now) })
  })
}

/**
 * "Resume now": a paused plan runs again from today — or from the pause's first day, when the pause is still ahead
 * (the plan before it runs until then) — its first visit the next of its day; visits generated.
 */
export async function resumeServicePlan({
  companyId,
  planId,
  now = new Date(),
}: {
  companyId: string
  planId: string
  now?: Date
}): Promise<Result<{ added: number }>> {
  const clock = await companyToday(companyId, now)
  if (!clock) return failure('not-found', PLAN_NOT_FOUND)
  return db().transaction(async (tx) => {
    const plan = await lockPlan(tx, companyId, planId)
    if (!plan) return failure('not-found', PLAN_NOT_FOUND)
    if (plan.pausedFrom === null) return failure('conflict', 'This plan is not paused.')
    await tx
      .update(servicePlans)
      .set({ pausedFrom: null, startsOn: minDate(plan.startsOn, maxDate(plan.pausedFrom, clock.today)) })
      .where(and(eq(servicePlans.companyId, companyId), eq(servicePlans.id, planId)))
    const { created } = await generateVisits({ now, companyId, planIds: [planId], executor: tx })
    await publishCompanyEvent({ companyId, type: 'visit.updated' }, tx)
    return success({ added: created })
  })
}
