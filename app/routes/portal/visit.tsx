import { Link } from 'react-router'
import { notFound, requirePortalAccess } from '~/auth/guards.server'
import { RouteError } from '~/components/route-error'
import { Card } from '~/components/ui/card'
import { ReadingStatuses } from '~/components/water-balance'
import { portalPhotoUrl } from '~/models/portal.server'
import { getVisitReport } from '~/models/service-report.server'
import { PHOTO_LABEL_NAMES } from '~/models/visit-photo'
import { describeChemical } from '~/utils/chemicals'
import { formatDate, formatTime } from '~/utils/dates'
import { describeReading } from '~/water/summary'
import type { Route } from './+types/visit'

// One completed visit's service report in the customer's portal: the same content as the email sent when the
// visit was marked complete. Only the portal's own customer (or staff previewing it) may see it; a visit of
// another customer, another company, or one not completed yet is a 404.
export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const report = await getVisitReport({
    companyId: access.companyId,
    customerId: access.customerId,
    visitId: params.visitId,
  })
  if (!report) notFound()
  const tz = report.timezone
  // Every photo of the visit, labeled; URLs of the portal's photo route, never storage keys.
  const photos = report.photos.map((photo) => ({
    id: photo.id,
    label: PHOTO_LABEL_NAMES[photo.label],
    full: portalPhotoUrl(access.customerId, report.visitId, photo.id),
    thumb: portalPhotoUrl(access.customerId, report.visitId, photo.id, 'thumb'),
  }))
  return {
    customerId: access.customerId,
    companyName: report.companyName,
    address: report.address,
    completed: `${formatDate(report.completedAt, tz)} at ${formatTime(report.completedAt, tz)}`,
    date: formatDate(report.completedAt, tz),
    technician: report.technicianName,
    checklist: report.checklist,
    customerNote: report.customerNote,
    readings: report.readings.map((reading) => ({
      takenAt: formatTime(reading.takenAt, tz),
      values: describeReading(reading),
      summary: reading.summary,
    })),
    chemicals: report.chemicals?.map(describeChemical) ?? null,
    photos,
  }
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `Service report, ${data.date} · Pool Bud` : 'Service report · Pool Bud' }]
}

export default function VisitReport({ loaderData }: Route.ComponentProps) {
  const { customerId, companyName, address, completed, technician, checklist, readings, chemicals, photos } = loaderData
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-8">
      <Link
        to={`/customer/${customerId}`}
        className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700"
      >
        ← Back to your pool
      </Link>
      <header>
        <p className="text-sm font-medium text-brand-700">{companyName}</p>
        <h1 className="text-2xl font-bold sm:text-3xl">Service report</h1>
        <p className="text-slate-600">{address}</p>
        <p className="text-slate-700">
          Completed {completed}
          {technician ? ` by ${technician}` : ''}
        </p>
      </header>

      <Card className="space-y-2" aria-labelledby="work-heading">
        <h2 id="work-heading" className="text-lg font-semibold">
          Work done
        </h2>
        {checklist.length === 0 ? <p className="text-slate-600">No checklist items were ticked.</p> : null}
        <ul className="space-y-1">
          {checklist.map((item) => (
            <li key={item}>✓ {item}</li>
          ))}
        </ul>
        {loaderData.customerNote ? (
          <div className="border-t border-slate-100 pt-2">
            <h3 className="font-medium">Note from your technician</h3>
            <p className="whitespace-pre-line text-slate-700">{loaderData.customerNote}</p>
          </div>
        ) : null}
      </Card>

      <Card className="space-y-3" aria-labelledby="chemistry-heading">
        <h2 id="chemistry-heading" className="text-lg font-semibold">
          Water chemistry
        </h2>
        {readings.length === 0 ? (
          <p className="text-slate-600">No readings were taken on this visit.</p>
        ) : (
          <ul className="space-y-3">
            {readings.map((reading) => (
              <li key={`${reading.takenAt}-${reading.values}`} className="space-y-1">
                <p>
                  <span className="font-medium">{reading.takenAt}</span>: {reading.values}
                </p>
                <ReadingStatuses summary={reading.summary} />
              </li>
            ))}
          </ul>
        )}
      </Card>

      {chemicals ? (
        <Card className="space-y-2" aria-labelledby="chemicals-heading">
          <h2 id="chemicals-heading" className="text-lg font-semibold">
            Chemicals added
          </h2>
          {chemicals.length === 0 ? (
            <p className="text-slate-600">None this visit.</p>
          ) : (
            <ul className="space-y-1">
              {chemicals.map((chemical, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the same product may be added twice; order is fixed.
                <li key={index}>{chemical}</li>
              ))}
            </ul>
          )}
        </Card>
      ) : null}

      <Card className="space-y-3" aria-labelledby="photos-heading">
        <h2 id="photos-heading" className="text-lg font-semibold">
          Photos
        </h2>
        {photos.length === 0 ? (
          <p className="text-slate-600">No photos on this visit.</p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {photos.map((photo, index) => (
              <li key={photo.id}>
                <a href={photo.full} className="block">
                  <img
                    src={photo.thumb}
                    alt={`${photo.label}, ${index + 1} of ${photos.length} of the visit (opens full size)`}
                    loading="lazy"
                    width={400}
                    height={300}
                    className="h-auto w-full rounded-lg object-cover"
                  />
                  <span aria-hidden="true" className="mt-1 block text-sm font-medium">
                    {photo.label}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
