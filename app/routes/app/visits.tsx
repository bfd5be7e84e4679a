// /app/visits?show=…: the lists the dispatcher's counts open (issue 38 item 5, decision 049) — "Unassigned this
// week", "Overdue" (the shared rule: open, from before today in the company's timezone) and "Skipped this week", each
// visit linking to its page. The count above a list is the dashboard's own, so the two always agree.
import { Link } from 'react-router'
import { z } from 'zod'
import { notFound, requireCompanyCapability } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { StatusBadge } from '~/components/status-badge'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget } from '~/components/ui/touch'
import { visitHref } from '~/features/visits/back-link'
import { getDispatchCounts } from '~/models/dashboard-counts.server'
import { listDispatchVisits, VISIT_LISTS, type VisitList } from '~/models/dispatch-home.server'
import { visitState } from '~/models/visit-state'
import { formatDateTime } from '~/utils/dates'
import type { Route } from './+types/visits'

const ShowSchema = z.enum(VISIT_LISTS)

const LISTS: Record<
  VisitList,
  { title: string; empty: string; count: 'unassignedThisWeek' | 'overdue' | 'skippedThisWeek' }
> = {
  'unassigned-week': {
    title: 'Unassigned this week',
    empty: 'Every visit this week has a technician.',
    count: 'unassignedThisWeek',
  },
  overdue: { title: 'Overdue', empty: 'No overdue visits.', count: 'overdue' },
  'skipped-week': { title: 'Skipped this week', empty: 'No visit was skipped this week.', count: 'skippedThisWeek' },
}

export async function loader({ request }: Route.LoaderArgs) {
  const member = await requireCompanyCapability(request, 'visits:manage')
  const parsed = ShowSchema.safeParse(new URL(request.url).searchParams.get('show'))
  if (!parsed.success) notFound()
  const list = parsed.data
  const { companyId, timezone } = member
  const now = new Date()
  const [counts, rows] = await Promise.all([
    getDispatchCounts({ companyId, timezone, now }),
    listDispatchVisits({ companyId, timezone, list, now }),
  ])
  return {
    list,
    title: LISTS[list].title,
    empty: LISTS[list].empty,
    total: counts[LISTS[list].count],
    visits: rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      address: row.address,
      scheduled: formatDateTime(row.scheduledAt, timezone),
      status: visitState(row, { now, timezone }),
      technicianName: row.technicianName,
      skipReason: row.skipReason,
    })),
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.title} · Pool Bud` : 'Visits · Pool Bud' }]
}

export default function VisitsList({ loaderData }: Route.ComponentProps) {
  const { list, title, empty, total, visits } = loaderData
  const from = `/app/visits?show=${list}`
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Link to="/app" className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700">
        ← Back to dashboard
      </Link>
      <h1 className="text-2xl font-bold">{title}</h1>
      <Card className="space-y-3">
        {visits.length === 0 ? (
          <p className="text-sm text-slate-600">{empty}</p>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              {visits.length < total ? `Showing the oldest ${visits.length} of ${total}.` : `${total} in all.`}
            </p>
            <ul className="divide-y divide-slate-100">
              {visits.map((visit) => (
                <li key={visit.id} className="relative py-2 text-sm hover:bg-slate-50">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={visitHref(visit.id, from)}
                      className={cn('font-medium text-brand-700 hover:underline', rowLinkTarget)}
                    >
                      {visit.customerName}
                    </Link>
                    <StatusBadge status={visit.status} />
                    {visit.technicianName ? null : <StatusBadge status="Unassigned" />}
                  </div>
                  <p className="text-slate-600">
                    {visit.scheduled} · {visit.address}
                    {visit.technicianName ? ` · ${visit.technicianName}` : ''}
                    {visit.skipReason ? ` · ${visit.skipReason}` : ''}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </div>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
