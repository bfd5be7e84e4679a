// No N+1 (issue #9): each hot page runs a fixed number of SQL statements whatever the company's
// size. The statements are counted at the driver (recordQueries wraps its `query`), while the real
// route loaders run for signed-in users; then the company grows tenfold and the counts must not move.
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createVisit } from '~/models/visit-changes.server'
import { loader as accountLoader } from '~/routes/app/account'
import { loader as billingLoader } from '~/routes/app/billing'
import { loader as pricesLoader } from '~/routes/app/billing-prices'
import { loader as customerLoader } from '~/routes/app/customer'
import { loader as customersLoader } from '~/routes/app/customers'
import { loader as dashboardLoader } from '~/routes/app/dashboard'
import { loader as dispatchLoader } from '~/routes/app/dispatch'
import { loader as inventoryLoader } from '~/routes/app/inventory'
import { loader as invoiceLoader } from '~/routes/app/invoice'
import { loader as profitLoader } from '~/routes/app/profit-report'
import { loader as routeDayLoader } from '~/routes/app/route-day'
import { loader as scheduleLoader } from '~/routes/app/schedule'
import { loader as settingsLoader } from '~/routes/app/settings'
import { loader as teamLoader } from '~/routes/app/team'
import { loader as visitLoader } from '~/routes/app/visit'
import { loader as portalLoader } from '~/routes/portal/customer'
import { loader as portalInvoiceLoader } from '~/routes/portal/invoice'
import { loader as portalVisitLoader } from '~/routes/portal/visit'
import { instantAt } from '~/schedule/local-date'
import { currentDatabaseHandle, type DatabaseHandle, db, queryRows, recordQueries } from '~/utils/db.server'
import { pageRequest, routeArgs } from '../helpers/requests'
import { signInAs } from '../helpers/session'
import { useDemoData } from '../helpers/test-database'

type Page = { name: string; email: string; path: string; run: (request: Request) => Promise<unknown> }

let pages: Page[] = []
/** The visits whose pages are counted: the growth gives each many more ticks, readings, chemicals and photos. */
let visitList: string[] = []
const cookies = new Map<string, string>()

async function countStatements(page: Page) {
  const cookie = cookies.get(page.email) as string
  // One call first, so nothing a first request warms up (a cached company, a lazy import) is counted.
  await page.run(pageRequest(page.path, cookie))
  const { recorded } = await recordQueries(currentDatabaseHandle() as DatabaseHandle, () =>
    page.run(pageRequest(page.path, cookie)),
  )
  if (process.env.QC_DEBUG === page.name) console.log(recorded.map((q) => q.sql.slice(0, 160)).join('\n'))
  return recorded.length
}

async function countAll() {
  const counts: Record<string, number> = {}
  for (const page of pages) counts[page.name] = await countStatements(page)
  return counts
}

/**
 * Ten times Blue Lagoon's customers, visits and readings, and 300 more visits for the portal's customer; each new
 * customer on a monthly plan with a sent invoice partly paid, and 40 more invoices and payments for the portal's
 * customer (billing's lists and the month's preview). For the schedule's pages: 30 more technicians, the new
 * locations placed on the map, 300 more visits this week (some unassigned) and 60 more stops on tech@'s today; and
 * for the visit pages (`visitIds`): 30 more checklist items all ticked, and 20 more readings, chemicals and photos
 * each, with 150 more stock items.
 */
async function growBlueLagoon(visitIds: string[]) {
  const [company] = await queryRows<{ id: string }>(sql`select id from companies where name = 'Blue Lagoon Pool Co.'`)
  const companyId = company?.id as string
  await db().execute(sql`
    insert into customers (company_id, customer_name)
    select ${companyId}, 'Grown Customer ' || g from generate_series(1, 300) g`)
  await db().execute(sql`
    insert into service_locations (company_id, customer_id, street)
    select company_id, id, replace(customer_name, 'Grown Customer ', '') || ' Grown St' from customers
    where company_id = ${companyId} and customer_name like 'Grown Customer %'`)
  await db().execute(sql`
    insert into bodies_of_water (company_id, location_id)
    select l.company_id, l.id from service_locations l where l.company_id = ${companyId} and l.street like '% Grown St'`)
  await db().execute(sql`
    insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at, technician_id)
    select c.company_id, c.id, l.id, c.customer_name, l.street, now() - (g % 400) * interval '1 day' + interval '1 hour',
           case when g % 10 = 0 then null else now() - (g % 400) * interval '1 day' + interval '2 hours' end,
           (select id from profiles where email = case when g % 2 = 0 then 'tech@bluelagoon.test' else 'tech2@bluelagoon.test' end)
    from generate_series(1, 3000) g
    join lateral (select * from customers where company_id = ${companyId} order by id offset g % 300 limit 1) c on true
    join lateral (select * from service_locations where company_id = c.company_id and customer_id = c.id limit 1) l on true`)
  await db().execute(sql`
    insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at, technician_id)
    select c.company_id, c.id, l.id, c.customer_name, l.street, now() - g * interval '2 days', now() - g * interval '2 days' + interval '1 hour',
           (select id from profiles where email = 'tech@bluelagoon.test')
    from customers c join "user" u on u.id = c.portal_user_id and u.email = 'customer@bluelagoon.test'
    join lateral (select * from service_locations where company_id = c.company_id and customer_id = c.id limit 1) l on true
    cross join generate_series(1, 300) g`)
  await db().execute(sql`
    insert into chem_logs (company_id, visit_id, ph, chlorine_ppm, alkalinity, taken_at)
    select company_id, id, 7.4, 2.5, 90, completed_at from visits
    where company_id = ${companyId} and completed_at is not null`)
  await db().execute(sql`
    insert into service_plans (company_id, location_id, weekday, starts_on, rate_cents, rate_type)
    select company_id, id, 1, '2026-01-05', 9000, 'monthly' from service_locations
    where company_id = ${companyId} and street like '% Grown St'`)
  await db().execute(sql`
    insert into invoices (company_id, customer_id, number, state, issued_on, due_on, subtotal_cents, total_cents)
    select c.company_id, c.id, 100000 + row_number() over (order by c.id, g), 'sent', '2026-09-01', '2026-09-16',
           5000, 5000
    from customers c
    left join "user" u on u.id = c.portal_user_id
    cross join generate_series(1, 40) g
    where c.company_id = ${companyId} and (c.customer_name like 'Grown Customer %' and g = 1
      or u.email = 'customer@bluelagoon.test')`)
  await db().execute(sql`
    insert into payments (company_id, customer_id, invoice_id, amount_cents, received_on, method)
    select company_id, customer_id, id, 1000, '2026-09-05', 'cash' from invoices
    where company_id = ${companyId} and number > 100000`)
  await db().execute(sql`
    insert into "user" (id, name, email)
    select 'grown-tech-' || g, 'Grown Tech ' || g, 'grown-tech-' || g || '@bluelagoon.test' from generate_series(1, 30) g`)
  await db().execute(sql`
    insert into profiles (id, company_id, role, full_name, email, has_completed_setup)
    select id, ${companyId}, 'tech', name, email, true from "user" where id like 'grown-tech-%'`)
  await db().execute(sql`
    update service_locations set lat = 27.9 + (split_part(street, ' ', 1)::int % 20) * 0.003,
                                 lng = -82.5 - (split_part(street, ' ', 1)::int / 20) * 0.003
    where company_id = ${companyId} and street like '% Grown St'`)
  // This week in the company's zone: Monday's date, and today's.
  const local = sql`(now() at time zone (select timezone from companies where id = ${companyId}))::date`
  const at = (day: ReturnType<typeof sql>, time: ReturnType<typeof sql>) =>
    sql`((${day}) + ${time}) at time zone (select timezone from companies where id = ${companyId})`
  await db().execute(sql`
    insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, technician_id)
    select c.company_id, c.id, l.id, c.customer_name, l.street,
           ${at(sql`date_trunc('week', ${local})::date + g % 7`, sql`time '07:00' + (g % 10) * interval '1 hour'`)},
           (select id from profiles where company_id = ${companyId} and role = 'tech' order by id offset g % 40 limit 1)
    from generate_series(1, 300) g
    join lateral (select * from customers where company_id = ${companyId} and customer_name like 'Grown Customer %'
                  order by id offset g % 300 limit 1) c on true
    join lateral (select * from service_locations where company_id = c.company_id and customer_id = c.id limit 1) l on true`)
  await db().execute(sql`
    insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at, technician_id)
    select c.company_id, c.id, l.id, c.customer_name, l.street, ${at(local, sql`time '06:00' + g * interval '5 minutes'`)},
           case when g % 4 = 0 then now() end, (select id from profiles where email = 'tech@bluelagoon.test')
    from generate_series(1, 60) g
    join lateral (select * from customers where company_id = ${companyId} and customer_name like 'Grown Customer %'
                  order by id offset g limit 1) c on true
    join lateral (select * from service_locations where company_id = c.company_id and customer_id = c.id limit 1) l on true`)
  await db().execute(sql`
    insert into checklist_items (company_id, label, position)
    select ${companyId}, 'Grown item ' || g, 100 + g from generate_series(1, 30) g`)
  await db().execute(sql`
    insert into inventory_items (company_id, name, sku, qty, price_cents, cost_cents)
    select ${companyId}, 'Grown Chlorine ' || g, 'GROWN-' || g, g % 10, 500, 300 from generate_series(1, 150) g`)
  for (const visitId of visitIds) {
    await db().execute(sql`
      insert into visit_checks (company_id, visit_id, item_id, label)
      select company_id, ${visitId}, id, label from checklist_items where company_id = ${companyId}
      on conflict do nothing`)
    await db().execute(sql`
      insert into chem_logs (company_id, visit_id, ph, chlorine_ppm, alkalinity, taken_at)
      select ${companyId}, ${visitId}, 7.4, 2.5, 90, now() - g * interval '1 minute' from generate_series(1, 20) g`)
    await db().execute(sql`
      insert into visit_chemical_additions (company_id, visit_id, inventory_item_id, product, quantity, unit)
      select ${companyId}, ${visitId}, id, name, 1, 'each' from inventory_items
      where company_id = ${companyId} and sku like 'GROWN-%' order by sku limit 20`)
    await db().execute(sql`
      insert into visit_photos (company_id, visit_id, label, storage_key)
      select ${companyId}, ${visitId}, 'other', 'grown/' || ${visitId} || '/' || g from generate_series(1, 20) g`)
  }
  const [grown] = await queryRows<{ visits: number }>(
    sql`select count(*)::int as visits from visits where company_id = ${companyId}`,
  )
  return grown?.visits ?? 0
}

beforeAll(async () => {
  await useDemoData()
  for (const email of [
    'owner@bluelagoon.test',
    'office@bluelagoon.test',
    'dispatch@bluelagoon.test',
    'tech@bluelagoon.test',
    'customer@bluelagoon.test',
  ]) {
    cookies.set(email, await signInAs(email))
  }
  const [dana] = await queryRows<{ id: string }>(
    sql`select c.id from customers c join "user" u on u.id = c.portal_user_id where u.email = 'customer@bluelagoon.test'`,
  )
  const [danaInvoice] = await queryRows<{ id: string }>(
    sql`select id from invoices where customer_id = ${dana?.id} order by number limit 1`,
  )
  const invoiceId = danaInvoice?.id as string
  // tech@'s open visit nearest now (the technician's and the office's visit page), and Dana's newest report.
  const [techVisit] = await queryRows<{ id: string; technicianId: string; today: string }>(
    sql`select j.id, j.technician_id as "technicianId",
               (now() at time zone c.timezone)::date::text as today
        from visits j join profiles p on p.id = j.technician_id join companies c on c.id = j.company_id
        where p.email = 'tech@bluelagoon.test' and j.completed_at is null and j.canceled_at is null
        order by abs(extract(epoch from j.scheduled_at - now())) limit 1`,
  )
  const [danaVisit] = await queryRows<{ id: string }>(
    sql`select id from visits where customer_id = ${dana?.id} and completed_at is not null
        order by completed_at desc limit 1`,
  )
  const techVisitId = techVisit?.id as string
  const danaVisitId = danaVisit?.id as string
  visitList = [techVisitId, danaVisitId]
  const technicianId = techVisit?.technicianId as string
  const today = techVisit?.today as string
  // An open visit of Dana's today, whatever the hour: the portal's home then also estimates her technician's arrival,
  // its heaviest form (the demo gives her a visit today on some days and hours only).
  const [danaPlace] = await queryRows<{ companyId: string; locationId: string; timezone: string }>(
    sql`select l.company_id as "companyId", l.id as "locationId", c.timezone from service_locations l
        join companies c on c.id = l.company_id where l.customer_id = ${dana?.id} order by l.id limit 1`,
  )
  if (!danaPlace || !dana) throw new Error('Dana has no service location')
  await createVisit({
    companyId: danaPlace.companyId,
    customerId: dana.id,
    locationId: danaPlace.locationId,
    scheduledAt: instantAt(today, '12:00', danaPlace.timezone),
    technicianId,
  })
  const dashboard = (request: Request) => dashboardLoader(routeArgs(request))
  const billing = (request: Request) => billingLoader(routeArgs(request))
  pages = [
    { name: 'owner dashboard', email: 'owner@bluelagoon.test', path: '/app', run: dashboard },
    { name: 'admin dashboard', email: 'office@bluelagoon.test', path: '/app', run: dashboard },
    { name: 'dispatcher dashboard', email: 'dispatch@bluelagoon.test', path: '/app', run: dashboard },
    { name: 'tech dashboard', email: 'tech@bluelagoon.test', path: '/app', run: dashboard },
    {
      name: 'customers search',
      email: 'owner@bluelagoon.test',
      path: '/app/customers?q=a',
      run: (request) => customersLoader(routeArgs(request)),
    },
    {
      name: 'customer record',
      email: 'owner@bluelagoon.test',
      path: `/app/customers/${dana?.id}`,
      run: (request) => customerLoader(routeArgs(request, { customerId: dana?.id as string })),
    },
    {
      name: 'profit per pool',
      email: 'owner@bluelagoon.test',
      path: '/app/reports/profit?sort=minutes&dir=desc',
      run: (request) => profitLoader(routeArgs(request)),
    },
    {
      name: 'change prices',
      email: 'owner@bluelagoon.test',
      path: '/app/billing/prices',
      run: (request) => pricesLoader(routeArgs(request)),
    },
    {
      name: 'settings',
      email: 'owner@bluelagoon.test',
      path: '/app/settings',
      run: (request) => settingsLoader(routeArgs(request)),
    },
    {
      name: 'customer portal',
      email: 'customer@bluelagoon.test',
      path: `/customer/${dana?.id}`,
      run: (request) => portalLoader(routeArgs(request, { customerId: dana?.id as string })),
    },
    { name: 'billing', email: 'owner@bluelagoon.test', path: '/app/billing', run: billing },
    {
      name: 'billing, one customer past due',
      email: 'office@bluelagoon.test',
      path: `/app/billing?customer=${dana?.id}&status=past-due`,
      run: billing,
    },
    {
      name: 'billing, the month previewed',
      email: 'owner@bluelagoon.test',
      path: '/app/billing?month=2026-10&preview=1',
      run: billing,
    },
    {
      name: 'invoice',
      email: 'owner@bluelagoon.test',
      path: `/app/invoices/${invoiceId}`,
      run: (request) => invoiceLoader(routeArgs(request, { invoiceId })),
    },
    {
      name: 'portal invoice',
      email: 'customer@bluelagoon.test',
      path: `/customer/${dana?.id}/invoices/${invoiceId}`,
      run: (request) => portalInvoiceLoader(routeArgs(request, { customerId: dana?.id as string, invoiceId })),
    },
    {
      name: 'week board',
      email: 'dispatch@bluelagoon.test',
      path: '/app/schedule',
      run: (request) => scheduleLoader(routeArgs(request)),
    },
    {
      name: 'route of a day',
      email: 'dispatch@bluelagoon.test',
      path: `/app/schedule/${technicianId}/${today}`,
      run: (request) => routeDayLoader(routeArgs(request, { technicianId, date: today })),
    },
    {
      name: 'unassigned route of a day',
      email: 'office@bluelagoon.test',
      path: `/app/schedule/unassigned/${today}`,
      run: (request) => routeDayLoader(routeArgs(request, { technicianId: 'unassigned', date: today })),
    },
    {
      name: 'dispatch',
      email: 'dispatch@bluelagoon.test',
      path: '/app/dispatch',
      run: (request) => dispatchLoader(routeArgs(request)),
    },
    {
      name: 'visit page, technician',
      email: 'tech@bluelagoon.test',
      path: `/app/visits/${techVisitId}`,
      run: (request) => visitLoader(routeArgs(request, { visitId: techVisitId })),
    },
    {
      name: 'visit page, office',
      email: 'office@bluelagoon.test',
      path: `/app/visits/${techVisitId}`,
      run: (request) => visitLoader(routeArgs(request, { visitId: techVisitId })),
    },
    {
      name: 'visit page, completed visit',
      email: 'owner@bluelagoon.test',
      path: `/app/visits/${danaVisitId}`,
      run: (request) => visitLoader(routeArgs(request, { visitId: danaVisitId })),
    },
    {
      name: 'team',
      email: 'owner@bluelagoon.test',
      path: '/app/team',
      run: (request) => teamLoader(routeArgs(request)),
    },
    {
      name: 'inventory',
      email: 'office@bluelagoon.test',
      path: '/app/inventory',
      run: (request) => inventoryLoader(routeArgs(request)),
    },
    {
      name: 'inventory, everything listed',
      email: 'tech@bluelagoon.test',
      path: '/app/inventory?q=',
      run: (request) => inventoryLoader(routeArgs(request)),
    },
    {
      name: 'account, technician',
      email: 'tech@bluelagoon.test',
      path: '/app/account',
      run: (request) => accountLoader(routeArgs(request)),
    },
    {
      name: 'portal visit report',
      email: 'customer@bluelagoon.test',
      path: `/customer/${dana?.id}/visits/${danaVisitId}`,
      run: (request) => portalVisitLoader(routeArgs(request, { customerId: dana?.id as string, visitId: danaVisitId })),
    },
  ]
})

describe('hot pages run a fixed number of SQL statements', () => {
  it('the same count with the demo data and with ten times more customers, visits and readings', async () => {
    const before = await countAll()
    for (const [name, count] of Object.entries(before)) {
      // Every page reads something, and none needs more than a dozen statements.
      expect(count, name).toBeGreaterThan(0)
      expect(count, name).toBeLessThanOrEqual(12)
    }
    const visits = await growBlueLagoon(visitList)
    expect(visits).toBeGreaterThan(3300)
    expect(await countAll()).toEqual(before)
  })
})

describe('recording a page’s statements', () => {
  it('counts what the page sends, not what a timer elsewhere in the process sends meanwhile', async () => {
    const handle = currentDatabaseHandle() as DatabaseHandle
    // A background task (an earlier test's outbox worker, say) querying while the page runs: CI once counted its
    // three statements as the portal's.
    let stopped = false
    const background = (async () => {
      while (!stopped) {
        await queryRows(sql`select 1`)
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
    })()
    const { recorded } = await recordQueries(handle, async () => {
      for (let i = 0; i < 3; i++) {
        await queryRows(sql`select 2`)
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    })
    stopped = true
    await background
    expect(recorded.map((query) => query.sql)).toEqual(['select 2', 'select 2', 'select 2'])
  })
})
