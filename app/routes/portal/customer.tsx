import type { ReactNode } from 'react'
import { Form, Link, redirect } from 'react-router'
import { notFound, requirePortalAccess } from '~/auth/guards.server'
import { periodLabel } from '~/billing/invoice-draft'
import { RouteError } from '~/components/route-error'
import { Button, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { ReadingStatuses } from '~/components/water-balance'
import type { PhotoLabel } from '~/db/schema/visit-work'
import { AutopaySection } from '~/features/billing/autopay-section'
import { PortalInvoices } from '~/features/billing/portal-invoices'
import { getAutopayState } from '~/models/card-checkout.server'
import { getCompanySummary } from '~/models/company.server'
import { listInvoices } from '~/models/invoice.server'
import { portalInvoicePath } from '~/models/invoice-notice.server'
import { getPortal, parsePortalPage, portalPhotoUrl } from '~/models/portal.server'
import { visitReportPath } from '~/models/service-report.server'
import { PHOTO_LABEL_NAMES } from '~/models/visit-photo'
import { localDateAt } from '~/schedule/local-date'
import { DEFAULT_TIMEZONE, formatDate, formatDateTime, formatLocalDate } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { formatPhone } from '~/utils/phone'
import type { Route } from './+types/customer'

/** Invoices listed in the portal, newest first (a customer with more sees how many more there are). */
const PORTAL_INVOICES_LIMIT = 24

// The customer's read-only portal. Only that customer's own login, or staff of the same
// company who may preview portals, can see it; anyone else gets a 404 (ARCHITECTURE §4).
// The loader sends only what the page shows: no company, login, technician or storage ids.
export async function loader({ request, params }: Route.LoaderArgs) {
  const access = await requirePortalAccess(request, params.customerId)
  const url = new URL(request.url)
  const page = parsePortalPage(url.searchParams.get('page'))
  // The company came with the session (or with the staff member's own): its timezone says what is past due today.
  const company = await getCompanySummary(access.companyId)
  const today = localDateAt(new Date(), company?.timezone ?? DEFAULT_TIMEZONE)
  const [portal, invoices, autopay] = await Promise.all([
    getPortal({ companyId: access.companyId, customerId: access.customerId, page }),
    listInvoices({
      companyId: access.companyId,
      customerId: access.customerId,
      today,
      hideDrafts: true,
      size: PORTAL_INVOICES_LIMIT,
    }),
    getAutopayState(access),
  ])
  if (!portal) notFound()
  const { pageCount } = portal.visits
  // A page past the end (an old bookmark after visits were removed) shows the last one instead.
  if (page > pageCount) throw redirect(`${url.pathname}?page=${pageCount}`)

  const tz = portal.timezone
  const customerId = access.customerId
  const photoLink = (jobId: string, photo: { id: string; label: PhotoLabel }) => ({
    id: photo.id,
    label: PHOTO_LABEL_NAMES[photo.label],
    full: portalPhotoUrl(customerId, jobId, photo.id),
    thumb: portalPhotoUrl(customerId, jobId, photo.id, 'thumb'),
  })
  // Only the three values leave the server, whatever else the row carries.
  const reading = (r: Reading) => ({ ph: r.ph, chlorinePpm: r.chlorinePpm, alkalinity: r.alkalinity })
  const balance = portal.customer.balanceDueCents

  return {
    preview: access.preview,
    autopay: { ...autopay, justSaved: url.searchParams.get('card') === 'saved' },
    companyName: portal.companyName,
    customer: {
      name: portal.customer.name,
      address: portal.customer.address,
      phone: portal.customer.phone ? formatPhone(portal.customer.phone) : null,
    },
    balance: {
      settled: balance <= 0,
      due: formatCents(Math.max(balance, 0)),
      // A negative balance is money the company owes the customer.
      credit: balance < 0 ? formatCents(-balance) : null,
    },
    invoices: {
      total: invoices.total,
      rows: invoices.invoices.map((invoice) => ({
        id: invoice.id,
        href: portalInvoicePath(customerId, invoice.id),
        numberLabel: invoice.numberLabel,
        period: invoice.periodStart
          ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' })
          : 'Opening balance',
        status: invoice.status,
        total: formatCents(invoice.totalCents),
        amountDue: invoice.outstandingCents > 0 ? formatCents(invoice.outstandingCents) : null,
        dueOn: invoice.dueOn ? formatLocalDate(invoice.dueOn) : null,
      })),
    },
    counts: portal.counts,
    nextVisit: portal.nextVisit
      ? { when: formatDateTime(portal.nextVisit.scheduledAt, tz), technician: portal.nextVisit.technicianName }
      : null,
    latestReading: portal.latestReading
      ? {
          ...reading(portal.latestReading),
          takenOn: formatDate(portal.latestReading.takenAt, tz),
          summary: portal.latestReading.summary,
        }
      : null,
    visits: {
      page: portal.visits.page,
      pageCount,
      total: portal.visits.total,
      rows: portal.visits.rows.map((visit) => ({
        id: visit.id,
        date: formatDate(visit.scheduledAt, tz),
        status: visit.completedAt
          ? ('Completed' as const)
          : visit.skipReason
            ? ('Skipped' as const)
            : visit.cancelledAt
              ? ('Cancelled' as const)
              : ('Scheduled' as const),
        skipReason: visit.skipReason,
        technician: visit.technicianName,
        address: visit.address,
        reading: visit.reading ? reading(visit.reading) : null,
        photos: visit.photos.map((photo) => photoLink(visit.id, photo)),
        reportUrl: visit.completedAt ? visitReportPath(customerId, visit.id) : null,
      })),
    },
    readings: portal.readings.map((r) => ({
      ...reading(r),
      summary: r.summary,
      takenAt: formatDateTime(r.takenAt, tz),
      visitDate: formatDate(r.visitScheduledAt, tz),
    })),
    gallery: portal.gallery.map((photo) => ({
      ...photoLink(photo.jobId, photo),
      date: formatDate(photo.scheduledAt, tz),
    })),
  }
}

type Reading = { ph: number; chlorinePpm: number; alkalinity: number }

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? `${data.customer.name} · Pool Bud` : 'Customer portal · Pool Bud' }]
}

type LoaderData = Route.ComponentProps['loaderData']

function chemistryText(reading: Reading) {
  return `pH ${reading.ph} · Cl ${reading.chlorinePpm} ppm · Alk ${reading.alkalinity} ppm`
}

export default function CustomerPortal({ loaderData, params }: Route.ComponentProps) {
  const { customer, companyName, preview } = loaderData
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:py-8">
      {preview ? (
        <aside
          aria-label="Staff preview"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p>
            <strong>Staff preview.</strong> This is what {customer.name} sees when they sign in.
          </p>
          <Link to="/app/customers" className="font-semibold underline">
            Back to Customers
          </Link>
        </aside>
      ) : null}

      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          {companyName ? <p className="text-sm font-medium text-brand-700">{companyName}</p> : null}
          <h1 className="text-2xl font-bold sm:text-3xl">{customer.name}</h1>
          <p className="text-slate-600">{customer.address}</p>
          {customer.phone ? (
            <p>
              <a
                href={`tel:${customer.phone.replace(/[^\d+]/g, '')}`}
                className="inline-flex min-h-11 items-center text-slate-700 underline"
              >
                {customer.phone}
              </a>
            </p>
          ) : null}
        </div>
        {preview ? null : (
          <Form method="post" action="/logout">
            <Button type="submit" variant="secondary">
              Log out
            </Button>
          </Form>
        )}
      </header>

      <Summary data={loaderData} />
      {/* What is owed comes right after the summary: the customer came to pay as often as to look. */}
      <PortalInvoices data={{ balance: loaderData.balance, ...loaderData.invoices }} />
      <VisitHistory visits={loaderData.visits} />
      <Readings readings={loaderData.readings} />
      <Gallery photos={loaderData.gallery} />
      <AutopaySection customerId={params.customerId} autopay={loaderData.autopay} preview={preview} />
    </main>
  )
}

function Tile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 space-y-0.5">{children}</dd>
    </div>
  )
}

function Summary({ data }: { data: LoaderData }) {
  const { nextVisit, counts, latestReading, balance } = data
  return (
    <section aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="sr-only">
        Summary
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        <Tile label="Next visit">
          {nextVisit ? (
            <>
              <p className="text-lg font-semibold">{nextVisit.when}</p>
              <p className="text-sm text-slate-600">
                {nextVisit.technician ? `with ${nextVisit.technician}` : 'Technician to be assigned'}
              </p>
            </>
          ) : (
            <p className="text-lg font-semibold">No visit scheduled</p>
          )}
        </Tile>
        <Tile label="Completed visits">
          <p className="text-2xl font-bold">{counts.completed}</p>
          <p className="text-sm text-slate-600">
            of {counts.total} {counts.total === 1 ? 'visit' : 'visits'} recorded
          </p>
        </Tile>
        <Tile label="Latest chemistry">
          {latestReading ? (
            <>
              <p className="font-semibold">{chemistryText(latestReading)}</p>
              <ReadingStatuses summary={latestReading.summary} />
              <p className="text-sm text-slate-600">Taken {latestReading.takenOn}</p>
            </>
          ) : (
            <p className="text-slate-600">No chemistry readings yet.</p>
          )}
        </Tile>
        <Tile label="Balance due">
          {balance.settled ? (
            <p className="text-2xl font-bold text-emerald-700">All settled</p>
          ) : (
            <p className="text-2xl font-bold">{balance.due}</p>
          )}
        </Tile>
      </dl>
    </section>
  )
}

function StatusLabel({ status }: { status: 'Completed' | 'Skipped' | 'Cancelled' | 'Scheduled' }) {
  return (
    <span
      className={cn(
        'inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1',
        status === 'Completed'
          ? 'bg-emerald-50 text-emerald-800 ring-emerald-200'
          : status === 'Cancelled'
            ? 'bg-slate-100 text-slate-700 ring-slate-200'
            : status === 'Skipped'
              ? 'bg-amber-50 text-amber-900 ring-amber-200'
              : 'bg-brand-50 text-brand-800 ring-brand-100',
      )}
    >
      {status}
    </span>
  )
}

/** A card of a list: one visit or one reading (phone first, so no wide tables to scroll sideways). */
const listCard = 'rounded-lg border border-slate-200 p-4'
/** Label and value rows inside a card. */
const factList = 'grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm'
const factLabel = 'text-slate-600'

function VisitHistory({ visits }: { visits: LoaderData['visits'] }) {
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
      {visits.pageCount > 1 ? <Pagination page={visits.page} pageCount={visits.pageCount} /> : null}
    </Card>
  )
}

/** The report and the photos of a visit, as buttons a thumb can hit; nothing when there are none. */
function VisitLinks({ visit }: { visit: LoaderData['visits']['rows'][number] }) {
  const { reportUrl, photos, date } = visit
  if (!reportUrl && photos.length === 0) return null
  return (
    <p className="flex flex-wrap gap-2">
      {reportUrl ? (
        <Link to={reportUrl} className={buttonClass('secondary', 'text-brand-800')}>
          Report<span className="sr-only"> of the visit on {date}</span>
        </Link>
      ) : null}
      <PhotoLinks date={date} photos={photos} />
    </p>
  )
}

function PhotoLinks({ date, photos }: { date: string; photos: LoaderData['visits']['rows'][number]['photos'] }) {
  return photos.map((photo, index) => (
    // A plain link: the photo is a file, not a page of the app, so the browser opens it full size.
    <a key={photo.id} href={photo.full} className={buttonClass('secondary', 'text-brand-800')}>
      {`${photo.label} photo`}
      <span className="sr-only">
        {' '}
        ({index + 1} of {photos.length}) of the visit on {date}
      </span>
    </a>
  ))
}

function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  // Newest visits come first, so the next page holds older ones.
  const to = (n: number) => ({ search: n > 1 ? `?page=${n}` : '', hash: 'visits' })
  return (
    <nav aria-label="Visit history pages" className="mt-4 flex flex-wrap items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={to(page - 1)} className={buttonClass('secondary')} rel="prev">
          ← Newer visits
        </Link>
      ) : (
        <span />
      )}
      {page < pageCount ? (
        <Link to={to(page + 1)} className={buttonClass('secondary')} rel="next">
          Older visits →
        </Link>
      ) : null}
    </nav>
  )
}

function Readings({ readings }: { readings: LoaderData['readings'] }) {
  return (
    <Card aria-labelledby="readings-heading">
      <h2 id="readings-heading" className="mb-3 text-lg font-semibold">
        Chemistry readings
      </h2>
      {readings.length === 0 ? (
        <p className="text-slate-600">No chemistry readings yet.</p>
      ) : (
        <ol
          aria-label={`The ${readings.length} most recent readings, newest first`}
          className="grid gap-3 md:grid-cols-2"
        >
          {readings.map((reading, index) => (
            // Readings have no id on the page (none is needed); their order is fixed by the loader.
            // biome-ignore lint/suspicious/noArrayIndexKey: a static, server-ordered list
            <li key={index} className={cn(listCard, 'space-y-2')}>
              <div>
                <h3 className="font-semibold">{reading.takenAt}</h3>
                <p className="text-sm text-slate-600">Visit of {reading.visitDate}</p>
              </div>
              <dl className="grid grid-cols-3 gap-2 text-sm">
                <div>
                  <dt className={factLabel}>pH</dt>
                  <dd className="text-base font-semibold tabular-nums">{reading.ph}</dd>
                </div>
                <div>
                  <dt className={factLabel}>Chlorine</dt>
                  <dd className="text-base font-semibold tabular-nums">{reading.chlorinePpm} ppm</dd>
                </div>
                <div>
                  <dt className={factLabel}>Alkalinity</dt>
                  <dd className="text-base font-semibold tabular-nums">{reading.alkalinity} ppm</dd>
                </div>
              </dl>
              <ReadingStatuses summary={reading.summary} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}

function Gallery({ photos }: { photos: LoaderData['gallery'] }) {
  return (
    <Card aria-labelledby="gallery-heading">
      <h2 id="gallery-heading" className="mb-3 text-lg font-semibold">
        Photo gallery
      </h2>
      {photos.length === 0 ? (
        <p className="text-slate-600">No photos uploaded yet.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {photos.map((photo) => {
            const label = `${photo.label}, the visit on ${photo.date}`
            return (
              <li key={photo.id}>
                <a href={photo.full} className="group block">
                  <img
                    src={photo.thumb}
                    alt={`${label} (opens full size)`}
                    loading="lazy"
                    decoding="async"
                    width={400}
                    height={300}
                    className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200 group-hover:ring-brand-500"
                  />
                  <span aria-hidden="true" className="mt-1 block text-xs text-slate-600">
                    {label}
                  </span>
                </a>
              </li>
            )
          })}
        </ul>
      )}
    </Card>
  )
}

export function ErrorBoundary() {
  return <RouteError />
}
