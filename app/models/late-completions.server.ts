// Late completions (docs/billing.md "Late completions", docs/decisions/042-late-completions.md): a visit completed
// after its month's invoice counted its visits is billed by a later invoice's "Late completions" line, once. Which
// visits are late, the SQL that passes over those already billed, and the claim that refuses billing one twice.
import { type SQL, sql } from 'drizzle-orm'
import type { BillingPeriod } from '~/billing/invoice-draft'
import { billedVisits, type invoiceLines, type visits } from '~/db/schema'
import { type Database, queryRows } from '~/utils/db.server'
import { rateInForceSql } from './plan-rate.server'

/** SQL: the visit (`visits` or an alias of it) is not billed by a "Late completions" line. */
export function notBilledLate(visit: typeof visits | SQL) {
  return sql`not exists (select 1 from ${billedVisits} bv where bv.company_id = ${visit}.company_id
    and bv.visit_id = ${visit}.id and bv.released_at is null)`
}

/**
 * The late completions an invoice for `period` bills (docs/billing.md, "Late completions"): visits of per-visit plans
 * of active customers, of an earlier month whose invoice for the customer is sent and counted its visits before this
 * one was completed, not yet billed by a late line. Each at the rate in force on its date. One statement.
 */
export async function lateCompletions(
  executor: Database,
  companyId: string,
  which: { period: BillingPeriod } | { visitIds: string[] },
) {
  const only =
    'period' in which
      ? sql`j.occurrence_date < ${which.period.start}`
      : which.visitIds.length
        ? sql`j.id in (${sql.join(which.visitIds, sql`, `)})`
        : sql`false`
  const rows = await queryRows<{
    visit_id: string
    plan_id: string
    location_id: string
    occurrence_date: string
    frequency_weeks: number
    rate_cents: number | string
    customer_id: string
    customer_name: string
  }>(
    sql`
    select j.id as visit_id, j.plan_id, sp.location_id, j.occurrence_date::text as occurrence_date, sp.frequency_weeks,
      ${rateInForceSql({ companyId: sql`sp.company_id`, id: sql`sp.id`, rateCents: sql`sp.rate_cents` }, sql`j.occurrence_date`)} as rate_cents,
      c.id as customer_id, c.customer_name
    from visits j
    join service_plans sp on sp.company_id = j.company_id and sp.id = j.plan_id
    join service_locations sl on sl.company_id = sp.company_id and sl.id = sp.location_id
    join customers c on c.company_id = sl.company_id and c.id = sl.customer_id
    where j.company_id = ${companyId} and j.completed_at is not null and ${only}
      and sp.rate_type in ('per-visit', 'per-visit-plus-chemicals') and c.status = 'active'
      and exists (select 1 from invoices i where i.company_id = j.company_id and i.customer_id = c.id
        and i.state = 'sent' and i.period_start = date_trunc('month', j.occurrence_date)::date
        and ((j.completed_at > i.visits_counted_at
            -- a visit reopened and completed again is not late when the invoice counted its earlier completion
            and not (j.reopened_completion_at is not null and j.reopened_completion_at <= i.visits_counted_at
              and j.reopened_at > i.visits_counted_at))
          -- or the month was counted while a late line billed the visit, and that line's invoice was voided since
          or exists (select 1 from billed_visits r where r.company_id = j.company_id and r.visit_id = j.id
            and r.billed_at <= i.visits_counted_at and r.released_at > i.visits_counted_at)))
      and ${notBilledLate(sql`j`)}
    order by c.id, j.occurrence_date, j.id`,
    executor,
  )
  return rows.map((row) => ({
    customerId: row.customer_id,
    customerName: row.customer_name,
    visitId: row.visit_id,
    planId: row.plan_id,
    locationId: row.location_id,
    on: row.occurrence_date,
    frequencyWeeks: Number(row.frequency_weeks),
    rateCents: Number(row.rate_cents),
  }))
}

/**
 * Records the visits that "Late completions" lines bill: the key (company, visit) among live rows refuses a second
 * claim, so a visit is never billed twice however the requests interleave (docs/decisions/042-late-completions.md).
 */
export async function claimVisits(
  tx: Database,
  companyId: string,
  lines: { id: string; invoiceId: string; visitId: string | null }[],
) {
  const rows = lines.flatMap((line) =>
    line.visitId ? [{ companyId, visitId: line.visitId, invoiceId: line.invoiceId, lineId: line.id }] : [],
  )
  if (rows.length) await tx.insert(billedVisits).values(rows)
}

type BilledLine = Pick<
  typeof invoiceLines.$inferInsert,
  'kind' | 'description' | 'quantity' | 'unitCents' | 'amountCents' | 'locationId' | 'planId' | 'visitId'
>

/** An invoice's billed line at `position`, as "Create invoices" writes it and a corrected copy writes it again. */
export function billedLineValues(companyId: string, invoiceId: string, position: number, line: BilledLine) {
  return {
    companyId,
    invoiceId,
    position,
    kind: line.kind,
    description: line.description,
    quantity: line.quantity,
    unitCents: line.unitCents,
    amountCents: line.amountCents,
    locationId: line.locationId,
    planId: line.planId,
    visitId: line.visitId ?? null,
  }
}
