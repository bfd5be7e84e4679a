import type { ReactNode } from 'react'
import { Form, useNavigation } from 'react-router'
import { SiteAccess } from '~/components/site-access'
import { Button, ButtonLink } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { ReadingStatuses } from '~/components/water-balance'
import type { TechDashboardData, TechHistoryJob, TechRouteJob } from './tech-dashboard.server'

// Technicians read this outdoors on a phone with wet hands: one column, large text,
// dark-on-light colours and tap targets of at least 44 px (min-h-11).

/** The technician's dashboard (SPEC §2): their own route and their own history, nothing else. */
export function TechDashboard({ data }: { data: TechDashboardData }) {
  const { counts, next, route, history, openTotal, today } = data
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900">Today's route</h1>
        <p className="text-base text-slate-700">{today}</p>
      </header>

      <section aria-labelledby="tech-at-a-glance">
        <h2 id="tech-at-a-glance" className="sr-only">
          At a glance
        </h2>
        <dl className="grid gap-3 sm:grid-cols-3">
          <Stat label="Today">
            <span className="text-3xl font-bold">{counts.today}</span>
            <span className="block text-sm font-semibold text-slate-700">
              {counts.today === 1 ? 'visit scheduled' : 'visits scheduled'}
            </span>
            {counts.overdue > 0 ? (
              <span className="mt-1 block text-sm font-semibold text-danger">{`${counts.overdue} overdue`}</span>
            ) : null}
          </Stat>
          <Stat label="Up next">
            {next ? (
              <>
                <span className="block text-lg font-bold break-words">{next.customerName}</span>
                <time dateTime={next.scheduledAt} className="block text-base font-semibold text-slate-800">
                  {next.when}
                </time>
                {next.status === 'Overdue' ? <StatusBadge status="Overdue" className="mt-1" /> : null}
              </>
            ) : (
              <span className="block text-lg font-semibold text-slate-700">Nothing scheduled</span>
            )}
          </Stat>
          <Stat label="Completed this week">
            <span className="text-3xl font-bold">{counts.completedThisWeek}</span>
          </Stat>
        </dl>
      </section>

      <section aria-labelledby="tech-route" className="space-y-3">
        <h2 id="tech-route" className="text-xl font-bold text-slate-900">
          Your route
        </h2>
        {route.length === 0 ? (
          <EmptyState>No open jobs assigned to you. Enjoy the sunshine.</EmptyState>
        ) : (
          <>
            <ol className="space-y-3">
              {route.map((job) => (
                <RouteItem key={job.id} job={job} />
              ))}
            </ol>
            {openTotal > route.length ? (
              <p className="text-sm text-slate-700">
                Showing the first {route.length} of {openTotal} open jobs.
              </p>
            ) : null}
          </>
        )}
      </section>

      <section aria-labelledby="tech-history" className="space-y-3">
        <h2 id="tech-history" className="text-xl font-bold text-slate-900">
          History
        </h2>
        {history.length === 0 ? (
          <EmptyState>No completed visits yet.</EmptyState>
        ) : (
          <ul className="space-y-3">
            {history.map((job) => (
              <HistoryItem key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  // A <div> (not Card's <section>): it is the only element HTML allows to group a <dt>/<dd> pair.
  return (
    <div className="rounded-xl border border-slate-300 bg-white p-4 shadow-sm">
      <dt className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{label}</dt>
      <dd className="mt-1 text-slate-900">{children}</dd>
    </div>
  )
}

function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-xl border border-dashed border-slate-400 bg-white p-6 text-center text-base text-slate-700">
      {children}
    </p>
  )
}

function StatusBadge({ status, className }: { status: TechRouteJob['status']; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold',
        // Solid red on white text stays legible in direct sunlight; "Scheduled" needs less attention.
        status === 'Overdue' ? 'bg-red-700 text-white' : 'bg-brand-50 text-brand-900 ring-1 ring-brand-700/30',
        className,
      )}
    >
      {status}
    </span>
  )
}

function RouteItem({ job }: { job: TechRouteJob }) {
  const navigation = useNavigation()
  const action = `/app/jobs/${job.id}`
  // The Form posts to the job's own route, so only a submission to this job's URL is this row's.
  const completing =
    navigation.state !== 'idle' && navigation.formAction === action && navigation.formData?.get('intent') === 'complete'
  return (
    <li
      className={cn(
        'rounded-xl border bg-white p-4 shadow-sm',
        job.status === 'Overdue' ? 'border-red-300 border-l-4 border-l-red-700' : 'border-slate-300',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="text-lg font-bold break-words text-slate-900">{job.customerName}</h3>
        <StatusBadge status={job.status} />
      </div>
      <p className="mt-1 text-base break-words text-slate-800">{job.address}</p>
      <p className="mt-1 text-base font-semibold text-slate-900">
        <time dateTime={job.scheduledAt}>{job.when}</time>
      </p>
      <SiteAccess access={job.access} className="mt-3 rounded-lg bg-slate-50 p-3" />
      <div className="mt-3 grid grid-cols-2 gap-3">
        <ButtonLink to={action} variant="secondary" className="min-h-12 text-base">
          View details<span className="sr-only"> for {job.customerName}</span>
        </ButtonLink>
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="complete" />
          <Button type="submit" className="min-h-12 w-full text-base" pending={completing} pendingLabel="Completing…">
            Mark Complete<span className="sr-only"> for {job.customerName}</span>
          </Button>
        </Form>
      </div>
    </li>
  )
}

function HistoryItem({ job }: { job: TechHistoryJob }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <h3 className="text-lg font-bold break-words text-slate-900">{job.customerName}</h3>
        <p className="text-base break-words text-slate-800">{job.address}</p>
        <p className="text-base text-slate-800">
          Completed <time dateTime={job.completedAt}>{job.completed}</time>
          {' · '}
          <span className="font-semibold">{readingsLabel(job.readings)}</span>
        </p>
        {job.water ? (
          <div className="mt-2">
            <ReadingStatuses summary={job.water} />
          </div>
        ) : null}
      </div>
      <ButtonLink to={`/app/jobs/${job.id}`} variant="secondary" className="min-h-12 text-base">
        View job<span className="sr-only"> for {job.customerName}</span>
      </ButtonLink>
    </li>
  )
}

export function readingsLabel(count: number) {
  if (count === 0) return 'No readings'
  return count === 1 ? '1 reading' : `${count} readings`
}
