// /app/reports/profit — "Profit per pool" (docs/billing.md): per service location over a period (the last full month
// unless asked), revenue, chemical cost, labor cost, minutes on site and margin; sortable by each column, paged, with a
// CSV of the same rows. Owners and admins only (docs/product.md "Easy to get wrong"). The figures' rules are in
// app/models/profit-report.server.ts.
import { data, Form, Link } from 'react-router'
import { requireCompanyCapability } from '~/auth/guards.server'
import { monthOf } from '~/billing/invoice-draft'
import { Pager } from '~/components/pager'
import { RouteError } from '~/components/route-error'
import { Alert } from '~/components/ui/alert'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Field } from '~/components/ui/field'
import { textLinkTarget } from '~/components/ui/touch'
import { readProfitParams } from '~/features/reports/profit-params'
import { ProfitTable, type ProfitView, profitSearch } from '~/features/reports/profit-table'
import { lastMonth } from '~/features/reports/report-period'
import { profitReportPage } from '~/models/profit-report.server'
import { localDateAt } from '~/schedule/local-date'
import { formatLocalDate } from '~/utils/dates'
import type { Route } from './+types/profit-report'

export async function loader({ request }: Route.LoaderArgs) {
  const { companyId, timezone } = await requireCompanyCapability(request, 'billing:manage')
  const today = localDateAt(new Date(), timezone)
  const { range, sort, dir, page } = readProfitParams(new URL(request.url), today)
  const thisMonth = monthOf(today)
  const previous = lastMonth(today)
  const shortcuts = [
    { label: 'This month', from: thisMonth.start, to: thisMonth.end },
    { label: 'Last month', from: previous.start, to: previous.end },
  ]
  if (!range.ok) {
    // The form keeps what was typed, with what is wrong with it; no figures for a period that is not one.
    return data(
      { ok: false as const, message: range.message, from: range.from, to: range.to, sort, dir, shortcuts },
      { status: 400 },
    )
  }
  const report = await profitReportPage({ companyId, timezone, from: range.from, to: range.to, sort, dir, page })
  const view: ProfitView = {
    from: range.from,
    to: range.to,
    sort,
    dir,
    page: report.page,
    pageCount: Math.max(1, Math.ceil(report.total / report.size)),
    total: report.total,
    rows: report.rows,
    totals: report.totals,
  }
  return {
    ok: true as const,
    ...view,
    periodLabel: `${formatLocalDate(range.from)} – ${formatLocalDate(range.to)}`,
    shortcuts,
  }
}

export function meta() {
  return [{ title: 'Profit per pool · Pool Bud' }]
}

export default function ProfitReportPage({ loaderData }: Route.ComponentProps) {
  const csvHref = loaderData.ok
    ? `/app/reports/profit.csv${profitSearch({ from: loaderData.from, to: loaderData.to, sort: loaderData.sort, dir: loaderData.dir })}`
    : null
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-bold">Profit per pool</h1>
          {loaderData.ok ? <p className="text-sm text-slate-600">{loaderData.periodLabel}</p> : null}
        </div>
        {csvHref ? (
          // A file download, not a page: the browser fetches it directly.
          <a href={csvHref} download className={buttonClass('secondary')}>
            Export CSV
          </a>
        ) : null}
      </div>
      <Card className="space-y-4">
        <PeriodForm data={loaderData} />
        <p className="text-sm text-slate-600">
          Revenue is what the pool's invoices bill (not void) for the months that start in the period. Chemical cost is
          each chemical added on a completed visit, at its stock item's unit cost. Labor cost is each completed visit's
          minutes on site at its technician's hourly cost (Team → technician): the visit's on-site minutes from the
          approved timesheet once the technician's week is approved, else the location's minutes on site (estimated from
          time on site). Each pool says which. Margin is revenue less both, for pools with an invoice.
        </p>
      </Card>
      {loaderData.ok ? (
        <Card className="space-y-4">
          {loaderData.total === 0 ? (
            <p className="text-sm text-slate-600">
              No completed visits or invoices at any pool in this period. Choose another period, or create the month's
              invoices on the{' '}
              <Link to="/app/billing" className="font-medium text-brand-700 underline">
                billing page
              </Link>
              .
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-600" aria-live="polite">
                {loaderData.total === 1 ? '1 pool' : `${loaderData.total} pools`}
              </p>
              {loaderData.totals.revenueCents === 0 ? (
                // A month is invoiced once it is over: this month's work has no revenue yet, which is not a loss.
                <Alert tone="info">
                  No invoices for this period yet: a month's invoices are created once it is over. Last month's figures
                  are under “Last month”.
                </Alert>
              ) : null}
              {loaderData.totals.visitsWithoutCost > 0 ? (
                <Alert tone="info">
                  {loaderData.totals.visitsWithoutCost === 1
                    ? '1 visit was'
                    : `${loaderData.totals.visitsWithoutCost} visits were`}{' '}
                  done by a technician with no hourly cost: their labor counts as $0.00. Set each technician's “Hourly
                  cost” on the{' '}
                  <Link to="/app/team" className="font-medium text-brand-700 underline">
                    team page
                  </Link>
                  .
                </Alert>
              ) : null}
              <ProfitTable view={loaderData} />
              <Pager page={loaderData.page} pageCount={loaderData.pageCount} label="Report pages" />
            </>
          )}
        </Card>
      ) : null}
    </div>
  )
}

type PageData = Route.ComponentProps['loaderData']

/** From / To (a GET form: the period is part of the address, so back, reload and sharing keep it). */
function PeriodForm({ data }: { data: PageData }) {
  return (
    <div className="space-y-3">
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="sort" value={data.sort} />
        <input type="hidden" name="dir" value={data.dir} />
        <Field
          label="From"
          className="w-full sm:w-44"
          errors={data.ok ? undefined : [data.message]}
          inputProps={{ type: 'date', name: 'from', defaultValue: data.from, required: true }}
        />
        <Field
          label="To"
          className="w-full sm:w-44"
          inputProps={{ type: 'date', name: 'to', defaultValue: data.to, required: true }}
        />
        <Button type="submit">Show</Button>
      </Form>
      <nav aria-label="Periods" className="flex flex-wrap gap-x-4">
        {data.shortcuts.map((shortcut) => (
          <Link
            key={shortcut.label}
            to={profitSearch({ from: shortcut.from, to: shortcut.to, sort: data.sort, dir: data.dir })}
            className={`${textLinkTarget} text-sm font-medium text-brand-700 hover:underline`}
            aria-current={data.ok && data.from === shortcut.from && data.to === shortcut.to ? 'page' : undefined}
          >
            {shortcut.label}
          </Link>
        ))}
      </nav>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
