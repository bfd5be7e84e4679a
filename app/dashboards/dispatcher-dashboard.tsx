import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { Pager } from '~/components/pager'
import { StatusBadge } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import type { AssignVisitReply } from '~/features/visits/assign-visit.server'
import { AssignVisitForm } from '~/features/visits/assign-visit-form'
import { CreateVisitCard } from '~/features/visits/create-visit-form'
import { useHydrated } from '~/utils/use-hydrated'
import type { DispatcherDashboardData } from './dispatcher-dashboard.server'

/**
 * The office's dashboard: the counts a dispatcher acts on (each opening its list), visit creation, assignment, today's
 * routes by technician and recent activity (issue 38 item 5).
 */
export function DispatcherDashboard({ data }: { data: DispatcherDashboardData }) {
  const stats = [
    { label: "Today's visits", value: data.counts.today, to: null },
    { label: 'Unassigned this week', value: data.counts.unassignedThisWeek, to: '/app/visits?show=unassigned-week' },
    { label: 'Overdue', value: data.counts.overdue, to: '/app/visits?show=overdue' },
    { label: 'Skipped this week', value: data.counts.skippedThisWeek, to: '/app/visits?show=skipped-week' },
  ]
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Dispatch</h1>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {stats.map((stat) => (
          <div
            key={stat.label}
            className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm has-[a:hover]:bg-slate-50"
          >
            <dt className="text-sm text-slate-600">
              {stat.to ? (
                <Link to={stat.to} className={cn('font-medium text-brand-700 underline', rowLinkTarget)}>
                  {stat.label}
                </Link>
              ) : (
                stat.label
              )}
            </dt>
            <dd className="text-3xl font-bold">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <CreateVisitCard
          createVisitKey={data.createVisitKey}
          defaultSchedule={data.defaultSchedule}
          technicians={data.technicians}
        />
        <UnassignedCard data={data} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TodaysRoutesCard routes={data.routes} />
        <RecentActivityCard recent={data.recent} />
      </div>
    </div>
  )
}

function UnassignedCard({ data }: { data: DispatcherDashboardData }) {
  // An assigned visit leaves this list as soon as the page revalidates, taking its row's
  // message with it; the card keeps the confirmation.
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Unassigned visits</h2>
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      {data.unassigned.length === 0 ? (
        <p className="text-sm text-slate-600">Every open visit has a technician.</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100">
            {data.unassigned.map((visit) => (
              <UnassignedRow key={visit.id} visit={visit} technicians={data.technicians} onSaved={setNotice} />
            ))}
          </ul>
          <Pager
            page={data.unassignedPage.page}
            pageCount={data.unassignedPage.pageCount}
            label="Unassigned visits pages"
            param="unassigned"
            previousLabel="← Earlier"
            nextLabel="Later →"
            summary={`Showing ${data.unassignedPage.first}–${data.unassignedPage.last} of ${data.unassignedPage.total} unassigned visits.`}
          />
        </>
      )}
    </Card>
  )
}

function UnassignedRow({
  visit,
  technicians,
  onSaved,
}: {
  visit: DispatcherDashboardData['unassigned'][number]
  technicians: DispatcherDashboardData['technicians']
  onSaved: (message: string) => void
}) {
  // A fetcher per row: each row saves on its own, with its own pending, success and error state.
  const fetcher = useFetcher<AssignVisitReply>()
  const saved = fetcher.data?.ok
  useEffect(() => {
    if (saved) onSaved(`${visit.customerName}: ${saved}`)
  }, [saved, visit.customerName, onSaved])
  // The picker is drawn when the dispatcher opens the row, not in every row of the page: each one lists the whole
  // team (ten rows of a 50-technician company were 45 kB of options). Before the page's script runs, "Assign" opens
  // the visit's page, which has the same form.
  const hydrated = useHydrated()
  const [open, setOpen] = useState(false)
  const formRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (open) formRef.current?.querySelector('select')?.focus()
  }, [open])
  const assignLabel = (
    <>
      Assign<span className="sr-only"> {visit.customerName}</span>
    </>
  )
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={`/app/visits/${visit.id}`}
          className={cn('font-semibold text-slate-900 hover:underline', textLinkTarget)}
        >
          {visit.customerName}
        </Link>
        <StatusBadge status={visit.status} />
        <StatusBadge status="Unassigned" />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          {visit.address} · {visit.scheduled}
        </p>
        {hydrated ? (
          <button
            type="button"
            className={buttonClass('secondary')}
            aria-expanded={open}
            aria-controls={`assign-row-${visit.id}`}
            onClick={() => setOpen((was) => !was)}
          >
            {assignLabel}
          </button>
        ) : (
          <Link to={`/app/visits/${visit.id}`} className={buttonClass('secondary')}>
            {assignLabel}
          </Link>
        )}
      </div>
      <div id={`assign-row-${visit.id}`} ref={formRef}>
        {open ? (
          <AssignVisitForm
            visit={visit}
            technicians={technicians}
            row={{ customerName: visit.customerName, fetcher }}
          />
        ) : null}
      </div>
    </li>
  )
}

function TodaysRoutesCard({ routes }: { routes: DispatcherDashboardData['routes'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Today's routes</h2>
      {routes.length === 0 ? (
        <p className="text-sm text-slate-600">No visits today.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {routes.map((route) => (
            <li key={route.key} className="relative flex items-center justify-between gap-3 py-2 hover:bg-slate-50">
              <Link
                to={route.to}
                className={cn(
                  'inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline',
                  rowLinkTarget,
                )}
              >
                {route.name}
              </Link>
              <span className="text-sm text-slate-700">{`${route.done} of ${route.total} stops done`}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function RecentActivityCard({ recent }: { recent: DispatcherDashboardData['recent'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Recent activity</h2>
      {recent.length === 0 ? (
        <p className="text-sm text-slate-600">No visits yet. Create one above.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.map((line) => (
            <li key={line.key} className="relative py-2 text-sm hover:bg-slate-50">
              <p>
                <Link to={line.to} className={cn('font-medium hover:underline', rowLinkTarget)}>
                  {line.customerName}
                </Link>
                {` · ${line.summary}`}
              </p>
              <p className="text-slate-600">
                Created {line.created} · for {line.scheduled}
                {line.technicianName ? ` · ${line.technicianName}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
