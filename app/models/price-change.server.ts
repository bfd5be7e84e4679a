// "Change prices" (OPERATIONS §7): the plans a change is for, previewed with their old and new rates (nothing
// written), then applied in one transaction — every plan's new rate, its rate history row (the rate it replaced, so
// months before the effective date still bill the old rate: plan-rate.server.ts), the change itself, and optionally
// one email per affected customer through the outbox. Applied at most once per form (an idempotency key), and only
// to what was previewed: the preview's fingerprint (each plan with its old and new rate) must still match inside
// the transaction that holds the plans' rows locked, or nothing is written and the new preview is shown.
import { createHash } from 'node:crypto'
import { and, asc, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { periodLabel } from '~/billing/invoice-draft'
import {
  ANY,
  describeIncrease,
  firstBilledMonth,
  newRate,
  type PlanFilter,
  PRICE_MESSAGES,
  type PriceIncrease,
  rateWithType,
  UNASSIGNED,
} from '~/billing/price-change'
import {
  companies,
  customers,
  emailOutbox,
  planRateChanges,
  priceChanges,
  profiles,
  serviceLocations,
  servicePlans,
} from '~/db/schema'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { formatAddress } from '~/utils/address'
import { formatLocalDate } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { kickOutboxWorker, renderEmail } from '~/utils/email.server'
import { failure, type Result, success } from '~/utils/result'
import { oncePerKey } from './idempotency.server'

/** Rows per statement when writing a change (well under PostgreSQL's 65,535 parameters). */
const WRITE_CHUNK = 1000

/** The outbox's notice event of the price-change email (its subject is the change's id: one email per customer). */
export const PRICE_CHANGE_NOTICE = 'price-change'

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
      street: serviceLocations.street,
      city: serviceLocations.city,
      state: serviceLocations.state,
      postalCode: serviceLocations.postalCode,
      rateType: servicePlans.rateType,
      technicianName: profiles.fullName,
      rateCents: servicePlans.rateCents,
      latestChangeOn: sql<string | null>`(select max(rc.effective_on)::text from ${planRateChanges} rc
        where rc.company_id = ${servicePlans.companyId} and rc.plan_id = ${servicePlans.id})`,
    })
    .from(servicePlans)
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
    )
    .innerJoin(
      customers,
      and(eq(customers.companyId, serviceLocations.companyId), eq(customers.id, serviceLocations.customerId)),
    )
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
  plans: PlanPriceChange[]
  count: number
  fingerprint: string
  increaseLabel: string
  effectiveOnLabel: string
  firstMonthLabel: string
}

/** The checks a preview and an apply share; the failure names the field it is about. */
async function checkedPlans(
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
      plans,
      count: plans.length,
      fingerprint: fingerprintOf(criteria, plans),
      increaseLabel: describeIncrease(criteria.increase),
      effectiveOnLabel: formatLocalDate(criteria.effectiveOn),
      firstMonthLabel: periodLabel(firstBilledMonth(criteria.effectiveOn)),
    },
  })
}

async function companyToday(executor: Database, companyId: string, now: Date) {
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

export type AppliedPriceChange = {
  priceChangeId: string
  planCount: number
  customersNotified: number
  firstMonthLabel: string
}

/**
 * "Apply": writes the previewed change in one transaction, once per idempotency key (a double submit gets the first
 * answer, `replayed`). Refused — nothing written — when the plans no longer match the preview's `fingerprint`; the
 * failure then carries the fresh preview.
 */
export async function applyPriceChange({
  companyId,
  userId,
  criteria,
  fingerprint,
  notify,
  key,
  now = new Date(),
}: {
  companyId: string
  userId: string | null
  criteria: PriceChangeCriteria
  fingerprint: string
  notify: boolean
  key: string | null
  now?: Date
}) {
  const body = { criteria, fingerprint, notify }
  return oncePerKey({ companyId, key, action: 'prices.apply', userId, target: companyId, body }, async (tx) => {
    const today = await companyToday(tx, companyId, now)
    if (!today) return failure('not-found', 'Company not found.')
    const checked = await checkedPlans(tx, companyId, criteria, today, true)
    if (!checked.ok) return checked
    const { preview } = checked
    if (preview.fingerprint !== fingerprint) {
      return { ...failure('conflict', PRICE_MESSAGES.changed), preview }
    }
    const [change] = await tx
      .insert(priceChanges)
      .values({
        companyId,
        effectiveOn: criteria.effectiveOn,
        kind: criteria.increase.kind,
        amount: criteria.increase.kind === 'percent' ? criteria.increase.basisPoints : criteria.increase.cents,
        planCount: preview.count,
        createdBy: userId,
      })
      .returning({ id: priceChanges.id })
    if (!change) return failure('failed', 'The price change could not be saved.')
    for (let at = 0; at < preview.plans.length; at += WRITE_CHUNK) {
      const chunk = preview.plans.slice(at, at + WRITE_CHUNK)
      const values = sql.join(
        chunk.map((plan) => sql`(${plan.planId}::uuid, ${plan.newRateCents}::integer)`),
        sql`, `,
      )
      await tx.execute(sql`update ${servicePlans} set rate_cents = v.rate
        from (values ${values}) as v(id, rate)
        where ${servicePlans.companyId} = ${companyId} and ${servicePlans.id} = v.id`)
      await tx.insert(planRateChanges).values(
        chunk.map((plan) => ({
          companyId,
          planId: plan.planId,
          priceChangeId: change.id,
          effectiveOn: criteria.effectiveOn,
          fromRateCents: plan.oldRateCents,
          toRateCents: plan.newRateCents,
        })),
      )
    }
    const customersNotified = notify ? await queuePriceChangeEmails(tx, companyId, change.id, preview) : 0
    if (customersNotified > 0) {
      await tx.update(priceChanges).set({ customersNotified }).where(eq(priceChanges.id, change.id))
    }
    return success({
      priceChangeId: change.id,
      planCount: preview.count,
      customersNotified,
      firstMonthLabel: preview.firstMonthLabel,
    } satisfies AppliedPriceChange)
  })
}

/**
 * One email per affected customer who has an address and takes notices by email, listing each of their pools with
 * the new and current rate; queued in the change's transaction, once per customer by the outbox's notice key.
 */
async function queuePriceChangeEmails(
  tx: Database,
  companyId: string,
  priceChangeId: string,
  preview: PriceChangePreview,
) {
  const customerIds = [...new Set(preview.plans.map((plan) => plan.customerId))]
  const recipients = await tx
    .select({
      id: customers.id,
      name: customers.customerName,
      email: customers.email,
      companyName: companies.name,
    })
    .from(customers)
    .innerJoin(companies, eq(companies.id, customers.companyId))
    .where(
      and(
        eq(customers.companyId, companyId),
        sql`${customers.id} in ${sql`(${sql.join(
          customerIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`}`,
        eq(customers.noticesByEmail, true),
        sql`${customers.email} is not null and ${customers.email} <> ''`,
      ),
    )
  const rows: (typeof emailOutbox.$inferInsert)[] = []
  for (const customer of recipients) {
    if (!customer.email) continue
    const email = await renderEmail({
      template: 'price-change',
      props: {
        companyName: customer.companyName,
        customerName: customer.name,
        firstMonth: preview.firstMonthLabel,
        plans: preview.plans
          .filter((plan) => plan.customerId === customer.id)
          .map((plan) => ({
            place: plan.place,
            newRate: rateWithType(plan.newRateCents, plan.rateType),
            oldRate: rateWithType(plan.oldRateCents, plan.rateType),
          })),
      },
    })
    rows.push({
      companyId,
      customerId: customer.id,
      kind: 'email',
      to: customer.email,
      fromName: customer.companyName,
      noticeEvent: PRICE_CHANGE_NOTICE,
      noticeSubject: priceChangeId,
      ...email,
    })
  }
  let queued = 0
  for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
    const inserted = await tx
      .insert(emailOutbox)
      .values(rows.slice(at, at + WRITE_CHUNK))
      .onConflictDoNothing()
      .returning({ id: emailOutbox.id })
    queued += inserted.length
  }
  if (queued > 0) kickOutboxWorker()
  return queued
}

/** The company's latest price changes, newest first, for the page's history. */
export async function listPriceChanges({ companyId, limit = 5 }: { companyId: string; limit?: number }) {
  const rows = await db()
    .select({
      id: priceChanges.id,
      effectiveOn: priceChanges.effectiveOn,
      kind: priceChanges.kind,
      amount: priceChanges.amount,
      planCount: priceChanges.planCount,
      customersNotified: priceChanges.customersNotified,
      createdAt: priceChanges.createdAt,
      createdBy: profiles.fullName,
    })
    .from(priceChanges)
    .leftJoin(profiles, eq(profiles.id, priceChanges.createdBy))
    .where(eq(priceChanges.companyId, companyId))
    .orderBy(desc(priceChanges.createdAt), desc(priceChanges.id))
    .limit(limit)
  return rows.map((row) => ({
    ...row,
    increaseLabel: describeIncrease(
      row.kind === 'percent' ? { kind: 'percent', basisPoints: row.amount } : { kind: 'amount', cents: row.amount },
    ),
    effectiveOnLabel: formatLocalDate(row.effectiveOn),
    firstMonthLabel: periodLabel(firstBilledMonth(row.effectiveOn)),
  }))
}
