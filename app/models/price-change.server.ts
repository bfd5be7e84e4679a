// "Change prices", applied and undone (docs/billing.md): in one transaction — every plan's new rate, its rate
// history row (the rate it replaced, so months before the effective date still bill the old rate:
// plan-rate.server.ts), the change itself, and optionally one email per affected customer through the outbox.
// Applied at most once per form (an idempotency key), and only to what was previewed
// (app/models/price-change-preview.server.ts): the preview's fingerprint must still match inside the transaction
// that holds the plans' rows locked, or nothing is written and the new preview is shown. "Undo" puts the rates back
// while the change is not yet in effect.
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import { periodLabel } from '~/billing/invoice-draft'
import { firstBilledMonth, PRICE_MESSAGES, rateWithType } from '~/billing/price-change'
import { companies, customers, emailOutbox, planRateChanges, priceChanges, servicePlans } from '~/db/schema'
import { renderEmail } from '~/outbox/email-render.server'
import { enqueue, type QueuedEmail } from '~/outbox/enqueue.server'
import { formatLocalDate } from '~/utils/dates'
import { type Database, db } from '~/utils/db.server'
import { type Failure, failure, type Result, success } from '~/utils/result'
import { customerEmailBrand } from './company-brand'
import { oncePerKey } from './idempotency.server'
import {
  checkedPlans,
  companyToday,
  type PriceChangeCriteria,
  type PriceChangePreview,
} from './price-change-preview.server'

/** Rows per statement when writing a change (well under PostgreSQL's 65,535 parameters). */
const WRITE_CHUNK = 1000

/** The outbox's notice event of the price-change email (its subject is the change's id: one email per customer). */
export const PRICE_CHANGE_NOTICE = 'price-change'

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
