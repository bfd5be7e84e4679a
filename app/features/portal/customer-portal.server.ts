// What the customer portal's home (/customer/{id}) shows, shaped for the page: only what it draws leaves the server
// (no company, login, technician or storage ids; docs/product.md "Roles").
import { redirect } from 'react-router'
import { notFound } from '~/auth/guards.server'
import { invoiceSubjectLabel } from '~/billing/billing-fields'
import { periodLabel } from '~/billing/invoice-draft'
import type { PhotoLabel } from '~/db/schema/visit-work'
import { loadPortalNotifications } from '~/features/notices/portal-notifications.server'
import { autopayState } from '~/models/card-checkout.server'
import { todaysArrival } from '~/models/customer-notices.server'
import { listInvoices } from '~/models/invoice-list.server'
import { getPortal, type PortalAccess, portalPhotoUrl } from '~/models/portal.server'
import { listQuotes } from '~/models/quote-list.server'
import { PHOTO_LABEL_NAMES } from '~/models/visit-photo'
import { arrivingText } from '~/notices/arrival-window'
import { localDateAt } from '~/schedule/local-date'
import { formatDate, formatDateTime, formatLocalDate } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { formatPhone } from '~/utils/phone'
import { portalInvoicePath, portalQuotePath, visitReportPath } from '~/utils/portal-paths'
import type { Reading } from './chemistry-text'

/** Invoices listed in the portal, newest first (a customer with more sees how many more there are). */
const PORTAL_INVOICES_LIMIT = 24

/** Everything the portal home shows, for `access` (already checked) at `url` (its `?page=` and `?card=`). */
export async function loadCustomerPortal(access: PortalAccess & { timezone: string }, url: URL) {
  const page = readPage(url)
  const today = localDateAt(new Date(), access.timezone)
  const [portal, invoices, notifications, arrival, quotes] = await Promise.all([
    getPortal({ companyId: access.companyId, customerId: access.customerId, page }),
    listInvoices({
      companyId: access.companyId,
      customerId: access.customerId,
      today,
      hideDrafts: true,
      size: PORTAL_INVOICES_LIMIT,
    }),
    loadPortalNotifications(access),
    todaysArrival({ ...access, today }),
    listQuotes({ companyId: access.companyId, customerId: access.customerId, today, sentOnly: true }),
  ])
  if (!portal || !notifications) notFound()
  // The saved card is read with the portal's header (one statement fewer: the quotes list takes its place).
  const autopay = autopayState(portal.customer.autopayCardLabel)
  const { pageCount } = portal.visits
  // A page past the end (an old bookmark after visits were removed) shows the last one instead.
  if (page > pageCount) throw redirect(`${url.pathname}?page=${pageCount}`)

  const tz = portal.timezone
  const customerId = access.customerId
  const photoLink = (visitId: string, photo: { id: string; label: PhotoLabel }) => ({
    id: photo.id,
    label: PHOTO_LABEL_NAMES[photo.label],
    full: portalPhotoUrl(customerId, visitId, photo.id),
    thumb: portalPhotoUrl(customerId, visitId, photo.id, 'thumb'),
  })
  // Only the three values leave the server, whatever else the row carries.
  const reading = (r: Reading) => ({ ph: r.ph, chlorinePpm: r.chlorinePpm, alkalinity: r.alkalinity })
  const balance = portal.customer.balanceDueCents

  return {
    preview: access.preview,
    autopay: { ...autopay, justSaved: url.searchParams.get('card') === 'saved' },
    companyName: portal.companyName,
    companyLogoUrl: portal.companyLogoUrl,
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
        period:
          invoiceSubjectLabel(
            invoice.periodStart ? periodLabel({ start: invoice.periodStart, end: invoice.periodEnd ?? '' }) : null,
            invoice.workOrderNumber,
          ) ?? 'Opening balance',
        status: invoice.status,
        total: formatCents(invoice.totalCents),
        amountDue: invoice.outstandingCents > 0 ? formatCents(invoice.outstandingCents) : null,
        dueOn: invoice.dueOn ? formatLocalDate(invoice.dueOn) : null,
      })),
    },
    // Quotes the company has sent, at their latest version sent (issue 33 item 2).
    quotes: quotes.quotes.map((quote) => ({
      id: quote.id,
      href: portalQuotePath(customerId, quote.id),
      numberLabel: quote.numberLabel,
      status: quote.status,
      total: formatCents(quote.totalCents),
      validUntil: quote.validUntil,
    })),
    counts: portal.counts,
    notifications,
    // On the day of a visit: "Arriving between 10:00 AM and 12:00 PM" from the route's ETA (as reminders say it).
    arrivingToday: arrival ? arrivingText(arrival) : null,
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
            : visit.canceledAt
              ? ('Canceled' as const)
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
      ...photoLink(photo.visitId, photo),
      date: formatDate(photo.scheduledAt, tz),
    })),
  }
}

export type CustomerPortalData = Awaited<ReturnType<typeof loadCustomerPortal>>
