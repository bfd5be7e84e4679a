// "Change prices" (docs/billing.md): the plans a change is for, previewed with their old and new rates (nothing
// written), then applied in one transaction — every plan's new rate, its rate history row (the rate it replaced, so
// months before the effective date still bill the old rate: plan-rate.server.ts), the change itself, and optionally
// one email per affected customer through the outbox. Applied at most once per form (an idempotency key), and only
// to what was previewed: the preview's fingerprint (each plan with its old and new rate) must still match inside
// the transaction that holds the plans' rows locked, or nothing is written and the new preview is shown.
import { createHash } from 'node:crypto'
import { and, asc, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
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
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue, type QueuedEmail } from '~/outbox/enqueue.server'
import { type LocalDate, localDateAt } from '~/schedule/local-date'
import { formatAddress } from '~/utils/address'
import { formatLocalDate } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { customerEmailBrand } from './company-brand'
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
  /** True when this preview (its change id, or the very plans and rates it showed) had been applied before. */
  alreadyApplied?: boolean
}

/** A change already applied, as a second "Apply" of its preview is answered: nothing written. */
async function appliedBefore(
  tx: Database,
  companyId: string,
  where: SQL,
): Promise<(AppliedPriceChange & { alreadyApplied: true }) | null> {
  const [row] = await tx
    .select({
      id: priceChanges.id,
      planCount: priceChanges.planCount,
      customersNotified: priceChanges.customersNotified,
      effectiveOn: priceChanges.effectiveOn,
    })
    .from(priceChanges)
    .where(and(eq(priceChanges.companyId, companyId), where))
    .orderBy(desc(priceChanges.createdAt))
    .limit(1)
  if (!row) return null
  return {
    priceChangeId: row.id,
    planCount: row.planCount,
    customersNotified: row.customersNotified,
    firstMonthLabel: periodLabel(firstBilledMonth(row.effectiveOn)),
    alreadyApplied: true,
  }
}

/**
 * "Apply": writes the previewed change in one transaction, once per idempotency key (a double submit gets the first
 * answer, `replayed`) and once per change id (the preview's): a second "Apply" of the same preview — the back
 * button, a double click, the same preview open in two tabs — answers `alreadyApplied` and writes nothing, whether
 * it names a change id already used (the primary key settles two at once) or shows the very plans and rates a change
 * was applied from (the first one's fingerprint, found once the rates it holds locked have moved). Refused — nothing
 * written — when the plans no longer match the preview's `fingerprint` for any other reason; the failure then
 * carries the fresh preview.
 */
export async function applyPriceChange({
  companyId,
  userId,
  criteria,
  fingerprint,
  changeId,
  notify,
  key,
  now = new Date(),
}: {
  companyId: string
  userId: string | null
  criteria: PriceChangeCriteria
  fingerprint: string
  /** The preview's change id (a UUID). */
  changeId: string
  notify: boolean
  key: string | null
  now?: Date
}) {
  const body = { criteria, fingerprint, changeId, notify }
  return oncePerKey({ companyId, key, action: 'prices.apply', userId, target: companyId, body }, async (tx) => {
    const sameChange = await appliedBefore(tx, companyId, eq(priceChanges.id, changeId))
    if (sameChange) return success<AppliedPriceChange>(sameChange)
    const today = await companyToday(tx, companyId, now)
    if (!today) return failure('not-found', 'Company not found.')
    const checked = await checkedPlans(tx, companyId, criteria, today, true)
    if (!checked.ok || checked.preview.fingerprint !== fingerprint) {
      // The plans moved since the preview. By this very preview, applied from another tab (or a copy of this request
      // that got the plans' locks first)? Then that is the answer. An undone change does not count: its rates are
      // back, and applying it again is a new decision.
      const sameRates = await appliedBefore(
        tx,
        companyId,
        and(eq(priceChanges.fingerprint, fingerprint), isNull(priceChanges.undoneAt)) as SQL,
      )
      if (sameRates) return success<AppliedPriceChange>(sameRates)
      if (!checked.ok) return checked
      return { ...failure('conflict', PRICE_MESSAGES.changed), preview: checked.preview }
    }
    const { preview } = checked
    const [change] = await tx
      .insert(priceChanges)
      .values({
        id: changeId,
        companyId,
        effectiveOn: criteria.effectiveOn,
        kind: criteria.increase.kind,
        amount: criteria.increase.kind === 'percent' ? criteria.increase.basisPoints : criteria.increase.cents,
        planCount: preview.count,
        fingerprint,
        createdBy: userId,
      })
      .onConflictDoNothing({ target: priceChanges.id })
      .returning({ id: priceChanges.id })
    if (!change) {
      // The id is taken: by a copy of this very apply that committed meanwhile (the answer), or — a forged id —
      // by another company's change (nothing of theirs is told).
      const raced = await appliedBefore(tx, companyId, eq(priceChanges.id, changeId))
      return raced ? success<AppliedPriceChange>(raced) : failure('conflict', PRICE_MESSAGES.previewAgain)
    }
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
    return success<AppliedPriceChange>({
      priceChangeId: change.id,
      planCount: preview.count,
      customersNotified,
      firstMonthLabel: preview.firstMonthLabel,
    })
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
      companyEmail: companies.email,
      logoKey: companies.logoKey,
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
  const rows: QueuedEmail[] = []
  for (const customer of recipients) {
    if (!customer.email) continue
    const sender = customerEmailBrand({
      name: customer.companyName,
      email: customer.companyEmail,
      logoKey: customer.logoKey,
    })
    const email = await renderEmail({
      template: 'price-change',
      props: {
        brand: sender.brand,
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
      kind: 'email',
      companyId,
      customerId: customer.id,
      to: customer.email,
      fromName: sender.fromName,
      replyTo: sender.replyTo,
      attachments: sender.attachments,
      notice: { event: PRICE_CHANGE_NOTICE, subject: priceChangeId },
      ...email,
    })
  }
  let queued = 0
  for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
    queued += (await enqueue(tx, rows.slice(at, at + WRITE_CHUNK))).length
  }
  return queued
}

/**
 * The company's latest price changes, newest first, for the page's "Price changes": each with who made it and when,
 * whether it was undone (by whom), and whether it can still be (`canUndo`: not undone, not yet in effect on `today`).
 * `id` narrows the list to one change (the page after "Apply").
 */
export async function listPriceChanges({
  companyId,
  limit = 5,
  today = null,
  id = null,
}: {
  companyId: string
  limit?: number
  /** The company's today; without it nothing is offered for undo. */
  today?: LocalDate | null
  id?: string | null
}) {
  const undoer = alias(profiles, 'undoer')
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
      undoneAt: priceChanges.undoneAt,
      undoneBy: undoer.fullName,
      noticesWithdrawn: priceChanges.noticesWithdrawn,
    })
    .from(priceChanges)
    .leftJoin(profiles, eq(profiles.id, priceChanges.createdBy))
    .leftJoin(undoer, eq(undoer.id, priceChanges.undoneBy))
    .where(and(eq(priceChanges.companyId, companyId), id ? eq(priceChanges.id, id) : undefined))
    .orderBy(desc(priceChanges.createdAt), desc(priceChanges.id))
    .limit(limit)
  return rows.map((row) => ({
    ...row,
    canUndo: row.undoneAt === null && today !== null && row.effectiveOn > today,
    increaseLabel: describeIncrease(
      row.kind === 'percent' ? { kind: 'percent', basisPoints: row.amount } : { kind: 'amount', cents: row.amount },
    ),
    effectiveOnLabel: formatLocalDate(row.effectiveOn),
    firstMonthLabel: periodLabel(firstBilledMonth(row.effectiveOn)),
  }))
}

/** The plans of a change as they moved, for the page's "what changed" and the history: customer, place, old → new. */
export async function priceChangePlans({ companyId, priceChangeIds }: { companyId: string; priceChangeIds: string[] }) {
  if (priceChangeIds.length === 0) return []
  return db()
    .select({
      priceChangeId: planRateChanges.priceChangeId,
      planId: planRateChanges.planId,
      customerName: customers.customerName,
      street: serviceLocations.street,
      city: serviceLocations.city,
      state: serviceLocations.state,
      postalCode: serviceLocations.postalCode,
      rateType: servicePlans.rateType,
      oldRateCents: planRateChanges.fromRateCents,
      newRateCents: planRateChanges.toRateCents,
    })
    .from(planRateChanges)
    .innerJoin(
      servicePlans,
      and(eq(servicePlans.companyId, planRateChanges.companyId), eq(servicePlans.id, planRateChanges.planId)),
    )
    .innerJoin(
      serviceLocations,
      and(eq(serviceLocations.companyId, servicePlans.companyId), eq(serviceLocations.id, servicePlans.locationId)),
    )
    .innerJoin(
      customers,
      and(eq(customers.companyId, serviceLocations.companyId), eq(customers.id, serviceLocations.customerId)),
    )
    .where(
      and(
        eq(planRateChanges.companyId, companyId),
        sql`${planRateChanges.priceChangeId} in (${sql.join(
          priceChangeIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    )
    .orderBy(asc(customers.customerName), asc(customers.id), asc(serviceLocations.street), asc(servicePlans.id))
    .then((rows) => rows.map((row) => ({ ...row, place: formatAddress(row) })))
}

export type UndonePriceChange = { planCount: number; customersNotified: number; noticesWithdrawn: number }

/**
 * "Undo" a price change while it is not yet in effect (the company's today is before its effective date), so no
 * invoice has billed its rates: each plan's rate goes back to the one it replaced and the change's rate-history rows
 * are removed (they never took effect: docs/decisions/038-price-changes-apply-once-and-undo.md); the change itself
 * stays, marked undone. Emails about it still waiting in the outbox (never tried, not being sent) are withdrawn; the
 * answer says how many customers may already have been told. Refused when the change is in effect, when a later
 * change was made on any of its plans (undo that first), or when a plan's rate was changed since by hand.
 */
export async function undoPriceChange({
  companyId,
  userId,
  priceChangeId,
  now = new Date(),
}: {
  companyId: string
  userId: string | null
  priceChangeId: string
  now?: Date
}): Promise<Result<UndonePriceChange>> {
  // Nothing is written before the last check, so a refusal simply returns (the transaction has only read).
  return db().transaction(async (tx): Promise<Result<UndonePriceChange>> => {
    const refuse = (result: Failure) => result
    const [change] = await tx
      .select()
      .from(priceChanges)
      .where(and(eq(priceChanges.companyId, companyId), eq(priceChanges.id, priceChangeId)))
      .for('update')
    if (!change) return refuse(failure('not-found', 'Price change not found.'))
    if (change.undoneAt) return refuse(failure('conflict', PRICE_MESSAGES.alreadyUndone))
    const today = await companyToday(tx, companyId, now)
    if (!today) return refuse(failure('not-found', 'Company not found.'))
    if (change.effectiveOn <= today) {
      return refuse(failure('conflict', PRICE_MESSAGES.inEffect(formatLocalDate(change.effectiveOn))))
    }
    // The change's plans, locked, each with its rate now and the change's row.
    const rows = await tx
      .select({
        planId: servicePlans.id,
        rateCents: servicePlans.rateCents,
        fromRateCents: planRateChanges.fromRateCents,
        toRateCents: planRateChanges.toRateCents,
        createdAt: planRateChanges.createdAt,
        rowId: planRateChanges.id,
      })
      .from(planRateChanges)
      .innerJoin(
        servicePlans,
        and(eq(servicePlans.companyId, planRateChanges.companyId), eq(servicePlans.id, planRateChanges.planId)),
      )
      .where(and(eq(planRateChanges.companyId, companyId), eq(planRateChanges.priceChangeId, priceChangeId)))
      .for('update', { of: servicePlans })
    // A later change of any of these plans was built on this one's rates: it goes first.
    const [later] = await tx
      .select({ effectiveOn: planRateChanges.effectiveOn })
      .from(planRateChanges)
      .where(
        and(
          eq(planRateChanges.companyId, companyId),
          sql`${planRateChanges.priceChangeId} <> ${priceChangeId}::uuid`,
          sql`${planRateChanges.planId} in (select rc.plan_id from ${planRateChanges} rc
              where rc.company_id = ${companyId} and rc.price_change_id = ${priceChangeId}::uuid)`,
          sql`(${planRateChanges.effectiveOn} > ${change.effectiveOn}
              or (${planRateChanges.effectiveOn} = ${change.effectiveOn} and ${planRateChanges.createdAt} > ${change.createdAt}))`,
        ),
      )
      .orderBy(desc(planRateChanges.effectiveOn))
      .limit(1)
    if (later) return refuse(failure('conflict', PRICE_MESSAGES.laterChangeFirst(formatLocalDate(later.effectiveOn))))
    if (rows.some((row) => row.rateCents !== row.toRateCents)) {
      return refuse(failure('conflict', PRICE_MESSAGES.rateMoved))
    }
    for (let at = 0; at < rows.length; at += WRITE_CHUNK) {
      const chunk = rows.slice(at, at + WRITE_CHUNK)
      const values = sql.join(
        chunk.map((row) => sql`(${row.planId}::uuid, ${row.fromRateCents}::integer)`),
        sql`, `,
      )
      await tx.execute(sql`update ${servicePlans} set rate_cents = v.rate
          from (values ${values}) as v(id, rate)
          where ${servicePlans.companyId} = ${companyId} and ${servicePlans.id} = v.id`)
    }
    await tx
      .delete(planRateChanges)
      .where(and(eq(planRateChanges.companyId, companyId), eq(planRateChanges.priceChangeId, priceChangeId)))
    // Emails never tried and not claimed by a sender (a claim moves next_attempt_at into the future and holds no
    // lock we could wait on, so only due, untried rows are taken — SKIP LOCKED leaves one being claimed alone).
    const withdrawn = await tx.execute(sql`delete from ${emailOutbox} where id in (
          select id from ${emailOutbox}
          where company_id = ${companyId} and notice_event = ${PRICE_CHANGE_NOTICE}
            and notice_subject = ${priceChangeId} and status = 'pending' and attempts = 0
            and next_attempt_at <= now()
          for update skip locked)
        and status = 'pending' and attempts = 0 and next_attempt_at <= now()
        returning id`)
    const noticesWithdrawn = rowCount(withdrawn)
    await tx
      .update(priceChanges)
      .set({ undoneAt: now, undoneBy: userId, noticesWithdrawn })
      .where(eq(priceChanges.id, priceChangeId))
    return success({
      planCount: new Set(rows.map((row) => row.planId)).size,
      customersNotified: change.customersNotified,
      noticesWithdrawn,
    })
  })
}

/** The rows a `returning` statement gave, however the driver hands them over. */
function rowCount(result: unknown) {
  if (Array.isArray(result)) return result.length
  const rows = (result as { rows?: unknown[] }).rows
  return Array.isArray(rows) ? rows.length : 0
}
