import type { ReactNode } from 'react'
import { Link, useNavigation } from 'react-router'
import { SiteAccess } from '~/components/site-access'
import { ButtonLink } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { ReadingStatuses } from '~/components/water-balance'
import { DayClock } from '~/features/time/day-clock'
import { OnMyWayButton } from '~/features/visits/on-my-way-button'
import { type DaySaved, useSaveDayForOffline } from '~/field/offline-day'
import type { VisitState } from '~/models/visit-state'
import type {
  TechDashboardData,
  TechDay,
  TechHistoryVisit,
  TechOverdueVisit,
  TechStop,
  TechTab,
} from './tech-dashboard.server'

// Technicians read this outdoors on a phone with wet hands: one column, large text,
// dark-on-light colors and tap targets of at least 44 px (min-h-11).

/**
 * The technician's dashboard (docs/product.md "The visit"): "Today" in route order, "This week" by day; their own
 * visits only.
 */
export function TechDashboard({ data }: { data: TechDashboardData }) {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-slate-900">Today's route</h1>
        <p className="text-base text-slate-700">{data.today}</p>
      </header>
      <Tabs current={data.tab} />
      {data.tab === 'today' ? <TodayView data={data} /> : null}
      {data.tab === 'week' ? <WeekView days={data.week} /> : null}
      {data.tab === 'overdue' ? <OverdueView visits={data.overdue} total={data.counts.overdue} /> : null}
    </div>
  )
}

const TABS: Array<{ tab: TechTab; label: string; to: string }> = [
  { tab: 'today', label: 'Today', to: '/app' },
  { tab: 'week', label: 'This week', to: '/app?tab=week' },
]

function Tabs({ current }: { current: TechTab }) {
  const navigation = useNavigation()
  // On a slow mobile connection the tapped tab says it is loading until its page arrives.
  const loading = navigation.state === 'loading' ? `${navigation.location.pathname}${navigation.location.search}` : null
  return (
    <nav aria-label="Your schedule">
      <ul className="grid grid-cols-2 gap-1 rounded-xl bg-slate-200 p-1">
        {TABS.map(({ tab, label, to }) => (
          <li key={tab}>
            <Link
              to={to}
              aria-current={tab === current ? 'page' : undefined}
              aria-busy={loading === to || undefined}
              className={cn(
                'flex min-h-11 items-center justify-center rounded-lg text-base font-semibold',
                tab === current ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-700 hover:bg-white/60',
                loading === to && 'animate-pulse bg-white/60',
              )}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`
}

function TodayView({ data }: { data: TechDashboardData }) {
  const { stops, counts, history } = data
  const open = stops.filter((stop) => stop.state === 'open')
  const finished = stops.filter((stop) => stop.state !== 'open')
  const [next, ...later] = open
  const saved = useSaveDayForOffline(stops.map((stop) => stop.id))
  return (
    <>
      {data.clock ? <DayClock clock={data.clock} /> : null}
      <section aria-labelledby="tech-today" className="space-y-3">
        <div>
          <h2 id="tech-today" className="text-xl font-bold text-slate-900">
            Today
          </h2>
          {stops.length > 0 ? (
            <p className="text-base text-slate-700">
              {`${plural(open.length, 'stop', 'stops')} left of ${stops.length} · ${counts.completedThisWeek} completed this week`}
            </p>
          ) : null}
          <SavedOnPhone saved={stops.length > 0 ? saved : null} />
        </div>
        {counts.overdue > 0 ? (
          <p>
            <Link
              to="/app?tab=overdue"
              className="inline-flex min-h-11 items-center font-semibold text-red-800 underline underline-offset-2"
            >
              {`${plural(counts.overdue, 'overdue visit', 'overdue visits')} from earlier days`}
            </Link>
          </p>
        ) : null}
        {stops.length === 0 ? <EmptyState>No visits today.</EmptyState> : null}
        {stops.length > 0 && !next ? <EmptyState>All of today's stops are done.</EmptyState> : null}
        {next ? (
          <section aria-labelledby="tech-up-next" className="space-y-2">
            <h3 id="tech-up-next" className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
              Up next
            </h3>
            <StopCard stop={next} total={stops.length} featured />
          </section>
        ) : null}
        {later.length > 0 ? (
          <section aria-labelledby="tech-later" className="space-y-2">
            <h3 id="tech-later" className="text-sm font-semibold tracking-wide text-slate-700 uppercase">
              Later today
            </h3>
            <ol className="space-y-3">
              {later.map((stop) => (
                <li key={stop.id}>
                  <StopCard stop={stop} total={stops.length} />
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        {finished.length > 0 ? (
          <details className="group rounded-xl border border-slate-300 bg-white shadow-sm">
            <summary className="flex min-h-11 cursor-pointer list-none items-center [&::-webkit-details-marker]:hidden gap-2 px-4 text-base font-semibold text-slate-900">
              <span aria-hidden="true" className="transition-transform group-open:rotate-90">
                ▸
              </span>
              {`Finished (${finished.length})`}
            </summary>
            <ol className="divide-y divide-slate-200 border-t border-slate-200">
              {finished.map((stop) => (
                <li key={stop.id}>
                  <VisitRow
                    id={stop.id}
                    title={stop.customerName}
                    detail={`Stop ${stop.number} of ${stops.length} · ${stop.eta ? `ETA ${stop.eta}` : stop.time}`}
                  >
                    <StateBadge state={stop.state} skipReason={stop.skipReason} />
                  </VisitRow>
                </li>
              ))}
            </ol>
          </details>
        ) : null}
      </section>
      <HistorySection history={history} />
    </>
  )
}

/**
 * One open stop. The whole card opens the visit (the name's link is stretched over it); "Directions" sits above that
 * link so it stays its own target.
 */
function StopCard({ stop, total, featured = false }: { stop: TechStop; total: number; featured?: boolean }) {
  return (
    <article className={cn('stop-card', featured ? 'border-2 border-brand-700 p-5' : 'border-slate-300 p-4')}>
      <p className="text-sm font-semibold text-slate-700">
        {`Stop ${stop.number} of ${total}`} · <time>{stop.eta ? `ETA ${stop.eta}` : stop.time}</time>
      </p>
      <h4 className={cn('font-bold break-words text-slate-900', featured ? 'text-2xl' : 'text-lg')}>
        <Link to={`/app/visits/${stop.id}`} className="stop-link">
          {stop.customerName}
        </Link>
      </h4>
      <p className="mt-1 text-base break-words text-slate-800">{stop.address}</p>
      <SiteAccess access={stop.access} className="mt-3 rounded-lg bg-slate-50 p-3" />
      <a
        href={stop.directions}
        target="_blank"
        rel="noopener noreferrer"
        className={cn(
          'stop-directions',
          featured
            ? 'bg-brand-700 text-white hover:bg-brand-800'
            : 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
        )}
      >
        Directions<span className="sr-only"> to {stop.customerName} (opens in a new tab)</span>
      </a>
      {featured ? <OnMyWayButton visitId={stop.id} customerName={stop.customerName} told={stop.toldOnMyWay} /> : null}
    </article>
  )
}

const STATE_LABELS: Record<VisitState, string> = {
  open: 'Scheduled',
  completed: 'Completed',
  skipped: 'Skipped',
  canceled: 'Canceled',
}

function StateBadge({
  state,
  skipReason,
  late = false,
}: {
  state: VisitState
  skipReason?: string | null
  late?: boolean
}) {
  const label = late && state === 'open' ? 'Overdue' : STATE_LABELS[state]
  return (
    <span
      className={cn(
        'state-badge',
        // Solid red on white text stays legible in direct sunlight; the rest need less attention.
        label === 'Overdue' && 'bg-red-700 text-white',
        label === 'Scheduled' && 'bg-brand-50 text-brand-900 ring-1 ring-brand-700/30',
        label === 'Completed' && 'bg-green-100 text-green-900',
        (label === 'Skipped' || label === 'Canceled') && 'bg-amber-100 text-amber-900',
      )}
    >
      {state === 'skipped' && skipReason ? `Skipped: ${skipReason}` : label}
    </span>
  )
}

/** A compact row linking to a visit, for finished stops, the week and the overdue list. */
function VisitRow({
  id,
  title,
  detail,
  children,
}: {
  id: string
  title: string
  detail: string
  children?: ReactNode
}) {
  return (
    <Link to={`/app/visits/${id}`} className="visit-row">
      <span className="min-w-0">
        <span className="block font-semibold break-words text-slate-900">{title}</span>
        <span className="block text-sm break-words text-slate-700">{detail}</span>
      </span>
      {children}
    </Link>
  )
}

function WeekView({ days }: { days: TechDay[] }) {
  const todayIndex = days.findIndex((day) => day.isToday)
  return (
    <div className="space-y-4">
      {days.map((day, index) => (
        <section
          key={day.date}
          aria-labelledby={`day-${day.date}`}
          className={cn(
            'rounded-xl border bg-white shadow-sm',
            day.isToday ? 'border-2 border-brand-700' : 'border-slate-300',
          )}
        >
          <h2 id={`day-${day.date}`} className="px-4 pt-3 pb-2 text-lg font-bold text-slate-900">
            {day.heading}
            {day.isToday ? <span className="ml-2 text-sm font-semibold text-brand-800">Today</span> : null}
          </h2>
          {day.stops.length === 0 ? (
            <p className="border-t border-slate-200 px-4 py-3 text-base text-slate-700">No visits.</p>
          ) : (
            <ol className="divide-y divide-slate-200 border-t border-slate-200">
              {day.stops.map((stop) => (
                <li key={stop.id}>
                  <VisitRow
                    id={stop.id}
                    title={stop.customerName}
                    detail={`${stop.number}. ${stop.time} · ${stop.address}`}
                  >
                    <StateBadge state={stop.state} skipReason={stop.skipReason} late={index < todayIndex} />
                  </VisitRow>
                </li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  )
}

function OverdueView({ visits, total }: { visits: TechOverdueVisit[]; total: number }) {
  return (
    <section aria-labelledby="tech-overdue" className="space-y-3">
      <div>
        <h2 id="tech-overdue" className="text-xl font-bold text-slate-900">
          Overdue visits
        </h2>
        <p className="text-base text-slate-700">Open visits from earlier days, oldest first.</p>
      </div>
      {visits.length === 0 ? (
        <EmptyState>No overdue visits.</EmptyState>
      ) : (
        <ol className="divide-y divide-slate-200 rounded-xl border border-slate-300 bg-white shadow-sm">
          {visits.map((visit) => (
            <li key={visit.id}>
              <VisitRow id={visit.id} title={visit.customerName} detail={`${visit.when} · ${visit.address}`}>
                <StateBadge state="open" late />
              </VisitRow>
            </li>
          ))}
        </ol>
      )}
      {total > visits.length ? (
        <p className="text-sm text-slate-700">{`Showing the oldest ${visits.length} of ${total} overdue visits.`}</p>
      ) : null}
      <ButtonLink to="/app" variant="secondary" className="min-h-12 text-base">
        ← Back to Today
      </ButtonLink>
    </section>
  )
}

function HistorySection({ history }: { history: TechHistoryVisit[] }) {
  return (
    <section aria-labelledby="tech-history" className="space-y-3">
      <h2 id="tech-history" className="text-xl font-bold text-slate-900">
        History
      </h2>
      {history.length === 0 ? (
        <EmptyState>No completed visits yet.</EmptyState>
      ) : (
        <ul className="space-y-3">
          {history.map((visit) => (
            <HistoryItem key={visit.id} visit={visit} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** Whether today's stops are on the phone for when the signal goes (docs/product.md "The visit"). */
function SavedOnPhone({ saved }: { saved: DaySaved | null }) {
  let text = ''
  if (saved?.state === 'saving') text = 'Saving today’s stops on this phone…'
  if (saved?.state === 'saved') text = `${plural(saved.stops, 'stop', 'stops')} saved on this phone for offline use.`
  if (saved?.state === 'partly')
    text = 'Some of today’s stops could not be saved on this phone. Open them to save them.'
  return (
    <p role="status" className="text-sm text-slate-700">
      {text}
    </p>
  )
}

function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-xl border border-dashed border-slate-400 bg-white p-6 text-center text-base text-slate-700">
      {children}
    </p>
  )
}

function HistoryItem({ visit }: { visit: TechHistoryVisit }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-300 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <h3 className="text-lg font-bold break-words text-slate-900">{visit.customerName}</h3>
        <p className="text-base break-words text-slate-800">{visit.address}</p>
        <p className="text-base text-slate-800">
          Completed <time dateTime={visit.completedAt}>{visit.completed}</time>
          {' · '}
          <span className="font-semibold">{readingsLabel(visit.readings)}</span>
        </p>
        {visit.water ? (
          <div className="mt-2">
            <ReadingStatuses summary={visit.water} />
          </div>
        ) : null}
      </div>
      <ButtonLink to={`/app/visits/${visit.id}`} variant="secondary" className="min-h-12 text-base">
        View visit<span className="sr-only"> for {visit.customerName}</span>
      </ButtonLink>
    </li>
  )
}

export function readingsLabel(count: number) {
  if (count === 0) return 'No readings'
  return count === 1 ? '1 reading' : `${count} readings`
}
