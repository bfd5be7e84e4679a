// Service plans and the visits they generate (docs/product.md "Schedule"). Generation keeps every active plan's visits
// 8 weeks ahead of the company's today: at start-up, daily, and right after a plan is added or changed. It is
// idempotent by the database: the unique (company, plan, occurrence date) key and ON CONFLICT DO NOTHING make two runs
// — or two servers at once — create each visit once. A visit that was moved, skipped or completed keeps its occurrence
// date, so it is never generated again.
import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import { companies, customers, jobs, planRateChanges, priceChanges, serviceLocations, servicePlans } from '~/db/schema'
import { instantAt, type LocalDate, localDateAt, maxDate, minDate } from '~/schedule/local-date'
import { changePlanFrom, endPlan, type PlanChange, pausePlan } from '~/schedule/plan-changes'
import { datesToGenerate, type FrequencyWeeks, generationWindow, type PlanSchedule } from '~/schedule/recurrence'
import { SERVICE_WINDOW_HOURS } from '~/schedule/service-window'
import { formatAddress } from '~/utils/address'
import { type Database, db, queryRows } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { isCompanyTechnician } from './profile.server'
import {
  type EditPlanInput,
  EditPlanSchema,
  type PausePlanInput,
  PausePlanSchema,
  type ServicePlanInput,
  ServicePlanSchema,
} from './service-plan-schemas'

export const PLAN_NOT_FOUND = 'Service plan not found.'
const INSERT_BATCH = 1000
const PLAN_BATCH = 500

type PlanRow = typeof servicePlans.$inferSelect
type GeneratedVisit = {
  companyId: string
  customerId: string
  locationId: string
  customerName: string
  address: string
  scheduledAt: Date
  technicianId: string | null
  planId: string
  occurrenceDate: LocalDate
}
type StoredPlan = PlanRow & PlanSchedule

function asSchedule(plan: PlanRow): StoredPlan {
  return {
    ...plan,
    frequencyWeeks: plan.frequencyWeeks as FrequencyWeeks,
    weekday: plan.weekday as PlanSchedule['weekday'],
  }
}

/** The instant a generated visit is scheduled at: its service window's start on its date in the company's zone. */
export function visitInstant(date: LocalDate, serviceWindow: PlanRow['serviceWindow'], timeZone: string) {
  return instantAt(date, SERVICE_WINDOW_HOURS[serviceWindow].start, timeZone)
}

/**
 * Creates the missing visits of every active plan (of one company, or of every company) for the generation window,
 * `planIds` narrowing it to those plans. Returns how many visits this call created.
 */
export async function generateVisits({
  now = new Date(),
  companyId,
  planIds,
  executor = db(),
}: {
  now?: Date
  companyId?: string
  planIds?: readonly string[]
  executor?: Database
} = {}): Promise<{ created: number }> {
  const companyRows = await executor
    .select({ id: companies.id, timezone: companies.timezone })
    .from(companies)
    .where(companyId ? eq(companies.id, companyId) : undefined)
  let created = 0
  for (const company of companyRows) {
    created += await generateForCompany(executor, company, now, planIds)
  }
  return { created }
}

async function generateForCompany(
  executor: Database,
  company: { id: string; timezone: string },
  now: Date,
  planIds: readonly string[] | undefined,
) {
  if (planIds && (planIds.length === 0 || planIds.some((id) => !isUuid(id)))) return 0
  const window = generationWindow(now, company.timezone)
  // Plans that run inside the window, at a location in use of an active customer.
  const plans = await executor
    .select({
      plan: servicePlans,
      customerId: customers.id,
      customerName: customers.customerName,
      street: serviceLocations.street,
      city: serviceLocations.city,
      state: serviceLocations.state,
      postalCode: serviceLocations.postalCode,
    })
    .from(servicePlans)
    .innerJoin(
      serviceLocations,
      and(
        eq(serviceLocations.companyId, servicePlans.companyId),
        eq(serviceLocations.id, servicePlans.locationId),
        isNull(serviceLocations.archivedAt),
      ),
    )
    .innerJoin(
      customers,
      and(
        eq(customers.companyId, serviceLocations.companyId),
        eq(customers.id, serviceLocations.customerId),
        eq(customers.status, 'active'),
      ),
    )
    .where(
      and(
        eq(servicePlans.companyId, company.id),
        planIds ? inArray(servicePlans.id, [...planIds]) : undefined,
        lte(servicePlans.startsOn, window.to),
        or(isNull(servicePlans.endsOn), gte(servicePlans.endsOn, window.from)),
      ),
    )
  let created = 0
  for (let i = 0; i < plans.length; i += PLAN_BATCH) {
    const batch = plans.slice(i, i + PLAN_BATCH)
    const existing = await executor
      .select({ planId: jobs.planId, occurrenceDate: jobs.occurrenceDate })
      .from(jobs)
      .where(
        and(
          eq(jobs.companyId, company.id),
          inArray(
            jobs.planId,
            batch.map((row) => row.plan.id),
          ),
          gte(jobs.occurrenceDate, window.from),
          lte(jobs.occurrenceDate, window.to),
        ),
      )
    const have = new Map<string, LocalDate[]>()
    for (const row of existing) {
      if (row.planId && row.occurrenceDate) have.set(row.planId, [...(have.get(row.planId) ?? []), row.occurrenceDate])
    }
    const rows: GeneratedVisit[] = []
    // Many plans share a date and window: convert each pair to an instant once (Temporal is not free).
    const instants = new Map<string, Date>()
    const instantOf = (date: LocalDate, serviceWindow: PlanRow['serviceWindow']) => {
      const key = `${date} ${serviceWindow}`
      let instant = instants.get(key)
      if (!instant) {
        instant = visitInstant(date, serviceWindow, company.timezone)
        instants.set(key, instant)
      }
      return instant
    }
    for (const row of batch) {
      const plan = asSchedule(row.plan)
      const address = formatAddress({ ...row, street: row.street })
      for (const date of datesToGenerate(plan, window, have.get(plan.id) ?? [])) {
        rows.push({
          companyId: company.id,
          customerId: row.customerId,
          locationId: plan.locationId,
          customerName: row.customerName,
          address,
          scheduledAt: instantOf(date, plan.serviceWindow),
          technicianId: plan.technicianId,
          planId: plan.id,
          occurrenceDate: date,
        })
      }
    }
    for (let j = 0; j < rows.length; j += INSERT_BATCH) {
      created += await insertVisits(executor, rows.slice(j, j + INSERT_BATCH))
    }
  }
  if (created > 0) await publishCompanyEvent({ companyId: company.id, type: 'job.created' }, executor)
  return created
}

/**
 * Inserts generated visits, skipping any another run inserted first. One statement of column arrays (unnest) rather
 * than a VALUES row per visit: a tenth of the parameters to bind, which is most of the cost of a large first run.
 */
async function insertVisits(executor: Database, rows: readonly GeneratedVisit[]) {
  if (rows.length === 0) return 0
  const column = <K extends keyof GeneratedVisit>(key: K) => sql.param(rows.map((row) => row[key]))
  const inserted = await queryRows<{ id: string }>(
    sql`
    insert into ${jobs} (company_id, customer_id, location_id, customer_name, address, scheduled_at, technician_id,
      plan_id, occurrence_date)
    select * from unnest(
      ${column('companyId')}::uuid[], ${column('customerId')}::uuid[], ${column('locationId')}::uuid[],
      ${column('customerName')}::text[], ${column('address')}::text[],
      ${sql.param(rows.map((row) => row.scheduledAt.toISOString()))}::timestamptz[], ${column('technicianId')}::text[],
      ${column('planId')}::uuid[], ${column('occurrenceDate')}::date[])
    on conflict (company_id, plan_id, occurrence_date) do nothing
    returning id`,
    executor,
  )
  return inserted.length
}

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
    .innerJoin(
      customers,
      and(eq(customers.companyId, serviceLocations.companyId), eq(customers.id, serviceLocations.customerId)),
    )
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
async function lockPlan(executor: Database, companyId: string, planId: string) {
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
      id: jobs.id,
      occurrenceDate: jobs.occurrenceDate,
      movedAt: jobs.movedAt,
      completedAt: jobs.completedAt,
      cancelledAt: jobs.cancelledAt,
      // Table names written out: in a one-table select drizzle leaves columns unqualified, and inside the
      // subquery "company_id" and "id" would name the subquery's own columns (the check was then always false).
      hasPhotos: sql<boolean>`exists (select 1 from "visit_photos" where "visit_photos"."company_id" = "jobs"."company_id" and "visit_photos"."job_id" = "jobs"."id")`,
      hasReadings: sql<boolean>`exists (select 1 from "chem_logs" where "chem_logs"."company_id" = "jobs"."company_id" and "chem_logs"."job_id" = "jobs"."id")`,
    })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.planId, planId), gte(jobs.occurrenceDate, from)))
    .for('update')
    .then((rows) => rows.map((row) => ({ ...row, occurrenceDate: row.occurrenceDate as LocalDate })))
}

type PlanVisit = Awaited<ReturnType<typeof planVisitsFrom>>[number]

/** Untouched: as generation made it. Anything else is history or someone's decision, and a plan change keeps it. */
export function isUntouchedVisit(
  visit: Pick<PlanVisit, 'movedAt' | 'completedAt' | 'cancelledAt' | 'hasPhotos' | 'hasReadings'>,
) {
  return !visit.movedAt && !visit.completedAt && !visit.cancelledAt && !visit.hasPhotos && !visit.hasReadings
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
    await tx.delete(jobs).where(
      and(
        eq(jobs.companyId, companyId),
        inArray(
          jobs.id,
          change.remove.map((visit) => visit.id),
        ),
      ),
    )
  }
  for (const { visit, plan, occurrenceDate } of change.rehome) {
    const planId = plan === 'current' ? id : nextId
    if (!planId) continue
    await tx
      .update(jobs)
      .set({ planId, occurrenceDate })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, visit.id)))
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
    await publishCompanyEvent({ companyId, type: 'job.updated' }, tx)
    return success({})
  })
}

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
      await publishCompanyEvent({ companyId, type: 'job.updated' }, tx)
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
    .select({ date: sql<string>`to_char(${jobs.scheduledAt} at time zone ${companies.timezone}, 'YYYY-MM-DD')` })
    .from(jobs)
    .innerJoin(companies, eq(companies.id, jobs.companyId))
    .where(
      and(
        eq(jobs.companyId, companyId),
        inArray(jobs.planId, [...planIds]),
        gte(jobs.occurrenceDate, from),
        isNull(jobs.completedAt),
        isNull(jobs.cancelledAt),
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
    await publishCompanyEvent({ companyId, type: 'job.updated' }, tx)
    return success({ added: created })
  })
}
