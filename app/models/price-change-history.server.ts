// "Change prices", the history (docs/billing.md): the company's latest price changes — who made each and when,
// whether it was undone and whether it still can be — and the plans each one moved, old rate to new.
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { periodLabel } from '~/billing/invoice-draft'
import { describeIncrease, firstBilledMonth } from '~/billing/price-change'
import { customers, planRateChanges, priceChanges, profiles, serviceLocations, servicePlans } from '~/db/schema'
import type { LocalDate } from '~/schedule/local-date'
import { formatAddress } from '~/utils/address'
import { formatLocalDate } from '~/utils/dates'
import { db } from '~/utils/db.server'
import { addressColumns } from './customer-columns.server'
import { customerOfLocation, locationOfPlan } from './joins.server'

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
      ...addressColumns,
      rateType: servicePlans.rateType,
      oldRateCents: planRateChanges.fromRateCents,
      newRateCents: planRateChanges.toRateCents,
    })
    .from(planRateChanges)
    .innerJoin(
      servicePlans,
      and(eq(servicePlans.companyId, planRateChanges.companyId), eq(servicePlans.id, planRateChanges.planId)),
    )
    .innerJoin(serviceLocations, locationOfPlan)
    .innerJoin(customers, customerOfLocation)
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
