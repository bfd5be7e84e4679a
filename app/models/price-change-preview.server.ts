// "Change prices", the preview (docs/billing.md): the plans a change is for — active customers, locations in use,
// plans still running in the first month billed at the new rate — each with its old and new rate, and the checks
// "Apply" repeats inside its transaction. The preview's fingerprint (each plan with its old and new rate) is what
// app/models/price-change.server.ts holds an apply to. Writes nothing.
import { createHash } from 'node:crypto'
import { and, asc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { periodLabel } from '~/billing/invoice-draft'
import {
  ANY,
  describeIncrease,
  firstBilledMonth,
  newRate,
  type PlanFilter,
  PRICE_MESSAGES,
  type PriceIncrease,
  UNASSIGNED,
} from '~/billing/price-change'
import { companies, customers, planRateChanges, profiles, serviceLocations, servicePlans } from '~/db/schema'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { formatAddress } from '~/utils/address'
import { formatLocalDate } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { failure, type Result, success } from '~/utils/result'
import { addressColumns } from './customer-columns.server'
import { customerOfLocation, locationOfPlan } from './joins.server'

export type PriceChangeCriteria = { filter: PlanFilter; increase: PriceIncrease; effectiveOn: LocalDate }

export type PlanPriceChange = {
  planId: string
  customerId: string
  customerName: string
  place: string
  rateType: (typeof servicePlans.$inferSelect)['rateType']
  technicianName: string | null
  oldRateCents: number
  newRateCents: number
}

function filterWhere(filter: PlanFilter): SQL | undefined {
  return and(
    filter.rateType ? eq(servicePlans.rateType, filter.rateType) : undefined,
    filter.technician === ANY
      ? undefined
      : filter.technician === UNASSIGNED
        ? isNull(servicePlans.technicianId)
        : eq(servicePlans.technicianId, filter.technician),
    filter.rateMin !== null ? gte(servicePlans.rateCents, filter.rateMin) : undefined,
    filter.rateMax !== null ? lte(servicePlans.rateCents, filter.rateMax) : undefined,
  )
}

/**
 * The plans the criteria choose whose rate the change moves: active customers, locations in use, plans still running
 * in the first month billed at the new rate. One statement; `lock` holds the plans' rows for the transaction.
 */
async function plansToChange(executor: Database, companyId: string, criteria: PriceChangeCriteria, lock: boolean) {
  const firstMonth = firstBilledMonth(criteria.effectiveOn)
  const query = executor
    .select({
      planId: servicePlans.id,
      customerId: customers.id,
      customerName: customers.customerName,
      ...addressColumns,
      rateType: servicePlans.rateType,
      technicianName: profiles.fullName,
      rateCents: servicePlans.rateCents,
      latestChangeOn: sql<string | null>`(select max(rc.effective_on)::text from ${planRateChanges} rc
        where rc.company_id = ${servicePlans.companyId} and rc.plan_id = ${servicePlans.id})`,
    })
    .from(servicePlans)
    .innerJoin(serviceLocations, locationOfPlan)
    .innerJoin(customers, customerOfLocation)
    .leftJoin(profiles, eq(profiles.id, servicePlans.technicianId))
    .where(
      and(
        eq(servicePlans.companyId, companyId),
        eq(customers.status, 'active'),
        isNull(serviceLocations.archivedAt),
        or(isNull(servicePlans.endsOn), gte(servicePlans.endsOn, firstMonth.start)),
        filterWhere(criteria.filter),
      ),
    )
    .orderBy(asc(customers.customerName), asc(customers.id), asc(serviceLocations.street), asc(servicePlans.id))
  const rows = lock ? await query.for('update', { of: servicePlans }) : await query
  const changed = rows.flatMap((row) => {
    const next = newRate(row.rateCents, criteria.increase)
    if (next === row.rateCents) return []
    const plan: PlanPriceChange & { latestChangeOn: string | null } = {
      planId: row.planId,
      customerId: row.customerId,
      customerName: row.customerName,
      place: formatAddress(row),
      rateType: row.rateType,
      technicianName: row.technicianName,
      oldRateCents: row.rateCents,
      newRateCents: next,
      latestChangeOn: row.latestChangeOn,
    }
    return [plan]
  })
  return changed
}

/** What the preview promised: the change and each plan's old and new rate, as a short hash. */
function fingerprintOf(criteria: PriceChangeCriteria, plans: PlanPriceChange[]) {
  const hash = createHash('sha256')
  hash.update(JSON.stringify([criteria.effectiveOn, criteria.increase]))
  for (const plan of plans) hash.update(`|${plan.planId}:${plan.oldRateCents}:${plan.newRateCents}`)
  return hash.digest('hex').slice(0, 32)
}

export type PriceChangePreview = {
  /**
   * The change id: the id the change gets when applied. "Apply" sends it back, so the same preview is applied at
   * most once — a second submit (back button, double click) answers "Already applied" and changes nothing.
   */
  changeId: string
  plans: PlanPriceChange[]
  count: number
  fingerprint: string
  /** How many of these plans already have a change from this very date (applied a moment ago, perhaps). */
  sameDateCount: number
  increaseLabel: string
  effectiveOnLabel: string
  firstMonthLabel: string
}

/** The checks a preview and an apply share; the failure names the field it is about. */
export async function checkedPlans(
  executor: Database,
  companyId: string,
  criteria: PriceChangeCriteria,
  today: LocalDate,
  lock: boolean,
): Promise<Result<{ preview: PriceChangePreview }>> {
  if (criteria.effectiveOn < today) return failure('invalid', PRICE_MESSAGES.past, 'effectiveOn')
  const found = await plansToChange(executor, companyId, criteria, lock)
  if (found.length === 0) return failure('invalid', PRICE_MESSAGES.none)
  // A plan's changes go in date order (each one's replaced rate is the one before it): no change dated before a
  // change the plan already has.
  const later = found.filter((plan) => plan.latestChangeOn !== null && plan.latestChangeOn > criteria.effectiveOn)
  if (later.length > 0) {
    const latest =
      later
        .map((plan) => plan.latestChangeOn ?? '')
        .sort()
        .at(-1) ?? ''
    return failure('conflict', PRICE_MESSAGES.laterChange(later.length, formatLocalDate(latest)), 'effectiveOn')
  }
  const plans = found.map(({ latestChangeOn: _latest, ...plan }) => plan)
  return success({
    preview: {
      changeId: crypto.randomUUID(),
      plans,
      count: plans.length,
      fingerprint: fingerprintOf(criteria, plans),
      sameDateCount: found.filter((plan) => plan.latestChangeOn === criteria.effectiveOn).length,
      increaseLabel: describeIncrease(criteria.increase),
      effectiveOnLabel: formatLocalDate(criteria.effectiveOn),
      firstMonthLabel: periodLabel(firstBilledMonth(criteria.effectiveOn)),
    },
  })
}

export async function companyToday(executor: Database, companyId: string, now: Date) {
  const [company] = await executor
    .select({ timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, companyId))
  return company ? localDateAt(now, company.timezone) : null
}

/** "Preview": every plan the change moves, with its old and new rate and the count. Writes nothing. */
export async function previewPriceChange({
  companyId,
  criteria,
  now = new Date(),
}: {
  companyId: string
  criteria: PriceChangeCriteria
  now?: Date
}) {
  const today = await companyToday(db(), companyId, now)
  if (!today) return failure('not-found', 'Company not found.')
  return checkedPlans(db(), companyId, criteria, today, false)
}
