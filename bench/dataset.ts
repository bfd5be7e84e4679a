// The benchmark's dataset, generated with set-based SQL (`INSERT … SELECT generate_series(…)`)
// straight into a database the app has already migrated and seeded with the demo data. The large
// company is the demo's Blue Lagoon Pool Co., so the demo logins see it; the rest are generated.
import type pg from 'pg'

export type DatasetSize = {
  /** Companies in total, Blue Lagoon included. */
  companies: number
  largeTechnicians: number
  largeCustomers: number
  largeVisits: number
  /** Visits of Dana Whitfield (customer@bluelagoon.test), on top of the large company's visits. */
  portalVisits: number
  smallTechnicians: number
  smallCustomers: number
  smallVisits: number
  /** Readings per completed visit. */
  readingsPerVisit: number
}

export const FULL: DatasetSize = {
  companies: 200,
  largeTechnicians: 50,
  largeCustomers: 5_000,
  largeVisits: 250_000,
  portalVisits: 500,
  smallTechnicians: 6,
  smallCustomers: 150,
  smallVisits: 3_770,
  readingsPerVisit: 2,
}

export const SMALL: DatasetSize = {
  companies: 20,
  largeTechnicians: 10,
  largeCustomers: 1_000,
  largeVisits: 20_000,
  portalVisits: 500,
  smallTechnicians: 3,
  smallCustomers: 40,
  smallVisits: 1_000,
  readingsPerVisit: 2,
}

export const LARGE_COMPANY = 'Blue Lagoon Pool Co.'
export const PORTAL_CUSTOMER = 'customer@bluelagoon.test'

/** Past visits span two years; open work spans the next 30 days (a few days of it overdue). */
const HISTORY_DAYS = 730

async function timed(client: pg.Client, label: string, text: string, params: unknown[] = []) {
  const started = performance.now()
  const result = await client.query(text, params)
  console.log(`[bench]   ${label}: ${result.rowCount ?? 0} rows in ${Math.round(performance.now() - started)} ms`)
  return result
}

export async function generateDataset(client: pg.Client, size: DatasetSize) {
  const large = (await client.query(`select id from companies where name = $1`, [LARGE_COMPANY])).rows[0] as
    | { id: string }
    | undefined
  if (!large) throw new Error(`the demo company ${LARGE_COMPANY} is missing: was the database seeded?`)
  const generated = size.companies - 1

  await timed(
    client,
    'companies',
    `insert into companies (name, timezone)
     select 'Bench Pools ' || lpad(g::text, 3, '0'),
            (array['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'])[1 + g % 4]
     from generate_series(1, $1::int) g`,
    [generated],
  )
  // How much each company gets: the generated companies plus the large one.
  await client.query(
    `create temp table bench_plan as
     select id as company_id, $1::int as techs, $2::int as customers, $3::int as visits
     from companies where name like 'Bench Pools %'
     union all select $7::uuid, $4::int, $5::int, $6::int`,
    [
      size.smallTechnicians,
      size.smallCustomers,
      size.smallVisits,
      size.largeTechnicians,
      size.largeCustomers,
      size.largeVisits,
      large.id,
    ],
  )

  // Technicians: the large company already has the demo's, so it gets only the difference.
  await client.query(
    `create temp table bench_new_tech as
     select p.company_id, 'bench-tech-' || p.company_id || '-' || g as id, g
     from bench_plan p
     cross join lateral generate_series(1, p.techs - (select count(*)::int from profiles
       where company_id = p.company_id and role = 'tech')) g`,
  )
  await timed(
    client,
    'technician users',
    `insert into "user" (id, name, email, email_verified)
     select id, 'Tech ' || g, id || '@bench.test', true from bench_new_tech`,
  )
  await timed(
    client,
    'technician profiles',
    `insert into profiles (id, company_id, role, full_name, email, has_completed_setup)
     select id, company_id, 'tech', 'Tech ' || g, id || '@bench.test', true from bench_new_tech`,
  )

  await timed(
    client,
    'customers',
    `insert into customers (company_id, customer_name, phone, email, created_at)
     select p.company_id,
            (array['Avery', 'Blake', 'Casey', 'Drew', 'Emery', 'Finley', 'Harper', 'Jordan', 'Kendall', 'Logan'])[1 + g % 10]
              || ' ' || (array['Nguyen', 'Garcia', 'Smith', 'Patel', 'Johnson', 'Lee', 'Brown', 'Lopez', 'Clark', 'Hall'])[1 + (g / 10) % 10]
              || ' ' || g,
            '+1813555' || lpad((g % 10000)::text, 4, '0'),
            'customer' || g || '@' || replace(p.company_id::text, '-', '') || '.bench.test',
            now() - (g % 700) * interval '1 day'
     from bench_plan p cross join lateral generate_series(1, p.customers - (select count(*)::int from customers
       where company_id = p.company_id)) g`,
  )

  // One service location per customer (numbered like the customer) with its pool.
  await timed(
    client,
    'service locations',
    `insert into service_locations (company_id, customer_id, street, city, state)
     select c.company_id, c.id,
            n || ' ' || (array['Palm Ave', 'Coral Way', 'Bayshore Blvd', 'Gulf Dr', 'Mangrove Ln'])[1 + n % 5],
            'Tampa', 'FL'
     from customers c
     cross join lateral (select coalesce(substring(c.customer_name from '([0-9]+)$')::int, 0) as n) number
     where c.company_id in (select company_id from bench_plan)
       and not exists (select 1 from service_locations l where l.company_id = c.company_id and l.customer_id = c.id)`,
  )
  await timed(
    client,
    'bodies of water',
    `insert into bodies_of_water (company_id, location_id, gallons, surface, sanitizer)
     select l.company_id, l.id, 15000, 'plaster', 'chlorine' from service_locations l
     where l.company_id in (select company_id from bench_plan)
       and not exists (select 1 from bodies_of_water b where b.company_id = l.company_id and b.location_id = l.id)`,
  )

  // Customers and technicians numbered per company so visits can pick them arithmetically.
  await client.query(
    `create temp table bench_customer as
     select c.company_id, c.id, c.customer_name, l.id as location_id, l.street || ', ' || l.city || ', ' || l.state as address,
            (row_number() over (partition by c.company_id order by c.id) - 1)::int as n
     from customers c
     join lateral (select * from service_locations l where l.company_id = c.company_id and l.customer_id = c.id
                   order by l.position limit 1) l on true
     where c.company_id in (select company_id from bench_plan)`,
  )
  await client.query(`create index on bench_customer (company_id, n)`)
  await client.query(
    `create temp table bench_tech as
     select company_id, id, (row_number() over (partition by company_id order by id) - 1)::int as n
     from profiles
     where role = 'tech' and has_completed_setup and deactivated_at is null
       and company_id in (select company_id from bench_plan)`,
  )
  await client.query(
    `alter table bench_plan add column customer_count int, add column tech_count int;
     update bench_plan p set customer_count = (select count(*) from bench_customer c where c.company_id = p.company_id),
                             tech_count = (select count(*) from bench_tech t where t.company_id = p.company_id)`,
  )
  await client.query('analyze bench_plan; analyze bench_customer; analyze bench_tech')

  // Past visits, completed, one every few hours of working time over two years, each by one of the
  // company's technicians; the visit's day and hour are derived from its number.
  await timed(
    client,
    'past visits',
    `insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at, technician_id, created_at)
     select p.company_id, c.id, c.location_id, c.customer_name, c.address, v.at, v.at + interval '40 minutes', t.id, v.at - interval '14 days'
     from bench_plan p
     cross join lateral generate_series(1, p.visits) g
     cross join lateral (select date_trunc('day', now()) - (1 + (g::bigint * ${HISTORY_DAYS} / p.visits)) * interval '1 day'
                                + (13 + g % 9) * interval '1 hour' as at) v
     join bench_customer c on c.company_id = p.company_id and c.n = (g::bigint * 7919) % p.customer_count
     join bench_tech t on t.company_id = p.company_id and t.n = g % p.tech_count`,
  )
  // Open work: about one visit in 40 again over the next 30 days, a few overdue, one in ten unassigned.
  await timed(
    client,
    'open visits',
    `insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, technician_id, created_at)
     select p.company_id, c.id, c.location_id, c.customer_name, c.address, v.at, case when g % 10 = 0 then null else t.id end, now() - interval '7 days'
     from bench_plan p
     cross join lateral generate_series(1, greatest(p.visits / 40, 20)) g
     cross join lateral (select date_trunc('day', now()) + ((g % 33) - 3) * interval '1 day'
                                + (13 + g % 9) * interval '1 hour' as at) v
     join bench_customer c on c.company_id = p.company_id and c.n = (g::bigint * 104729) % p.customer_count
     join bench_tech t on t.company_id = p.company_id and t.n = g % p.tech_count`,
  )
  // The portal customer's long history: weekly-ish visits, most by tech@bluelagoon.test.
  await timed(
    client,
    'portal customer visits',
    `insert into visits (company_id, customer_id, location_id, customer_name, address, scheduled_at, completed_at, technician_id, created_at)
     select c.company_id, c.id, l.id, c.customer_name, l.street, v.at, v.at + interval '35 minutes',
            case when g % 4 = 0 then (select id from bench_tech t where t.company_id = c.company_id and t.n = g % 5)
                 else (select id from profiles where email = 'tech@bluelagoon.test') end,
            v.at - interval '14 days'
     from customers c
     join "user" u on u.id = c.portal_user_id and u.email = $1
     join lateral (select * from service_locations l where l.company_id = c.company_id and l.customer_id = c.id
                   order by l.position limit 1) l on true
     cross join lateral generate_series(1, $2::int) g
     cross join lateral (select date_trunc('day', now()) - (1 + g * ${HISTORY_DAYS} / $2::int) * interval '1 day'
                                + interval '14 hours' as at) v`,
    [PORTAL_CUSTOMER, size.portalVisits],
  )
  await timed(
    client,
    'chemistry readings',
    `insert into chem_logs (company_id, visit_id, ph, chlorine_ppm, alkalinity, taken_at)
     select j.company_id, j.id,
            round((7.0 + random() * 0.8)::numeric, 2),
            round((1.0 + random() * 3.0)::numeric, 2),
            round((80 + random() * 40)::numeric, 1),
            j.completed_at - k * interval '10 minutes'
     from visits j cross join generate_series(1, $1::int) k
     where j.completed_at is not null and j.company_id in (select company_id from bench_plan)
       and not exists (select 1 from chem_logs l where l.company_id = j.company_id and l.visit_id = j.id)`,
    [size.readingsPerVisit],
  )
  await client.query('drop table bench_plan, bench_new_tech, bench_customer, bench_tech')
  const started = performance.now()
  // VACUUM as well as ANALYZE: the state a database reaches on its own (autovacuum runs after this many inserts), in
  // which the visibility map is set and a count can be answered from an index alone.
  await client.query('vacuum (analyze)')
  console.log(`[bench]   vacuum and analyze: ${Math.round(performance.now() - started)} ms`)

  return { largeCompanyId: large.id, totals: await datasetTotals(client, large.id) }
}

/** The large company of a dataset made earlier (`npm run bench -- --reuse <url>`) and what the dataset holds. */
export async function existingDataset(client: pg.Client) {
  const large = (await client.query(`select id from companies where name = $1`, [LARGE_COMPANY])).rows[0] as
    | { id: string }
    | undefined
  if (!large) throw new Error(`the demo company ${LARGE_COMPANY} is missing: is this a bench database?`)
  return { largeCompanyId: large.id, totals: await datasetTotals(client, large.id) }
}

async function datasetTotals(client: pg.Client, largeCompanyId: string) {
  return (
    await client.query(
      `select (select count(*) from companies)::int as companies, (select count(*) from customers)::int as customers,
              (select count(*) from visits)::int as visits, (select count(*) from chem_logs)::int as readings,
              (select count(*) from visits where company_id = $1)::int as large_visits`,
      [largeCompanyId],
    )
  ).rows[0] as { companies: number; customers: number; visits: number; readings: number; large_visits: number }
}
