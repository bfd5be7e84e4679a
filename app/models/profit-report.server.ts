// "Profit per pool" (docs/billing.md, docs/profit.md): per service location over a period, what it brought in, what
// the chemicals put in its water cost, what the time spent there cost, and the margin after both. One grouped
// statement per page — the page's rows, the count and the totals over every row (window sums) — whatever the number
// of locations, visits, technicians or invoices.
//
// The rules, in one place:
// - Revenue: the lines of the location's invoices (not void; drafts count, the work is done) whose billed month
//   starts in the period. Invoices bill whole months, so a month's revenue belongs to the period holding its 1st
//   day, never split. Tax and opening balances belong to no location and are not revenue of any pool.
// - Chemical cost: each chemical added on a completed visit at the location dated in the period, × its stock item's
//   unit cost, rounded to the cent half up per addition. A product typed by hand (no stock item) has no known cost.
// - Minutes on site, per completed visit in the period: from the approved timesheet where the visit's technician's
//   week is approved and the visit's day has a start and an end (the visit's on-site span — first recorded work, or
//   "On my way", to "Mark Complete" — kept inside the day's start and end in force, less its breaks); otherwise the
//   location's "Minutes on site" estimate. Each row counts its `approvedVisits`, so the page says which basis.
// - Labor cost: each completed visit's minutes on site × its technician's "Hourly cost" (Team → technician; the
//   visit's assigned technician, else whoever completed it), rounded to the cent half up per visit, whatever the pay
//   type (the hourly cost is the company's cost of an hour, per-stop pay included). A visit whose technician has no
//   hourly cost counts $0.00 and is counted in `visitsWithoutCost`, so the page can say so.
// - A visit's date is its occurrence date (the date of the plan's visit it stands for, kept when it is moved — the
//   date invoices bill it by), or for a one-off visit the day it was scheduled, in the company's timezone.
// - Margin: revenue − chemical cost − labor cost, and margin % of revenue — only for a pool with an invoice in the
//   period. A pool with visits and no invoice has no margin ("No invoice"), not a 100 % loss; the totals' margin is
//   the sum over invoiced pools.
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
  /** Whether any invoice (not void) bills the pool for a month starting in the period. */
  invoiced: boolean
  revenueCents: number
  chemicalCostCents: number
  laborCostCents: number
  /** Completed visits in the period. */
  visits: number
  /** The minutes labor is counted on: approved minutes on site where approved, else the location's estimate. */
  minutesOnSite: number
  /** Visits whose labor comes from an approved timesheet day (the rest are estimated from time on site). */
  approvedVisits: number
  /** Where the row's labor comes from: every visit approved, none, or some of each. */
  laborBasis: LaborBasis
  /** Revenue − chemical cost − labor cost; null without an invoice ("No invoice"). */
  marginCents: number | null
  /** Margin as a percentage of revenue, to one decimal; null without revenue. */
  marginPercent: number | null
}

export type ProfitTotals = Pick<
  ProfitRow,
  'revenueCents' | 'chemicalCostCents' | 'laborCostCents' | 'visits' | 'minutesOnSite' | 'approvedVisits'
> & {
  /** The sum of the invoiced pools' margins. */
  marginCents: number
  marginPercent: number | null
  /** Completed visits whose technician has no "Hourly cost" (their labor counts $0.00). */
  visitsWithoutCost: number
  /** Pools in the report with visits but no invoice. */
  uninvoiced: number
}

export type LaborBasis = 'approved' | 'estimated' | 'mixed'

/** A row's basis from its visits: all from approved timesheets, all estimated, or both. */
export function laborBasisOf(visits: number, approvedVisits: number): LaborBasis {
  if (approvedVisits > 0 && approvedVisits >= visits) return 'approved'
  return approvedVisits > 0 ? 'mixed' : 'estimated'
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
  labor: [sql`labor_cost_cents`],
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
  invoiced: boolean
  revenue_cents: string | number
  chemical_cost_cents: string | number
  labor_cost_cents: string | number
  visits: string | number
  minutes_on_site: string | number
  approved_visits: string | number
  margin_cents: string | number | null
  margin_percent: string | number | null
  total_rows: string | number
  total_revenue: string | number
  total_chemicals: string | number
  total_labor: string | number
  total_visits: string | number
  total_minutes: string | number
  total_margin: string | number | null
  total_without_cost: string | number
  total_approved_visits: string | number
  total_uninvoiced: string | number
}

/**
 * A visit counts on its plan date, or, without one, on its scheduled day in the company's zone. Written as two index
 * ranges (completed visits by plan date; any visit by time) rather than as the coalesce of the two, which read every
 * visit of the company to keep one month's (docs/performance.md).
 */
function inPeriod({ timezone, from, to }: Pick<ProfitQuery, 'timezone' | 'from' | 'to'>) {
  return sql`(j.occurrence_date between ${from}::date and ${to}::date
    or (j.occurrence_date is null
      and j.scheduled_at >= (${from}::date)::timestamp at time zone ${timezone}
      and j.scheduled_at < (${to}::date + 1)::timestamp at time zone ${timezone}))`
}

/**
 * The period's completed visits with the minutes labor is counted on and their technician's hourly cost
 * (`visit_minutes`: location_id, cost, approved, minutes), as common table expressions for a `with`: the report and
 * the dashboard's labor total count labor with these same steps.
 */
function laborSteps(query: Pick<ProfitQuery, 'companyId' | 'timezone' | 'from' | 'to'>) {
  const { companyId, timezone } = query
  return sql`approved_weeks as (
      -- The latest approval step of each technician's week decides (docs/time.md): approved weeks only.
      select technician_id, week_start from (
        select distinct on (technician_id, week_start) technician_id, week_start, action
        from timesheet_approvals
        where company_id = ${companyId}
        order by technician_id, week_start, seq desc
      ) step
      where action = 'approve'
    ), day_events as (
      -- The events in force (no later correction replaces them) of approved weeks' days.
      select e.technician_id, e.work_date, e.kind, e.at
      from time_events e
      join approved_weeks w on w.technician_id = e.technician_id
        and w.week_start = (e.work_date - ((extract(isodow from e.work_date)::int - 1)))
      where e.company_id = ${companyId}
        and not exists (select 1 from time_events r where r.company_id = e.company_id and r.replaces_id = e.id)
    ), days as (
      select technician_id, work_date,
        floor(extract(epoch from min(at) filter (where kind = 'start')) / 60)::bigint as start_minute,
        floor(extract(epoch from max(at) filter (where kind = 'end')) / 60)::bigint as end_minute
      from day_events
      group by technician_id, work_date
    ), breaks as (
      -- Each "Break" until the next "Back", or the day's end.
      select s.technician_id, s.work_date, floor(extract(epoch from s.at) / 60)::bigint as from_minute,
        coalesce(
          (select floor(extract(epoch from min(b.at)) / 60)::bigint from day_events b
            where b.technician_id = s.technician_id and b.work_date = s.work_date and b.kind = 'break-end'
              and b.at >= s.at),
          d.end_minute) as to_minute
      from day_events s
      join days d on d.technician_id = s.technician_id and d.work_date = s.work_date
      where s.kind = 'break-start'
    ), visit_times as (
      select j.location_id, sl.minutes_on_site as estimate, p.hourly_cost_cents as cost,
        d.technician_id as day_technician, d.work_date, d.start_minute, d.end_minute,
        d.work_date is not null as approved,
        -- Arrival: the first work recorded (a tick, a reading, a chemical), else "On my way"; kept between
        -- "On my way" and completion, as the timesheet's stop (app/schedule/timesheet.ts stopSpans).
        least(greatest(coalesce(fw.at, j.on_my_way_at), j.on_my_way_at),
          coalesce(j.completed_on_phone_at, j.completed_at)) as arrived_at,
        coalesce(j.completed_on_phone_at, j.completed_at) as done_at
      from visits j
      join service_locations sl on sl.company_id = j.company_id and sl.id = j.location_id
      left join profiles p on p.company_id = j.company_id and p.id = coalesce(j.technician_id, j.completed_by)
      left join days d on d.technician_id = j.technician_id
        and d.work_date = (j.scheduled_at at time zone ${timezone})::date
        and d.start_minute is not null and d.end_minute is not null and d.end_minute >= d.start_minute
      -- Only a visit on an approved day needs its arrival: the condition stands inside, so the three look-ups are not
      -- even run for the others (outside, as the join's condition, they ran for every visit and were then dropped).
      left join lateral (
        select min(w.at) as at from (
          select min(vc.checked_at) as at from visit_checks vc where vc.company_id = j.company_id and vc.visit_id = j.id
          union all
          select min(cl.taken_at) from chem_logs cl where cl.company_id = j.company_id and cl.visit_id = j.id
          union all
          select min(ca.added_at) from visit_chemical_additions ca where ca.company_id = j.company_id and ca.visit_id = j.id
        ) w
        where d.work_date is not null
      ) fw on true
      where j.company_id = ${companyId} and j.completed_at is not null
        and ${inPeriod(query)}
    ), visit_spans as (
      -- The visit's on-site minutes kept inside its approved day (start to end in force).
      select location_id, estimate, cost, approved, day_technician, work_date,
        case when arrived_at is not null then greatest(floor(extract(epoch from arrived_at) / 60)::bigint, start_minute) end
          as from_minute,
        case when arrived_at is not null then least(floor(extract(epoch from done_at) / 60)::bigint, end_minute) end
          as to_minute
      from visit_times
    ), visit_minutes as (
      select location_id, cost, approved,
        case when not approved then coalesce(estimate, 0)
          when from_minute is null or to_minute <= from_minute then 0
          else (to_minute - from_minute) - coalesce((
            select sum(greatest(0, least(v.to_minute, b.to_minute) - greatest(v.from_minute, b.from_minute)))
            from breaks b where b.technician_id = v.day_technician and b.work_date = v.work_date), 0)
        end as minutes
      from visit_spans v
    )`
}

/** The report's rows in the order asked, with the count and totals of all of them (one statement). */
function reportStatement(query: ProfitQuery, limit: SQL) {
  const { companyId, timezone, from, to } = query
  return sql`
    with revenue as (
      select l.location_id, sum(l.amount_cents)::bigint as cents
      from invoice_lines l
      join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
      where l.company_id = ${companyId} and l.location_id is not null and i.state <> 'void'
        and (i.period_start between ${from}::date and ${to}::date
          -- A work order's invoice has no period: it counts in the month it was issued (docs/work-orders.md).
          or (i.period_start is null
            and coalesce(i.issued_on, (i.created_at at time zone ${timezone})::date) between ${from}::date and ${to}::date
            and exists (select 1 from work_orders w where w.company_id = i.company_id and w.invoice_id = i.id)))
      group by l.location_id
    ), ${laborSteps(query)}, pool_visits as (
      select location_id, count(*)::bigint as visits, sum(minutes)::bigint as minutes,
        sum(round(minutes * coalesce(cost, 0) / 60.0))::bigint as labor_cents,
        count(*) filter (where cost is null)::bigint as without_cost,
        count(*) filter (where approved)::bigint as approved_visits
      from visit_minutes
      group by location_id
    ), chemicals as (
      select j.location_id, sum(round(a.quantity * it.cost_cents))::bigint as cents
      from visit_chemical_additions a
      join visits j on j.company_id = a.company_id and j.id = a.visit_id
      join inventory_items it on it.company_id = a.company_id and it.id = a.inventory_item_id
      where a.company_id = ${companyId} and j.completed_at is not null
        and ${inPeriod(query)}
      group by j.location_id
    ), report as (
      select sl.id as location_id, sl.label, sl.street, sl.city, c.id as customer_id, c.customer_name,
        r.location_id is not null as invoiced,
        coalesce(r.cents, 0) as revenue_cents,
        coalesce(ch.cents, 0) as chemical_cost_cents,
        coalesce(v.labor_cents, 0) as labor_cost_cents,
        coalesce(v.visits, 0) as visits,
        coalesce(v.minutes, 0) as minutes_on_site,
        coalesce(v.without_cost, 0) as without_cost,
        coalesce(v.approved_visits, 0) as approved_visits,
        case when r.location_id is not null
          then r.cents - coalesce(ch.cents, 0) - coalesce(v.labor_cents, 0) end as margin_cents,
        case when r.cents > 0
          then (r.cents - coalesce(ch.cents, 0) - coalesce(v.labor_cents, 0))::numeric / r.cents end as margin_ratio
      from service_locations sl
      join customers c on c.company_id = sl.company_id and c.id = sl.customer_id
      left join revenue r on r.location_id = sl.id
      left join pool_visits v on v.location_id = sl.id
      left join chemicals ch on ch.location_id = sl.id
      where sl.company_id = ${companyId}
        and (r.location_id is not null or v.location_id is not null or ch.location_id is not null)
    )
    select location_id, label, street, city, customer_id, customer_name, invoiced, revenue_cents, chemical_cost_cents,
      labor_cost_cents, visits, minutes_on_site, approved_visits, margin_cents, round(margin_ratio * 100, 1) as margin_percent,
      count(*) over () as total_rows,
      sum(revenue_cents) over () as total_revenue,
      sum(chemical_cost_cents) over () as total_chemicals,
      sum(labor_cost_cents) over () as total_labor,
      sum(visits) over () as total_visits,
      sum(minutes_on_site) over () as total_minutes,
      sum(margin_cents) over () as total_margin,
      sum(without_cost) over () as total_without_cost,
      sum(approved_visits) over () as total_approved_visits,
      count(*) filter (where not invoiced) over () as total_uninvoiced
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
    invoiced: Boolean(raw.invoiced),
    revenueCents: Number(raw.revenue_cents),
    chemicalCostCents: Number(raw.chemical_cost_cents),
    laborCostCents: Number(raw.labor_cost_cents),
    visits: Number(raw.visits),
    minutesOnSite: Number(raw.minutes_on_site),
    approvedVisits: Number(raw.approved_visits),
    laborBasis: laborBasisOf(Number(raw.visits), Number(raw.approved_visits)),
    marginCents: raw.margin_cents === null ? null : Number(raw.margin_cents),
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
  const marginCents = Number(raw?.total_margin ?? 0)
  return {
    revenueCents,
    chemicalCostCents: Number(raw?.total_chemicals ?? 0),
    laborCostCents: Number(raw?.total_labor ?? 0),
    visits: Number(raw?.total_visits ?? 0),
    minutesOnSite: Number(raw?.total_minutes ?? 0),
    marginCents,
    marginPercent: marginPercentOf(marginCents, revenueCents),
    visitsWithoutCost: Number(raw?.total_without_cost ?? 0),
    approvedVisits: Number(raw?.total_approved_visits ?? 0),
    uninvoiced: Number(raw?.total_uninvoiced ?? 0),
  }
}

/** drizzle's `execute` answers node-postgres's result on PostgreSQL and PGlite's on PGlite: both carry `rows`. */
function rowsOf<T = Raw>(result: unknown): T[] {
  return (result as { rows: T[] }).rows
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

/**
 * The period's labor over every pool, as the report's totals row counts it (the owner's dashboard): the report's own
 * labor steps, summed, without its revenue, chemicals and rows. Half up per visit, so the sum is the pools' sum.
 */
export async function laborTotals(query: Pick<ProfitQuery, 'companyId' | 'timezone' | 'from' | 'to'>) {
  type Counts = Record<'labor' | 'visits' | 'approved' | 'without_cost', string | number>
  const [raw] = rowsOf<Counts>(
    await db().execute(sql`
      with ${laborSteps(query)}
      select coalesce(sum(round(minutes * coalesce(cost, 0) / 60.0)), 0)::bigint as labor, count(*)::bigint as visits,
        count(*) filter (where approved)::bigint as approved, count(*) filter (where cost is null)::bigint as without_cost
      from visit_minutes`),
  )
  return {
    laborCostCents: Number(raw?.labor ?? 0),
    visits: Number(raw?.visits ?? 0),
    approvedVisits: Number(raw?.approved ?? 0),
    visitsWithoutCost: Number(raw?.without_cost ?? 0),
  }
}
