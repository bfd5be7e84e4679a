import { Link } from 'react-router'
import { Pager } from '~/components/pager'
import { buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { chemistryText } from './chemistry-text'
import type { CustomerPortalData } from './customer-portal.server'
import { factLabel, factList, listCard } from './portal-section'

type Visits = CustomerPortalData['visits']
type Visit = Visits['rows'][number]

/** "Visit history": the customer's visits, newest first, a page at a time. */
export function VisitHistory({ visits }: { visits: Visits }) {
  return (
    <Card aria-labelledby="visits-heading" id="visits">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="visits-heading" className="text-lg font-semibold">
          Visit history
        </h2>
        {visits.pageCount > 1 ? (
          <p className="text-sm text-slate-600">
            Page {visits.page} of {visits.pageCount}
          </p>
        ) : null}
      </div>
      {visits.rows.length === 0 ? (
        <p className="text-slate-600">No visits yet.</p>
      ) : (
        <ol aria-label="Your visits, newest first" className="grid gap-3 md:grid-cols-2">
          {visits.rows.map((visit) => (
            <li key={visit.id} className={cn(listCard, 'space-y-2')}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold">{visit.date}</h3>
                <StatusLabel status={visit.status} />
              </div>
              <dl className={factList}>
                {visit.skipReason ? (
                  <>
                    <dt className={factLabel}>Reason</dt>
                    <dd>{visit.skipReason.replace(/^Other: /, '')}</dd>
                  </>
                ) : null}
                <dt className={factLabel}>Technician</dt>
                <dd>{visit.technician ?? (visit.status === 'Scheduled' ? 'To be assigned' : '—')}</dd>
                <dt className={factLabel}>Address</dt>
                <dd className="break-words">{visit.address}</dd>
                <dt className={factLabel}>Chemistry</dt>
                <dd>{visit.reading ? chemistryText(visit.reading) : '—'}</dd>
              </dl>
              <VisitLinks visit={visit} />
            </li>
          ))}
        </ol>
      )}
      {/* Newest visits come first, so the links speak of their age; a page change lands back on the history. */}
      {visits.pageCount > 1 ? (
        <div className="mt-4">
          <Pager
            page={visits.page}
            pageCount={visits.pageCount}
            label="Visit history pages"
            previousLabel="← Newer visits"
            nextLabel="Older visits →"
            hash="visits"
          />
        </div>
      ) : null}
    </Card>
  )
}

function StatusLabel({ status }: { status: Visit['status'] }) {
  return (
    <span
      className={cn(
        'inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1',
        status === 'Completed'
          ? 'pill-green'
          : status === 'Canceled'
            ? 'pill-slate'
            : status === 'Skipped'
              ? 'bg-amber-50 text-amber-900 ring-amber-200'
              : 'pill-brand',
      )}
    >
      {status}
    </span>
  )
}

/** The report and the photos of a visit, as buttons a thumb can hit; nothing when there are none. */
function VisitLinks({ visit }: { visit: Visit }) {
  const { reportUrl, photos, date } = visit
  if (!reportUrl && photos.length === 0) return null
  return (
    <p className="flex flex-wrap gap-2">
      {reportUrl ? (
        <Link to={reportUrl} className={buttonClass('secondary', 'text-brand-800')}>
          Report<span className="sr-only"> of the visit on {date}</span>
        </Link>
      ) : null}
      {photos.map((photo, index) => (
        // A plain link: the photo is a file, not a page of the app, so the browser opens it full size.
        <a key={photo.id} href={photo.full} className={buttonClass('secondary', 'text-brand-800')}>
          {`${photo.label} photo`}
          <span className="sr-only">
            {' '}
            ({index + 1} of {photos.length}) of the visit on {date}
          </span>
        </a>
      ))}
    </p>
  )
}
