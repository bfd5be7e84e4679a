// The hot pages' loaders, as the app calls them, on a benchmark database (`npm run bench -- --small --keep` leaves one
// behind): the large company's owner, technician, portal customer and a visit of the technician's. bench/explain.ts
// reads their SQL's plans; bench/embedded-loaders.ts their CPU on a PGlite copy.
import { sql } from 'drizzle-orm'
import { loadAdminDashboard, loadOwnerDashboard } from '~/dashboards/business-dashboard.server'
import { loadDispatchBoard } from '~/dashboards/dispatcher-dashboard.server'
import { loadTechDashboard } from '~/dashboards/tech-dashboard.server'
import { loadCustomerPortal } from '~/features/portal/customer-portal.server'
import { listChemLogsForVisit } from '~/models/chem-log.server'
import { listCustomerDirectory } from '~/models/customer-list.server'
import { getDayRoute } from '~/models/day-route.server'
import { searchInventory } from '~/models/inventory.server'
import { getVisitForViewer } from '~/models/visit-record.server'
import { getWeekBoard, mondayOf } from '~/models/week-board.server'
import { localDateAt } from '~/schedule/local-date'
import { type Database, queryRows } from '~/utils/db.server'
import { LARGE_COMPANY, PORTAL_CUSTOMER } from './dataset'

/** Each hot page's name and its loaders' work, on `database` (which must be the installed one). */
export async function hotPages(database: Database): Promise<Array<[string, () => Promise<unknown>]>> {
  const one = async <T>(query: ReturnType<typeof sql>) => {
    const [row] = await queryRows<T>(query, database)
    if (!row) throw new Error('Not a benchmark database (npm run bench -- --small --keep makes one)')
    return row
  }
  const { id: companyId, timezone } = await one<{ id: string; timezone: string }>(
    sql`select id, timezone from companies where name = ${LARGE_COMPANY}`,
  )
  const tech = await one<{ id: string }>(sql`select id from profiles where email = 'tech@bluelagoon.test'`)
  const portal = await one<{ id: string }>(
    sql`select c.id from customers c join "user" u on u.id = c.portal_user_id where u.email = ${PORTAL_CUSTOMER}`,
  )
  const visit = await one<{ id: string }>(
    sql`select id from visits where company_id = ${companyId} and technician_id = ${tech.id} and completed_at is null order by scheduled_at limit 1`,
  )
  const search = await one<{ q: string }>(
    sql`select split_part(customer_name, ' ', 2) as q from customers where company_id = ${companyId} order by id limit 1`,
  )
  return [
    ['owner dashboard', () => loadOwnerDashboard({ companyId, timezone })],
    ['admin dashboard', () => loadAdminDashboard({ companyId, timezone })],
    ['dispatcher dashboard', () => loadDispatchBoard(new Request('http://bench.test/app'), companyId, timezone)],
    ['tech dashboard', () => loadTechDashboard({ companyId, technicianId: tech.id, timezone })],
    [`customers ?q=${search.q}`, () => listCustomerDirectory({ companyId, query: search.q })],
    ['inventory', () => searchInventory({ companyId })],
    [
      'visit page',
      async () => {
        await getVisitForViewer({ id: tech.id, role: 'tech', companyId }, visit.id)
        await listChemLogsForVisit({ companyId, visitId: visit.id })
      },
    ],
    [
      'portal',
      () =>
        loadCustomerPortal(
          { companyId, customerId: portal.id, preview: false, timezone },
          new URL(`http://bench.test/customer/${portal.id}`),
        ),
    ],
    [
      'week board',
      () =>
        getWeekBoard({
          companyId,
          timezone,
          weekStart: mondayOf(localDateAt(new Date(), timezone)),
          technicianPage: 1,
        }),
    ],
    [
      'route of a day',
      () => getDayRoute({ companyId, timezone, technicianId: tech.id, date: localDateAt(new Date(), timezone) }),
    ],
  ]
}
