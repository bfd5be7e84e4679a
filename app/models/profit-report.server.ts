// "Profit per pool" (OPERATIONS §7): per service location over a period, what it brought in, what the chemicals put
// in its water cost, the time spent there, and the margin. One grouped statement per page — the page's rows, the
// count and the totals over every row (window sums) — whatever the number of locations, visits or invoices.
//
// The rules, in one place:
// - Revenue: the lines of the location's invoices (not void; drafts count, the work is done) whose billed month
//   starts in the period. Invoices bill whole months, so a month's revenue belongs to the period holding its 1st
//   day, never split. Tax and opening balances belong to no location and are not revenue of any pool.
// - Chemical cost: each chemical added on a completed visit at the location dated in the period, × its stock item's
//   unit cost, rounded to the cent half up per addition. A product typed by hand (no stock item) has no known cost.
// - Minutes on site: the location's "Minutes on site" for each completed visit in the period. Visits store when
//   they were completed but not when the technician arrived, so the location's own estimate is the best measure.
// - A visit's date is its occurrence date (the date of the plan's visit it stands for, kept when it is moved — the
//   date invoices bill it by), or for a one-off job the day it was scheduled, in the company's timezone.
// - Margin: revenue − chemical cost; margin % of revenue, none when there is no revenue.
import { type SQL, sql } from 'drizzle-orm'
import type { LocalDate } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { DEFAULT_DIRECTION, DEFAULT_SORT, type ProfitSort, type SortDirection } from './profit-order'

export const PROFIT_ROWS_PER_PAGE = 50

export type ProfitRow = {
  locationId: string
  /** "Main house", when the customer named the location. */
  label: string | null
  street: string
  city: string | null
  customerId: string
  customerName: string
  revenueCents: number
  chemicalCostCents: number
  /** Completed visits in the period. */
  visits: number
  minutesOnSite: number
  marginCents: number
  /** Margin as a percentage of revenue, to one decimal; null without revenue. */
  marginPercent: number | null
}

export type ProfitTotals = Pick<
  ProfitRow,
  'revenueCents' | 'chemicalCostCents' | 'visits' | 'minutesOnSite' | 'marginCents'
> & {
  marginPercent: number | null
}

export type ProfitQuery = {
  companyId: string
  timezone: string
  from: LocalDate
  to: LocalDate
  sort?: ProfitSort
  dir?: SortDirection
}

/** Each sort's expressions over the report's columns (a fixed list: nothing from the address reaches the SQL). */
const ORDER: Record<ProfitSort, SQL[]> = {
  location: [sql`lower(street)`, sql`lower(coalesce(label, ''))`],
  customer: [sql`lower(customer_name)`],
  revenue: [sql`revenue_cents`],
  chemicals: [sql`chemical_cost_cents`],
  visits: [sql`visits`],
  minutes: [sql`minutes_on_site`],
  margin: [sql`margin_cents`],
  'margin-percent': [sql`margin_ratio`],
}

function orderBy(sort: ProfitSort, dir: SortDirection) {
  const direction = dir === 'asc' ? sql`asc` : sql`desc`
  // Rows without revenue have no margin % and sort last either way; ties fall back to the address, then the id,
  // so paging never shows a row twice or skips one.
  const keys = ORDER[sort].map((expression) => sql`${expression} ${direction} nulls last`)
  return sql.join([...keys, sql`lower(street)`, sql`location_id`], sql`, `)
}

type Raw = {
  location_id: string
  label: string | null
  street: string
  city: string | null
  customer_id: string
  customer_name: string
  revenue_cents: string | number
  chemical_cost_cents: string | number
  visits: string | number
  minutes_on_site: string | number
  margin_cents: string | number
  margin_percent: string | number | null
  total_rows: string | number
  total_revenue: string | number
  total_chemicals: string | number
  total_visits: string | number
  total_minutes: string | number
}

/** The report's rows in the order asked, with the count and totals of all of them (one statement). */
function reportStatement(query: ProfitQuery, limit: SQL) {
  const { companyId, timezone, from, to } = query
  const visitDate = sql`coalesce(j.occurrence_date, (j.scheduled_at at time zone ${timezone})::date)`
  return sql`
    with revenue as (
      select l.location_id, sum(l.amount_cents)::bigint as cents
      from invoice_lines l
      join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
      where l.company_id = ${companyId} and l.location_id is not null and i.state <> 'void'
        and i.period_start between ${from}::date and ${to}::date
      group by l.location_id
    ), visits as (
      select j.location_id, count(*)::bigint as visits
      from jobs j
      where j.company_id = ${companyId} and j.completed_at is not null
        and ${visitDate} between ${from}::date and ${to}::date
      group by j.location_id
    ), chemicals as (
      select j.location_id, sum(round(a.quantity * it.cost_cents))::bigint as cents
      from job_chemical_additions a
      join jobs j on j.company_id = a.company_id and j.id = a.job_id
      join inventory_items it on it.company_id = a.company_id and it.id = a.inventory_item_id
      where a.company_id = ${companyId} and j.completed_at is not null
        and ${visitDate} between ${from}::date and ${to}::date
      group by j.location_id
    ), report as (
      select sl.id as location_id, sl.label, sl.street, sl.city, c.id as customer_id, c.customer_name,
        coalesce(r.cents, 0) as revenue_cents,
        coalesce(ch.cents, 0) as chemical_cost_cents,
        coalesce(v.visits, 0) as visits,
        coalesce(v.visits, 0) * sl.minutes_on_site as minutes_on_site,
        coalesce(r.cents, 0) - coalesce(ch.cents, 0) as margin_cents,
        case when coalesce(r.cents, 0) > 0
          then (coalesce(r.cents, 0) - coalesce(ch.cents, 0))::numeric / r.cents end as margin_ratio
      from service_locations sl
      join customers c on c.company_id = sl.company_id and c.id = sl.customer_id
      left join revenue r on r.location_id = sl.id
      left join visits v on v.location_id = sl.id
      left join chemicals ch on ch.location_id = sl.id
      where sl.company_id = ${companyId}
        and (r.location_id is not null or v.location_id is not null or ch.location_id is not null)
    )
    select location_id, label, street, city, customer_id, customer_name, revenue_cents, chemical_cost_cents, visits,
      minutes_on_site, margin_cents, round(margin_ratio * 100, 1) as margin_percent,
      count(*) over () as total_rows,
      sum(revenue_cents) over () as total_revenue,
      sum(chemical_cost_cents) over () as total_chemicals,
      sum(visits) over () as total_visits,
      sum(minutes_on_site) over () as total_minutes
    from report
    order by ${orderBy(query.sort ?? DEFAULT_SORT, query.dir ?? DEFAULT_DIRECTION)}
    ${limit}`
}

function toRow(raw: Raw): ProfitRow {
  return {
    locationId: raw.location_id,
    label: raw.label,
    street: raw.street,
    city: raw.city,
    customerId: raw.customer_id,
    customerName: raw.customer_name,
    revenueCents: Number(raw.revenue_cents),
    chemicalCostCents: Number(raw.chemical_cost_cents),
    visits: Number(raw.visits),
    minutesOnSite: Number(raw.minutes_on_site),
    marginCents: Number(raw.margin_cents),
    marginPercent: raw.margin_percent === null ? null : Number(raw.margin_percent),
  }
}

/** Margin as a percentage of revenue, to one decimal, half up; null without revenue. */
export function marginPercentOf(marginCents: number, revenueCents: number) {
  if (revenueCents <= 0) return null
  const tenths = (marginCents * 1000) / revenueCents
  return (Math.sign(tenths) * Math.round(Math.abs(tenths))) / 10
}

function totalsOf(raw: Raw | undefined): ProfitTotals {
  const revenueCents = Number(raw?.total_revenue ?? 0)
  const chemicalCostCents = Number(raw?.total_chemicals ?? 0)
  const marginCents = revenueCents - chemicalCostCents
  return {
    revenueCents,
    chemicalCostCents,
    visits: Number(raw?.total_visits ?? 0),
    minutesOnSite: Number(raw?.total_minutes ?? 0),
    marginCents,
    marginPercent: marginPercentOf(marginCents, revenueCents),
  }
}

/** drizzle's `execute` answers node-postgres's result on PostgreSQL and PGlite's on PGlite: both carry `rows`. */
function rowsOf(result: unknown): Raw[] {
  return (result as { rows: Raw[] }).rows
}

/**
 * One page of the report, with the number of rows and the totals over all of them. A page past the end (an old
 * link, after invoices were voided) answers the last page instead — worked out in the same statement.
 */
export async function profitReportPage(query: ProfitQuery & { page?: number; size?: number }) {
  const size = Math.max(1, Math.floor(query.size ?? PROFIT_ROWS_PER_PAGE))
  const asked = Math.max(1, Math.floor(query.page ?? 1))
  const lastPageStart = sql`(((select count(*) from report) - 1) / ${size}) * ${size}`
  const raw = rowsOf(
    await db().execute(
      reportStatement(query, sql`limit ${size} offset least(${(asked - 1) * size}, greatest(0, ${lastPageStart}))`),
    ),
  )
  const total = Number(raw[0]?.total_rows ?? 0)
  return {
    page: Math.min(asked, Math.max(1, Math.ceil(total / size))),
    size,
    total,
    totals: totalsOf(raw[0]),
    rows: raw.map(toRow),
  }
}

/** Every row of the report in the order asked (the CSV export), with the totals. */
export async function profitReportRows(query: ProfitQuery) {
  const raw = rowsOf(await db().execute(reportStatement(query, sql``)))
  return { rows: raw.map(toRow), totals: totalsOf(raw[0]) }
}
