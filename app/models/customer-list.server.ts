// The customer list (docs/product.md "Customers"): one page of a company's customers matching the search, each with
// what the office looks for first (address, next visit, balance, portal access), in one query.
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import { customers, profiles, visits } from '~/db/schema'
import type { CustomerStatus } from '~/utils/customer-fields'
import { db } from '~/utils/db.server'
import { balanceCentsOf } from './balance.server'
import { pick } from './customer.server'
import { customerFilter } from './customer-search.server'
import { addressOf, firstLocationOf } from './service-location.server'

/** Whether a customer can sign in to their portal: no login, invited but not set up, or set up. */
export type PortalStatus = 'none' | 'invited' | 'active'

export const portalStatus = sql<PortalStatus>`case
  when ${customers.portalUserId} is null then 'none'
  when coalesce(${profiles.hasCompletedSetup}, false) then 'active'
  else 'invited' end`

/** A page number from anything: whole, at least 1. */
export function pageNumber(page: number | undefined) {
  return page !== undefined && Number.isFinite(page) ? Math.min(Math.max(1, Math.floor(page)), 100_000) : 1
}

/**
 * One page of the customer list (docs/product.md "Customers"): "Active" (the default) or "Archived" customers matching
 * the search, by name, with the first location's address, the next visit (the earliest open visit, which may be
 * overdue), the balance and whether they can use the portal; with the total of matches. One query: the address and next
 * visit are LATERAL index probes per row of the page, the total a window count.
 */
export async function listCustomerDirectory({
  companyId,
  query = '',
  status = 'active',
  page = 1,
  pageSize = 50,
}: {
  companyId: string
  query?: string
  status?: CustomerStatus
  page?: number
  pageSize?: number
}) {
  const size = Math.min(Math.max(1, Math.floor(pageSize)), 200)
  const current = pageNumber(page)
  const where = customerFilter(companyId, query, status)
  const location = firstLocationOf(customers)
  const nextVisit = db()
    .select({ scheduledAt: visits.scheduledAt })
    .from(visits)
    .where(
      and(
        eq(visits.companyId, customers.companyId),
        eq(visits.customerId, customers.id),
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
      ),
    )
    .orderBy(asc(visits.scheduledAt))
    .limit(1)
    .as('next_visit')
  // The page's customers first (and the total), then each one's location, next visit and balance: looked up for
  // the 50 rows shown, not for every match (a search matching 500 of 5,000 customers spent 9 ms finding next visits
  // for rows it then dropped).
  const shown = db()
    .select({ id: customers.id, total: sql<number>`count(*) over ()`.as('total') })
    .from(customers)
    .where(where)
    .orderBy(asc(customers.customerName), asc(customers.id))
    .limit(size)
    .offset((current - 1) * size)
    .as('shown')
  const rows = await db()
    .select({
      // Never null (every id on the page is a customer's): typed as the inner join would type them.
      id: shown.id,
      customerName: sql<string>`${customers.customerName}`,
      status: sql<CustomerStatus>`${customers.status}`,
      email: customers.email,
      phone: customers.phone,
      ...pick(location),
      nextVisitAt: nextVisit.scheduledAt,
      balanceDue: balanceCentsOf(customers.companyId, customers.id),
      portalStatus,
      total: sql<number>`${shown.total}`.mapWith(Number),
    })
    .from(shown)
    // A left join keeps the page (`shown`) on the outer side, worked out once. With an inner join a planner without
    // statistics (a database never analyzed) may put it inside a loop over every customer: 3.3 s instead of 71 ms.
    .leftJoin(customers, and(eq(customers.companyId, companyId), eq(customers.id, shown.id)))
    .leftJoin(profiles, eq(profiles.id, customers.portalUserId))
    .leftJoinLateral(location, sql`true`)
    .leftJoinLateral(nextVisit, sql`true`)
    .orderBy(asc(customers.customerName), asc(customers.id))
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && current > 1) {
    const [counted] = await db().select({ value: count() }).from(customers).where(where)
    total = counted?.value ?? 0
  }
  return {
    page: current,
    pageSize: size,
    total,
    rows: rows.map(({ total: _total, street, city, state, postalCode, ...row }) => ({
      ...row,
      address: addressOf({ street, city, state, postalCode }),
    })),
  }
}
