// The owner's money at a glance (docs/product.md "Billing", "Easy to get wrong"): every figure a sum of the company's
// records, read in one statement whatever the number of invoices, payments and plans.
// - "Invoiced this month": non-void invoices issued this month (the company's month; drafts have no issue date).
// - "Collected": payments received this month, net of refunds (whatever invoice they paid, or none: account credit).
// - "Outstanding": what is still owed on sent invoices (total less payments and applied credit, never below zero).
// - "Past due": the part of that owed on invoices whose due date has passed.
// - "Monthly recurring revenue": today's active plans of active customers at the rate in force this month. Monthly
//   rate types count their rate; per-visit ones their rate × visits a month of their frequency: a year's 52 weeks
//   over 12 months, divided by the weeks between visits (weekly ≈ 4.33, every 2 weeks ≈ 2.17). Summed exactly, then
//   rounded half up to the cent once.
// - "Forecast this month": what this month's plans bill at their rates — monthly types their rate, per-visit types
//   their rate × this month's visits that are not skipped or canceled (done or still to do). Chemicals and the
//   proration of a plan starting or ending mid-month are left out: it is a forecast, "Create invoices" is exact.
import { sql } from 'drizzle-orm'
import { monthOf } from '~/billing/invoice-draft'
import type { LocalDate } from '~/schedule/local-date'
import { type Database, db, queryRows } from '~/utils/db.server'
import { rateInForceSql } from './plan-rate.server'

/** Average visits a month of a plan seen every `frequency_weeks` weeks: 52 weeks / 12 months / frequency. */
const VISITS_PER_MONTH_SQL = sql`(52.0 / (12 * p.frequency_weeks))`

export type BillingFigures = {
  invoicedThisMonthCents: number
  collectedThisMonthCents: number
  outstandingCents: number
  pastDueCents: number
  monthlyRecurringCents: number
  forecastThisMonthCents: number
  /** Plans counted in the monthly recurring revenue. */
  activePlans: number
}

/** The company's money figures for the month holding `today` (the company's local date). One statement. */
export async function getBillingFigures(
  { companyId, today }: { companyId: string; today: LocalDate },
  executor: Database = db(),
): Promise<BillingFigures> {
  const month = monthOf(today)
  const monthlyType = sql`p.rate_type in ('monthly', 'monthly-plus-chemicals')`
  const rate = rateInForceSql(
    { companyId: sql`p.company_id`, id: sql`p.id`, rateCents: sql`p.rate_cents` },
    month.start,
  )
  const [row] = await queryRows<Record<keyof BillingFigures, string | number>>(
    sql`
    with owed as (
      select
        coalesce(sum(i.total_cents) filter (where i.state <> 'void'
          and i.issued_on between ${month.start} and ${month.end}
          -- An opening balance is money owed from before Pool Bud, not this month's billing (issue 31, item 8).
          and not exists (select 1 from invoice_lines ol where ol.company_id = i.company_id
            and ol.invoice_id = i.id and ol.kind = 'opening-balance')), 0)::bigint as invoiced,
        coalesce(sum(greatest(0, i.total_cents - i.paid_cents - i.credit_applied_cents))
          filter (where i.state = 'sent'), 0)::bigint as outstanding,
        coalesce(sum(greatest(0, i.total_cents - i.paid_cents - i.credit_applied_cents))
          filter (where i.state = 'sent' and i.due_on < ${today}), 0)::bigint as past_due
      from invoices i where i.company_id = ${companyId}
    ),
    received as (
      select coalesce(sum(pm.amount_cents - (select coalesce(sum(r.amount_cents), 0) from refunds r
        where r.payment_id = pm.id)), 0)::bigint as collected
      from payments pm
      where pm.company_id = ${companyId} and pm.received_on between ${month.start} and ${month.end}
        and not exists (select 1 from payment_voids pv where pv.payment_id = pm.id)
    ),
    plans as (
      select p.starts_on, p.ends_on, ${monthlyType} as monthly, ${rate} as rate, ${VISITS_PER_MONTH_SQL} as per_month,
        (select count(*) from visits j where j.company_id = p.company_id and j.plan_id = p.id
          and j.canceled_at is null and j.occurrence_date between ${month.start} and ${month.end}) as visits
      from service_plans p
      join service_locations l on l.company_id = p.company_id and l.id = p.location_id
      join customers c on c.company_id = l.company_id and c.id = l.customer_id
      where p.company_id = ${companyId} and c.status = 'active'
        and p.starts_on <= ${month.end} and (p.ends_on is null or p.ends_on >= ${month.start})
    )
    select
      owed.invoiced as "invoicedThisMonthCents",
      received.collected as "collectedThisMonthCents",
      owed.outstanding as "outstandingCents",
      owed.past_due as "pastDueCents",
      (select round(coalesce(sum(case when monthly then rate else rate * per_month end), 0))::bigint
        from plans where starts_on <= ${today} and (ends_on is null or ends_on >= ${today})) as "monthlyRecurringCents",
      (select count(*) from plans where starts_on <= ${today} and (ends_on is null or ends_on >= ${today}))
        as "activePlans",
      (select coalesce(sum(case when monthly then rate else rate * visits end), 0)::bigint from plans)
        as "forecastThisMonthCents"
    from owed, received`,
    executor,
  )
  const number = (key: keyof BillingFigures) => Number(row?.[key] ?? 0)
  return {
    invoicedThisMonthCents: number('invoicedThisMonthCents'),
    collectedThisMonthCents: number('collectedThisMonthCents'),
    outstandingCents: number('outstandingCents'),
    pastDueCents: number('pastDueCents'),
    monthlyRecurringCents: number('monthlyRecurringCents'),
    forecastThisMonthCents: number('forecastThisMonthCents'),
    activePlans: number('activePlans'),
  }
}
