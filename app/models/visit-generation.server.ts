// The visits service plans generate (docs/product.md "Schedule", decision 018). Generation keeps every active plan's
// visits 8 weeks ahead of the company's today: at start-up, every 6 hours, and right after a plan is added or
// changed. It is idempotent by the database: the unique (company, plan, occurrence date) key and ON CONFLICT DO
// NOTHING make two runs — or two servers at once — create each visit once. A visit that was moved, skipped or
// completed keeps its occurrence date, so it is never generated again.
import { and, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import { companies, customers, serviceLocations, servicePlans, visits } from '~/db/schema'
import { instantAt, type LocalDate } from '~/schedule/local-date'
import { datesToGenerate, type FrequencyWeeks, generationWindow, type PlanSchedule } from '~/schedule/recurrence'
import { SERVICE_WINDOW_HOURS } from '~/schedule/service-window'
import { formatAddress } from '~/utils/address'
import { type Database, db, queryRows } from '~/utils/db.server'
import { publishCompanyEvent } from '~/utils/events.server'
import { isUuid } from '~/utils/ids'
import { addressColumns } from './customer-columns.server'
import { locationOfPlan } from './joins.server'

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
export type StoredPlan = PlanRow & PlanSchedule

/** A plan row with its frequency and weekday as the schedule's types. */
export function asSchedule(plan: PlanRow): StoredPlan {
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
      ...addressColumns,
    })
    .from(servicePlans)
    .innerJoin(serviceLocations, and(locationOfPlan, isNull(serviceLocations.archivedAt)))
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
      .select({ planId: visits.planId, occurrenceDate: visits.occurrenceDate })
      .from(visits)
      .where(
        and(
          eq(visits.companyId, company.id),
          inArray(
            visits.planId,
            batch.map((row) => row.plan.id),
          ),
          gte(visits.occurrenceDate, window.from),
          lte(visits.occurrenceDate, window.to),
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
  if (created > 0) await publishCompanyEvent({ companyId: company.id, type: 'visit.created' }, executor)
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
    insert into ${visits} (company_id, customer_id, location_id, customer_name, address, scheduled_at, technician_id,
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
