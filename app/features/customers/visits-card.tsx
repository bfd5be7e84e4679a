// The customer record's "Upcoming visits" and a page of "Visit history" (`?history=`), each visit linking to its visit.
import { Link, useLocation } from 'react-router'
import { Pager } from '~/components/pager'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { rowLinkTarget } from '~/components/ui/touch'
import { visitHref } from '~/features/visits/back-link'
import type { CustomerRecordData, VisitData } from './customer-record.server'

export function VisitsCard({ data }: { data: Pick<CustomerRecordData, 'upcomingVisits' | 'visitHistory'> }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Upcoming visits</h2>
        {data.upcomingVisits.length === 0 ? (
          <p className="text-sm text-slate-600">No upcoming visits.</p>
        ) : (
          <VisitList visits={data.upcomingVisits} />
        )}
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Visit history</h2>
        {data.visitHistory.rows.length === 0 ? (
          <p className="text-sm text-slate-600">No visits yet.</p>
        ) : (
          <VisitList visits={data.visitHistory.rows} />
        )}
        <Pager
          page={data.visitHistory.page}
          pageCount={data.visitHistory.pageCount}
          label="Visit history pages"
          param="history"
        />
      </Card>
    </div>
  )
}

function VisitList({ visits }: { visits: readonly VisitData[] }) {
  // The visit page's back link returns here ("Back to customer").
  const { pathname } = useLocation()
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {visits.map((visit) => (
        <li
          key={visit.id}
          className="relative flex flex-wrap items-center justify-between gap-2 py-2 hover:bg-slate-50"
        >
          <div className="min-w-0">
            <Link
              to={visitHref(visit.id, pathname)}
              className={cn('font-medium text-brand-700 hover:underline', rowLinkTarget)}
            >
              {visit.when}
            </Link>
            <p className="text-slate-600">
              {visit.technician} · {visit.address}
            </p>
          </div>
          <span
            className={cn(
              'pill',
              visit.status === 'Completed' && 'pill-green',
              visit.status === 'Canceled' && 'bg-slate-100 text-slate-700 ring-slate-300',
              visit.status === 'Skipped' && 'pill-amber',
              visit.status === 'Scheduled' && 'bg-brand-50 text-brand-900 ring-brand-100',
            )}
          >
            {visit.status}
          </span>
        </li>
      ))}
    </ul>
  )
}
