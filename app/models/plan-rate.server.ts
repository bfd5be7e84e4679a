// The rate a service plan bills for a month (docs/billing.md "Price changes"): a plan stores its newest rate, and each
// price change keeps the rate it replaced (plan_rate_changes). A change takes effect for invoices of months that start
// on or after its effective date, so the rate for the month starting `periodStart` is the replaced rate of the
// plan's earliest change effective after that day — or, with none, the plan's own rate.
import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { LocalDate } from '~/schedule/local-date'

/**
 * The rate in force, in cents, for the month starting `periodStart`, of the plan whose `company_id`, `id` and
 * `rate_cents` are these columns (a correlated subquery on plan_rate_changes_company_plan_idx). Use it in a select
 * with a join (or pass aliased SQL): in a one-table select drizzle writes the columns without their table, and
 * inside the subquery `id` would then name the rate change's own id.
 */
export function rateInForceSql(
  plan: { companyId: AnyPgColumn | SQL; id: AnyPgColumn | SQL; rateCents: AnyPgColumn | SQL },
  periodStart: LocalDate | SQL,
) {
  return sql<number>`coalesce((select rc.from_rate_cents from plan_rate_changes rc
    where rc.company_id = ${plan.companyId} and rc.plan_id = ${plan.id} and rc.effective_on > ${periodStart}
    order by rc.effective_on, rc.created_at, rc.id limit 1), ${plan.rateCents})`.mapWith(Number)
}
