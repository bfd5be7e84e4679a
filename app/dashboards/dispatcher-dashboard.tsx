import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { Pager } from '~/components/pager'
import { StatusBadge } from '~/components/status-badge'
import { Alert } from '~/components/ui/alert'
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget, textLinkTarget } from '~/components/ui/touch'
import type { AssignJobReply } from '~/features/jobs/assign-job.server'
import { AssignJobForm } from '~/features/jobs/assign-job-form'
import { CreateJobCard } from '~/features/jobs/create-job-form'
import { useHydrated } from '~/utils/use-hydrated'
import type { DispatcherDashboardData } from './dispatcher-dashboard.server'

/** The office's dashboard: counts, job creation, assignment, today's route and recent activity. */
export function DispatcherDashboard({ data }: { data: DispatcherDashboardData }) {
  const stats = [
    { label: 'Unassigned', value: data.counts.unassigned },
    { label: "Today's jobs", value: data.counts.today },
    { label: 'Overdue', value: data.counts.overdue },
    { label: 'Upcoming', value: data.counts.upcoming },
  ]
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Dispatch</h1>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{stat.label}</dt>
            <dd className="text-3xl font-bold">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <CreateJobCard
          createJobKey={data.createJobKey}
          defaultSchedule={data.defaultSchedule}
          technicians={data.technicians}
        />
        <UnassignedCard data={data} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TodaysRouteCard route={data.route} />
        <RecentActivityCard recent={data.recent} />
      </div>
    </div>
  )
}

function UnassignedCard({ data }: { data: DispatcherDashboardData }) {
  // An assigned job leaves this list as soon as the page revalidates, taking its row's
  // message with it; the card keeps the confirmation.
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Unassigned jobs</h2>
      <div aria-live="polite">{notice ? <Alert tone="success">{notice}</Alert> : null}</div>
      {data.unassigned.length === 0 ? (
        <p className="text-sm text-slate-600">Every open job has a technician.</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100">
            {data.unassigned.map((job) => (
              <UnassignedRow key={job.id} job={job} technicians={data.technicians} onSaved={setNotice} />
            ))}
          </ul>
          <Pager
            page={data.unassignedPage.page}
            pageCount={data.unassignedPage.pageCount}
            label="Unassigned jobs pages"
            param="unassigned"
            previousLabel="← Earlier"
            nextLabel="Later →"
            summary={`Showing ${data.unassignedPage.first}–${data.unassignedPage.last} of ${data.unassignedPage.total} unassigned jobs.`}
          />
        </>
      )}
    </Card>
  )
}

function UnassignedRow({
  job,
  technicians,
  onSaved,
}: {
  job: DispatcherDashboardData['unassigned'][number]
  technicians: DispatcherDashboardData['technicians']
  onSaved: (message: string) => void
}) {
  // A fetcher per row: each row saves on its own, with its own pending, success and error state.
  const fetcher = useFetcher<AssignJobReply>()
  const saved = fetcher.data?.ok
  useEffect(() => {
    if (saved) onSaved(`${job.customerName}: ${saved}`)
  }, [saved, job.customerName, onSaved])
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
      Assign<span className="sr-only"> {job.customerName}</span>
    </>
  )
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/app/jobs/${job.id}`} className={cn('font-semibold text-slate-900 hover:underline', textLinkTarget)}>
          {job.customerName}
        </Link>
        <StatusBadge status={job.status} />
        <StatusBadge status="Unassigned" />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          {job.address} · {job.scheduled}
        </p>
        {hydrated ? (
          <button
            type="button"
            className={buttonClass('secondary')}
            aria-expanded={open}
            aria-controls={`assign-row-${job.id}`}
            onClick={() => setOpen((was) => !was)}
          >
            {assignLabel}
          </button>
        ) : (
          <Link to={`/app/jobs/${job.id}`} className={buttonClass('secondary')}>
            {assignLabel}
          </Link>
        )}
      </div>
      <div id={`assign-row-${job.id}`} ref={formRef}>
        {open ? (
          <AssignJobForm job={job} technicians={technicians} row={{ customerName: job.customerName, fetcher }} />
        ) : null}
      </div>
    </li>
  )
}

function TodaysRouteCard({ route }: { route: DispatcherDashboardData['route'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Today's route</h2>
      {route.length === 0 ? (
        <p className="text-sm text-slate-600">No open jobs left today.</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {route.map((job) => (
            <li key={job.id} className="relative flex items-start gap-3 py-2 hover:bg-slate-50">
              <span className="w-20 shrink-0 text-sm font-semibold text-slate-700">{job.time}</span>
              <div className="min-w-0 flex-1">
                <Link to={`/app/jobs/${job.id}`} className={cn('font-medium hover:underline', rowLinkTarget)}>
                  {job.customerName}
                </Link>
                <p className="text-sm text-slate-600">{job.address}</p>
                <p className="text-sm text-slate-600">
                  {job.technicianName ? (
                    <>
                      {job.technicianName}
                      {job.technicianPhone ? (
                        <>
                          {' · '}
                          <a href={`tel:${job.technicianPhone}`} className="relative z-10 underline">
                            {job.technicianPhone}
                          </a>
                        </>
                      ) : null}
                    </>
                  ) : (
                    <StatusBadge status="Unassigned" />
                  )}
                </p>
              </div>
              <StatusBadge status={job.status} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}

function RecentActivityCard({ recent }: { recent: DispatcherDashboardData['recent'] }) {
  return (
    <Card className="space-y-3">
      <h2 className="text-lg font-semibold">Recent activity</h2>
      {recent.length === 0 ? (
        <p className="text-sm text-slate-600">No jobs yet. Create one above.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {recent.map((job) => (
            <li key={job.id} className="relative py-2 text-sm hover:bg-slate-50">
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/app/jobs/${job.id}`} className={cn('font-medium hover:underline', rowLinkTarget)}>
                  {job.customerName}
                </Link>
                <StatusBadge status={job.status} />
                {job.technicianName ? null : <StatusBadge status="Unassigned" />}
              </div>
              <p className="text-slate-600">
                Created {job.created} · for {job.scheduled}
                {job.technicianName ? ` · ${job.technicianName}` : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
