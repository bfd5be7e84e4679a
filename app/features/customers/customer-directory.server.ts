// The customer list's data (docs/product.md "Customers"): one page of the company's customers matching the search,
// "Active" or "Archived", with each one's next visit in the company's timezone, balance and portal state.

import { listCustomerDirectory } from '~/models/customer-list.server'
import { countWaitingForGeocoder } from '~/models/location-position.server'
import { visitState } from '~/models/visit-state'
import { geocoderUrl } from '~/routing/config.server'
import type { CustomerStatus } from '~/utils/customer-fields'
import { formatDateTime } from '~/utils/dates'
import { formatCents } from '~/utils/money'
import { readPage } from '~/utils/paging'
import { formatPhone } from '~/utils/phone'

/**
 * Customers per page. 25: the office finds a customer by searching, rarely by paging, and each row carries its
 * contact, address, next visit, balance and invite button (50 rows were 90 kB of HTML).
 */
export const PAGE_SIZE = 25

function readListParams(url: URL) {
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
  const status: CustomerStatus = url.searchParams.get('status') === 'archived' ? 'archived' : 'active'
  return { q, status, page: readPage(url) }
}

export async function loadCustomerDirectory({
  companyId,
  timezone,
  url,
}: {
  companyId: string
  timezone: string
  url: URL
}) {
  const { q, status, page } = readListParams(url)
  const firstTry = await listCustomerDirectory({ companyId, query: q, status, page, pageSize: PAGE_SIZE })
  // A page past the end (an old link after customers were archived) shows the last page instead.
  let list = firstTry
  const pageCount = Math.max(1, Math.ceil(list.total / PAGE_SIZE))
  if (list.rows.length === 0 && list.total > 0 && page > pageCount) {
    list = await listCustomerDirectory({ companyId, query: q, status, page: pageCount, pageSize: PAGE_SIZE })
  }
  const clock = { now: new Date(), timezone }
  return {
    // Locations still at their ZIP center waiting for the geocoder (docs/subsystems.md, "Positions"), after an import.
    placing: geocoderUrl() ? await countWaitingForGeocoder(companyId) : 0,
    q,
    status,
    page: list.page,
    pageSize: PAGE_SIZE,
    total: list.total,
    customers: list.rows.map((row) => ({
      id: row.id,
      customerName: row.customerName,
      address: row.address,
      email: row.email,
      phone: row.phone ? formatPhone(row.phone) : null,
      phoneHref: row.phone,
      nextVisit: row.nextVisitAt ? formatDateTime(row.nextVisitAt, timezone) : null,
      // The next open visit is from before today: the list says so rather than call a past date "next".
      nextVisitOverdue:
        row.nextVisitAt !== null &&
        visitState({ scheduledAt: row.nextVisitAt, completedAt: null }, clock) === 'Overdue',
      balanceDue: formatCents(row.balanceDue),
      owes: row.balanceDue > 0,
      portalStatus: row.portalStatus,
      archived: row.status === 'archived',
    })),
  }
}

export type CustomerDirectoryData = Awaited<ReturnType<typeof loadCustomerDirectory>>
