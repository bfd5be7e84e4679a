import { verifyPassword } from 'better-auth/crypto'
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { account, chemLogs, companies, customers, inventoryItems, profiles, user, visits } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { generateVisits } from '~/models/visit-generation.server'
import { startOfZonedDay, zonedDayRange, zonedParts } from '~/utils/dates'
import { type Database, db, queryRows } from '~/utils/db.server'

const BLUE_LAGOON = 'Blue Lagoon Pool Co.'
const SUNSET = 'Sunset Pool Care'
const NY = 'America/New_York'
const DAY = 86_400_000

/** The demo logins of docs/product.md "Demo". */
const DEMO_LOGINS = [
  { email: 'admin@poolbud.test', role: 'platform_admin', company: null },
  { email: 'owner@bluelagoon.test', role: 'owner', company: BLUE_LAGOON },
  { email: 'office@bluelagoon.test', role: 'admin', company: BLUE_LAGOON },
  { email: 'dispatch@bluelagoon.test', role: 'dispatcher', company: BLUE_LAGOON },
  { email: 'tech@bluelagoon.test', role: 'tech', company: BLUE_LAGOON },
  { email: 'tech2@bluelagoon.test', role: 'tech', company: BLUE_LAGOON },
  { email: 'newtech@bluelagoon.test', role: 'tech', company: BLUE_LAGOON },
  { email: 'customer@bluelagoon.test', role: 'customer', company: BLUE_LAGOON },
  { email: 'owner@sunsetpools.test', role: 'owner', company: SUNSET },
  { email: 'tech@sunsetpools.test', role: 'tech', company: SUNSET },
  { email: 'customer@sunsetpools.test', role: 'customer', company: SUNSET },
] as const

const TABLES = [
  'user',
  'account',
  'profiles',
  'companies',
  'customers',
  'service_locations',
  'bodies_of_water',
  'equipment',
  'service_plans',
  'visits',
  'chem_logs',
  'inventory_items',
] as const

async function rowCounts(database: Database = db()) {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    const [row] = await queryRows<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`, database)
    counts[table] = row?.n ?? -1
  }
  return counts
}

async function companyId(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row.id
}

async function count(query: ReturnType<typeof sql>) {
  const [row] = await queryRows<{ n: number }>(query)
  return row?.n ?? -1
}

/**
 * Seeds at `now` inside a transaction that is rolled back, so the database stays empty; returns what `inspect` read.
 */
async function seedThenRollBack<T>(now: Date, inspect: (database: Database) => Promise<T>) {
  let result: { seeded: boolean; inspected: T } | undefined
  await db()
    .transaction(async (tx) => {
      const database = tx as unknown as Database
      const seeded = await seedDemoData(database, now)
      result = { seeded, inspected: await inspect(database) }
      tx.rollback()
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error
    })
  if (!result) throw new Error('the seed did not run')
  return result
}

// Runs first, on the still-empty database: seeds at chosen clock times, each rolled back, so the real seed
// below starts from nothing.
describe('seeding at chosen clock times', () => {
  /** Blue Lagoon's kinds of water: which visits are still open depends on the clock, and the first technician's open
   * visits become standard chlorine pools. At these times (a CI run hit the first) that once swallowed every salt pool. */
  const waterKinds = async (database: Database) => {
    const [row] = await queryRows<{ sanitizers: number; surfaces: number; without: number }>(
      sql`select count(distinct b.sanitizer)::int as sanitizers, count(distinct b.surface)::int as surfaces,
            count(*) filter (where b.gallons is null or b.surface is null or b.sanitizer is null
              or b.indoor is null)::int as without
          from bodies_of_water b join companies co on co.id = b.company_id where co.name = ${BLUE_LAGOON}`,
      database,
    )
    return row
  }

  it('still gives the dashboard several visits today on a Sunday, and keeps salt pools and other surfaces', async () => {
    // 10:10 on Sunday Nov 22 2026 in New York.
    const sunday = new Date('2026-11-22T15:10:00Z')
    const { start, end } = zonedDayRange(sunday, NY)
    const result = await seedThenRollBack(sunday, async (database) => {
      const [row] = await queryRows<{ n: number }>(
        sql`select count(*)::int as n from visits join companies c on c.id = visits.company_id
            where c.name = ${BLUE_LAGOON} and visits.scheduled_at >= ${start.toISOString()}::timestamptz
            and visits.scheduled_at < ${end.toISOString()}::timestamptz`,
        database,
      )
      return { today: row?.n ?? 0, water: await waterKinds(database) }
    })
    expect(result.seeded).toBe(true)
    expect(result.inspected.today).toBeGreaterThanOrEqual(3)
    expect(result.inspected.water).toEqual({ sanitizers: 2, surfaces: 3, without: 0 })
    expect((await rowCounts()).user).toBe(0)
  })

  it('keeps salt pools and other surfaces, every profile filled, when seeded at 2026-11-28T06:10:00Z', async () => {
    const { inspected } = await seedThenRollBack(new Date('2026-11-28T06:10:00Z'), waterKinds)
    expect(inspected).toEqual({ sanitizers: 2, surfaces: 3, without: 0 })
  })
})

// Every day of a week, at 10:00 in New York: each technician's day as the server shows it after start-up's generation.
describe('routes on every day of the week', () => {
  it.each([
    '2026-11-23T15:00:00Z',
    '2026-11-24T15:00:00Z',
    '2026-11-25T15:00:00Z',
    '2026-11-26T15:00:00Z',
    '2026-11-27T15:00:00Z',
    '2026-11-28T15:00:00Z',
    '2026-11-29T15:00:00Z',
  ])(
    'seeded at %s: every technician has 12 to 16 stops today, 8 weeks of history with readings, a few overdue',
    async (time) => {
      const now = new Date(time)
      const { start, end } = zonedDayRange(now, NY)
      const { inspected: days } = await seedThenRollBack(now, async (database) => {
        await generateVisits({ now, executor: database })
        return queryRows<{ email: string; today: number; history: number; read: number; overdue: number }>(
          sql`select p.email,
                count(*) filter (where j.scheduled_at >= ${start.toISOString()}::timestamptz
                  and j.scheduled_at < ${end.toISOString()}::timestamptz and j.canceled_at is null)::int as today,
                count(*) filter (where j.plan_id is not null and j.completed_at is not null
                  and j.scheduled_at < ${start.toISOString()}::timestamptz
                  and j.scheduled_at >= ${startOfZonedDay(now, NY, -56).toISOString()}::timestamptz)::int as history,
                count(*) filter (where j.plan_id is not null and j.completed_at is not null
                  and exists (select 1 from chem_logs r where r.visit_id = j.id))::int as read,
                count(*) filter (where j.completed_at is null and j.canceled_at is null
                  and j.scheduled_at < ${start.toISOString()}::timestamptz)::int as overdue
              from profiles p join visits j on j.technician_id = p.id
              where p.email in ('tech@bluelagoon.test', 'tech2@bluelagoon.test', 'tech@sunsetpools.test')
              group by p.email order by p.email`,
          database,
        )
      })
      expect(days.map((day) => day.email)).toEqual([
        'tech2@bluelagoon.test',
        'tech@bluelagoon.test',
        'tech@sunsetpools.test',
      ])
      for (const day of days) {
        expect(day.today, day.email).toBeGreaterThanOrEqual(12)
        expect(day.today, day.email).toBeLessThanOrEqual(16)
        // Five working days a week of 9 to 12 houses, for 8 weeks.
        expect(day.history, day.email).toBeGreaterThanOrEqual(5 * 9 * 7)
        expect(day.read, day.email).toBeGreaterThanOrEqual(day.history)
        expect(day.overdue, day.email).toBeLessThanOrEqual(12)
      }
    },
  )
})

describe('seedDemoData', () => {
  const now = new Date()
  let seeded: boolean
  let blueLagoon: string
  let sunset: string

  beforeAll(async () => {
    seeded = await seedDemoData(db(), now)
    blueLagoon = await companyId(BLUE_LAGOON)
    sunset = await companyId(SUNSET)
  })

  it('reports that it wrote the demo', () => {
    expect(seeded).toBe(true)
  })

  it('creates every demo login with its role and company, verified so it can sign in', async () => {
    const rows = await db()
      .select({
        email: user.email,
        emailVerified: user.emailVerified,
        role: profiles.role,
        profileEmail: profiles.email,
        company: companies.name,
        done: profiles.hasCompletedSetup,
        deactivatedAt: profiles.deactivatedAt,
      })
      .from(user)
      .innerJoin(profiles, eq(profiles.id, user.id))
      .leftJoin(companies, eq(companies.id, profiles.companyId))
    for (const login of DEMO_LOGINS) {
      const row = rows.find((r) => r.email === login.email)
      expect(row, login.email).toBeDefined()
      expect(row, login.email).toMatchObject({
        role: login.role,
        company: login.company,
        profileEmail: login.email,
        emailVerified: true,
        deactivatedAt: null,
      })
    }
  })

  it('leaves newtech@bluelagoon.test with setup unfinished, and everyone else set up', async () => {
    const rows = await db().select({ email: profiles.email, done: profiles.hasCompletedSetup }).from(profiles)
    const done = Object.fromEntries(rows.map((r) => [r.email, r.done]))
    for (const { email } of DEMO_LOGINS) {
      expect(done[email], email).toBe(email !== 'newtech@bluelagoon.test')
    }
  })

  it('makes customer@bluelagoon.test the portal login of Dana Whitfield, a Blue Lagoon customer', async () => {
    const [dana] = await db()
      .select({ name: customers.customerName, companyId: customers.companyId })
      .from(customers)
      .innerJoin(user, eq(user.id, customers.portalUserId))
      .where(eq(user.email, 'customer@bluelagoon.test'))
    expect(dana).toEqual({ name: 'Dana Whitfield', companyId: blueLagoon })

    const [sunsetCustomer] = await db()
      .select({ companyId: customers.companyId })
      .from(customers)
      .innerJoin(user, eq(user.id, customers.portalUserId))
      .where(eq(user.email, 'customer@sunsetpools.test'))
    expect(sunsetCustomer).toEqual({ companyId: sunset })
  })

  it('uses pooldemo123 as every demo password', async () => {
    for (const { email } of DEMO_LOGINS) {
      const [row] = await db()
        .select({ hash: account.password })
        .from(account)
        .innerJoin(user, eq(user.id, account.userId))
        .where(and(eq(user.email, email), eq(account.providerId, 'credential')))
      expect(row?.hash, email).toBeTruthy()
      const hash = row?.hash ?? ''
      // Stored as a hash, never as the password itself.
      expect(hash).not.toContain('pooldemo123')
      expect(await verifyPassword({ hash, password: 'pooldemo123' }), email).toBe(true)
    }
    // And the hash really checks the password.
    const [owner] = await db()
      .select({ hash: account.password })
      .from(account)
      .innerJoin(user, eq(user.id, account.userId))
      .where(eq(user.email, 'owner@bluelagoon.test'))
    expect(await verifyPassword({ hash: owner?.hash ?? '', password: 'pooldemo124' })).toBe(false)
  })

  it('gives Blue Lagoon at least 30 customers, all active, with E.164 phones', async () => {
    expect(
      await count(sql`select count(*)::int as n from customers where company_id = ${blueLagoon}`),
    ).toBeGreaterThanOrEqual(30)
    expect(
      await count(sql`select count(*)::int as n from customers where status <> 'active' or phone !~ '^[+]1[0-9]{10}$'`),
    ).toBe(0)
  })

  it('puts Blue Lagoon in the Tampa metro: every location has an address and plausible coordinates', async () => {
    const locations = await queryRows<{ city: string; state: string; zip: string; lat: number; lng: number }>(
      sql`select city, state, postal_code as zip, lat::float8 as lat, lng::float8 as lng
          from service_locations where company_id = ${blueLagoon}`,
    )
    expect(new Set(locations.map((l) => l.city))).toEqual(new Set(['Tampa', 'St. Petersburg', 'Clearwater', 'Brandon']))
    for (const l of locations) {
      expect(l.state).toBe('FL')
      expect(l.zip).toMatch(/^33\d{3}$/)
      // Tampa Bay: between Clearwater Beach and east of Brandon, St. Petersburg and New Tampa.
      expect(l.lat > 27.7 && l.lat < 28.2 && l.lng > -82.85 && l.lng < -82.25, JSON.stringify(l)).toBe(true)
    }
  })

  it('has the accounts a pool company has: houses with a pool, pool + spa, a landlord and an HOA', async () => {
    const shapes = await queryRows<{ name: string; locations: number; bodies: string[] }>(
      sql`select c.customer_name as name, count(distinct l.id)::int as locations,
            array_agg(b.name order by l.position, b.position) as bodies
          from customers c join service_locations l on l.company_id = c.company_id and l.customer_id = c.id
          join bodies_of_water b on b.company_id = l.company_id and b.location_id = l.id
          where c.company_id = ${blueLagoon} group by c.customer_name`,
    )
    const poolOnly = shapes.filter((c) => c.locations === 1 && c.bodies.join() === 'Pool')
    const poolAndSpa = shapes.filter((c) => c.locations === 1 && c.bodies.join() === 'Pool,Spa')
    expect(poolOnly.length).toBeGreaterThan(shapes.length / 2)
    expect(poolAndSpa.length).toBeGreaterThanOrEqual(4)
    expect(shapes.find((c) => c.name === 'Vance Rental Properties')).toMatchObject({ locations: 3 })
    expect(shapes.find((c) => c.name === 'Bayshore Palms HOA')).toEqual({
      name: 'Bayshore Palms HOA',
      locations: 1,
      bodies: ['Community pool', 'Spa'],
    })
    const [hoaPool] = await queryRows<{ gallons: number }>(
      sql`select gallons from bodies_of_water where company_id = ${blueLagoon} and name = 'Community pool'`,
    )
    expect(hoaPool?.gallons).toBeGreaterThanOrEqual(50_000)
  })

  it('fills every body of water’s profile and gives each real equipment', async () => {
    const [bodies] = await queryRows<{ incomplete: number; bare: number }>(
      sql`select count(*) filter (where gallons is null or surface is null or sanitizer is null
              or indoor is null)::int as incomplete,
            count(*) filter (where not exists (select 1 from equipment e where e.company_id = b.company_id
              and e.body_of_water_id = b.id and e.kind = 'pump'))::int as bare
          from bodies_of_water b where company_id in (${blueLagoon}, ${sunset})`,
    )
    expect(bodies).toEqual({ incomplete: 0, bare: 0 })
    const models = (
      await queryRows<{ model: string }>(
        sql`select distinct make || ' ' || model as model from equipment where company_id = ${blueLagoon}`,
      )
    ).map((row) => row.model)
    for (const expected of [
      /Pentair IntelliFlo VSF/,
      /Hayward SwimClear/,
      /Jandy JXi/,
      /Pentair IntelliChlor/,
      /Polaris/,
    ]) {
      expect(
        models.some((model) => expected.test(model)),
        String(expected),
      ).toBe(true)
    }
    // Salt pools have a salt cell.
    expect(
      await count(
        sql`select count(*)::int as n from bodies_of_water b where b.company_id = ${blueLagoon}
            and b.sanitizer = 'salt' and not exists (select 1 from equipment e where e.company_id = b.company_id
            and e.body_of_water_id = b.id and e.kind = 'chlorinator')`,
      ),
    ).toBe(0)
  })

  it('gives some locations gate codes and dogs, and every one 15 to 60 minutes on site', async () => {
    const [row] = await queryRows<{ gates: number; dogs: number; dogsWithoutNotes: number; outside: number }>(
      sql`select count(*) filter (where gate_code is not null)::int as gates,
            count(*) filter (where dog_on_site)::int as dogs,
            count(*) filter (where dog_on_site and access_notes is null)::int as "dogsWithoutNotes",
            count(*) filter (where minutes_on_site not between 15 and 60)::int as outside
          from service_locations where company_id = ${blueLagoon}`,
    )
    expect(row?.gates).toBeGreaterThanOrEqual(5)
    expect(row?.dogs).toBeGreaterThanOrEqual(5)
    expect(row).toMatchObject({ dogsWithoutNotes: 0, outside: 0 })
  })

  it('gives locations service plans with a weekday, a technician of the company and a rate', async () => {
    const [row] = await queryRows<{ plans: number; foreign: number; withoutPlan: number }>(
      sql`select count(*)::int as plans,
            count(*) filter (where p.technician_id is not null and not exists (select 1 from profiles t
              where t.id = p.technician_id and t.company_id = p.company_id and t.role = 'tech'))::int as foreign,
            (select count(*)::int from service_locations l where l.company_id = ${blueLagoon} and not exists
              (select 1 from service_plans q where q.company_id = l.company_id and q.location_id = l.id)) as "withoutPlan"
          from service_plans p where p.company_id = ${blueLagoon}`,
    )
    expect(row?.plans).toBeGreaterThanOrEqual(30)
    expect(row).toMatchObject({ foreign: 0, withoutPlan: 0 })
  })

  it('schedules Blue Lagoon visits from about 60 days ago to about 30 days ahead, in working hours', async () => {
    const rows = await db()
      .select({ scheduledAt: visits.scheduledAt })
      .from(visits)
      .where(eq(visits.companyId, blueLagoon))
      .orderBy(visits.scheduledAt)
    expect(rows.length).toBeGreaterThan(100)
    const first = rows[0]?.scheduledAt ?? now
    const last = rows[rows.length - 1]?.scheduledAt ?? now
    expect(first >= startOfZonedDay(now, NY, -60)).toBe(true)
    expect(first < startOfZonedDay(now, NY, -57)).toBe(true)
    expect(last >= startOfZonedDay(now, NY, 28)).toBe(true)
    expect(last < startOfZonedDay(now, NY, 31)).toBe(true)
    // Visits are booked at daytime hours in the company's timezone, not in UTC.
    for (const { scheduledAt } of rows) {
      const { hour } = zonedParts(scheduledAt, NY)
      expect(hour >= 7 && hour <= 17, scheduledAt.toISOString()).toBe(true)
    }
  })

  it('spreads each route’s visits through the day at the route’s ETAs, never in bulk at 8:00 or 12:00', async () => {
    const [row] = await queryRows<{ total: number; bulk: number; times: number; disorder: number }>(
      sql`select count(*)::int as total,
            count(*) filter (where same_minute > 1)::int as bulk,
            count(distinct to_char(scheduled_at at time zone timezone, 'HH24:MI'))::int as times,
            count(*) filter (where scheduled_at <= before)::int as disorder
          from (select j.scheduled_at, c.timezone,
                  count(*) over (partition by j.technician_id, j.occurrence_date, date_trunc('minute', j.scheduled_at))
                    as same_minute,
                  lag(j.scheduled_at) over (
                    partition by j.technician_id, j.occurrence_date order by j.route_position) as before
                from visits j join companies c on c.id = j.company_id
                where j.plan_id is not null) route`,
    )
    expect(row?.total).toBeGreaterThan(1000)
    // In bulk would be several stops of one technician's day at one time (the window's start, 8:00 or 12:00). A single
    // stop may fall on the hour: the first, less than a minute's drive from the yard, is reached at 8:00, and the same
    // route repeats every week, so a share of visits on the hour is no measure (a CI run seeded on a Monday found
    // Sunset's Monday and Tuesday first stops at 8:00 and one of Blue Lagoon's at 12:00, 25 of 1,160 visits).
    expect(row?.bulk).toBe(0)
    expect(row?.times).toBeGreaterThan(100)
    // In route order, each stop later than the one before.
    expect(row?.disorder).toBe(0)
  })

  it('has completed visits, each with a chemistry reading, none completed in the future', async () => {
    const completed = await count(
      sql`select count(*)::int as n from visits where company_id = ${blueLagoon} and completed_at is not null`,
    )
    expect(completed).toBeGreaterThanOrEqual(50)
    const withoutReading = await count(
      sql`select count(*)::int as n from visits j where j.company_id = ${blueLagoon} and j.completed_at is not null
          and not exists (select 1 from chem_logs c where c.visit_id = j.id)`,
    )
    expect(withoutReading).toBe(0)
    const impossible = await count(
      sql`select count(*)::int as n from visits where completed_at is not null
          and (completed_at > ${now.toISOString()}::timestamptz or completed_at < scheduled_at)`,
    )
    expect(impossible).toBe(0)
    const readings = await db()
      .select({ ph: chemLogs.ph, chlorine: chemLogs.chlorinePpm, alkalinity: chemLogs.alkalinity })
      .from(chemLogs)
      .where(eq(chemLogs.companyId, blueLagoon))
    expect(readings.length).toBeGreaterThanOrEqual(completed)
    for (const r of readings) {
      expect(r.ph >= 6.5 && r.ph <= 8.5 && r.chlorine >= 0 && r.chlorine <= 10 && r.alkalinity <= 250).toBe(true)
    }
  })

  it('has overdue visits: still open and scheduled before today', async () => {
    const today = startOfZonedDay(now, NY)
    expect(
      await count(
        sql`select count(*)::int as n from visits where company_id = ${blueLagoon} and completed_at is null
            and scheduled_at < ${today.toISOString()}::timestamptz`,
      ),
    ).toBeGreaterThanOrEqual(1)
  })

  it('has unassigned open visits', async () => {
    expect(
      await count(
        sql`select count(*)::int as n from visits where company_id = ${blueLagoon} and completed_at is null
            and technician_id is null`,
      ),
    ).toBeGreaterThanOrEqual(1)
  })

  it('has several visits today in New York', async () => {
    const { start, end } = zonedDayRange(now, NY)
    expect(
      await count(
        sql`select count(*)::int as n from visits where company_id = ${blueLagoon}
            and scheduled_at >= ${start.toISOString()}::timestamptz and scheduled_at < ${end.toISOString()}::timestamptz`,
      ),
    ).toBeGreaterThanOrEqual(3)
  })

  it('gives Dana Whitfield and every pool on tech@bluelagoon.test’s open visits a 15,000-gallon chlorine plaster profile', async () => {
    // "The pool" of a visit is the first body of water at its location.
    const pools = await queryRows<{ location: string; volume: number; surface: string; sanitizer: string }>(
      sql`select distinct l.id as location, b.gallons as volume, b.surface, b.sanitizer
          from service_locations l
          join customers c on c.company_id = l.company_id and c.id = l.customer_id
          join bodies_of_water b on b.company_id = l.company_id and b.location_id = l.id and b.position = 0
          where l.company_id = ${blueLagoon} and (c.customer_name = 'Dana Whitfield' or l.id in (
            select j.location_id from visits j join profiles p on p.id = j.technician_id
            where j.company_id = ${blueLagoon} and j.completed_at is null and p.email = 'tech@bluelagoon.test'))`,
    )
    expect(pools.length).toBeGreaterThan(1)
    for (const pool of pools) expect(pool).toMatchObject({ volume: 15_000, surface: 'plaster', sanitizer: 'chlorine' })
    const [variety] = await queryRows<{ surfaces: number; sanitizers: number }>(
      sql`select count(distinct surface)::int as surfaces, count(distinct sanitizer)::int as sanitizers
          from bodies_of_water where company_id = ${blueLagoon}`,
    )
    // The rest vary, so the office sees salt pools and other surfaces.
    expect(variety?.surfaces).toBeGreaterThanOrEqual(2)
    expect(variety?.sanitizers).toBe(2)
  })

  it('fills the optional readings (stabilizer, hardness, temperature) on some visits only', async () => {
    const [counts] = await queryRows<{ full: number; basic: number }>(
      sql`select count(*) filter (where cyanuric_acid is not null and calcium_hardness is not null
              and water_temp_f is not null)::int as full,
            count(*) filter (where cyanuric_acid is null)::int as basic
          from chem_logs where company_id = ${blueLagoon}`,
    )
    expect(counts?.full).toBeGreaterThan(10)
    expect(counts?.basic).toBeGreaterThan(5)
  })

  it('assigns visits only to technicians who have finished setup', async () => {
    const assignees = await queryRows<{ role: string | null; done: boolean; email: string }>(
      sql`select distinct p.role, p.has_completed_setup as done, p.email from visits j
          join profiles p on p.id = j.technician_id where j.company_id = ${blueLagoon}`,
    )
    expect(assignees.map((a) => a.email).sort()).toEqual(['tech2@bluelagoon.test', 'tech@bluelagoon.test'])
  })

  it('stocks at least 12 inventory items, with chlorine products and some running low', async () => {
    const items = await db()
      .select({ name: inventoryItems.name, qty: inventoryItems.qty })
      .from(inventoryItems)
      .where(eq(inventoryItems.companyId, blueLagoon))
    expect(items.length).toBeGreaterThanOrEqual(12)
    expect(items.filter((i) => /chlorine/i.test(i.name)).length).toBeGreaterThanOrEqual(2)
    expect(items.filter((i) => i.qty <= 5).length).toBeGreaterThanOrEqual(1)
  })

  it('records chemicals from stock on completed visits, and gives technicians an hourly cost ("Profit per pool")', async () => {
    const [row] = await queryRows<{ visits: number; with_chemicals: number; cost_cents: number; open_dosed: number }>(
      sql`select count(distinct j.id)::int as visits,
            count(distinct a.visit_id)::int as with_chemicals,
            coalesce(sum(round(a.quantity * it.cost_cents)), 0)::int as cost_cents,
            count(a.id) filter (where j.completed_at is null)::int as open_dosed
          from visits j
          left join visit_chemical_additions a on a.company_id = j.company_id and a.visit_id = j.id
          left join inventory_items it on it.company_id = a.company_id and it.id = a.inventory_item_id
          where j.company_id = ${blueLagoon} and (j.completed_at is not null or a.id is not null)`,
    )
    expect(row?.with_chemicals).toBeGreaterThan((row?.visits ?? 0) * 0.7)
    expect(row?.cost_cents).toBeGreaterThan(0)
    expect(row?.open_dosed).toBe(0)
    const techs = await db()
      .select({ email: profiles.email, hourlyCostCents: profiles.hourlyCostCents })
      .from(profiles)
      .where(eq(profiles.role, 'tech'))
    for (const tech of techs) expect(tech.hourlyCostCents, tech.email).toBeGreaterThanOrEqual(2400)
    for (const tech of techs) expect(tech.hourlyCostCents, tech.email).toBeLessThanOrEqual(2800)
  })

  it('gives Sunset Pool Care its own smaller set', async () => {
    const sizes = async (company: string) => ({
      customers: await count(sql`select count(*)::int as n from customers where company_id = ${company}`),
      visits: await count(sql`select count(*)::int as n from visits where company_id = ${company}`),
      items: await count(sql`select count(*)::int as n from inventory_items where company_id = ${company}`),
      staff: await count(sql`select count(*)::int as n from profiles where company_id = ${company}`),
    })
    const big = await sizes(blueLagoon)
    const small = await sizes(sunset)
    for (const key of ['customers', 'visits', 'items', 'staff'] as const) {
      expect(small[key], key).toBeGreaterThan(0)
      expect(small[key], key).toBeLessThan(big[key])
    }
    const [{ timezone } = { timezone: '' }] = await db()
      .select({ timezone: companies.timezone })
      .from(companies)
      .where(eq(companies.id, sunset))
    expect(timezone).toBe('America/Phoenix')
  })

  it('never links a record of one company to the other', async () => {
    // Visits → customers of another company.
    expect(
      await count(
        sql`select count(*)::int as n from visits j join customers c on c.id = j.customer_id
            where c.company_id <> j.company_id or c.customer_name <> j.customer_name`,
      ),
    ).toBe(0)
    // Visits → technicians of another company (or people who are not technicians).
    expect(
      await count(
        sql`select count(*)::int as n from visits j join profiles p on p.id = j.technician_id
            where p.company_id is distinct from j.company_id or p.role <> 'tech'`,
      ),
    ).toBe(0)
    // Portal logins → profiles of another company, or that are not customers.
    expect(
      await count(
        sql`select count(*)::int as n from customers c join profiles p on p.id = c.portal_user_id
            where p.company_id is distinct from c.company_id or p.role <> 'customer'`,
      ),
    ).toBe(0)
    // Readings → visits of another company.
    expect(
      await count(
        sql`select count(*)::int as n from chem_logs l join visits j on j.id = l.visit_id where j.company_id <> l.company_id`,
      ),
    ).toBe(0)
    // Visits → a location of another customer, or booked at another address than the location's.
    expect(
      await count(
        sql`select count(*)::int as n from visits j join service_locations l on l.id = j.location_id
            where l.customer_id <> j.customer_id
              or j.address <> l.street || ', ' || l.city || ', ' || l.state || ' ' || l.postal_code`,
      ),
    ).toBe(0)
    // Readings → a body of water that is not at the visit's location.
    expect(
      await count(
        sql`select count(*)::int as n from chem_logs r join visits j on j.id = r.visit_id
            left join bodies_of_water b on b.id = r.body_of_water_id
            where b.location_id is distinct from j.location_id`,
      ),
    ).toBe(0)
    // The two customer lists do not share people.
    expect(
      await count(
        sql`select count(*)::int as n from customers a join customers b
            on a.customer_name = b.customer_name and a.company_id = ${blueLagoon} and b.company_id = ${sunset}`,
      ),
    ).toBe(0)
  })

  it('is idempotent: a second run returns false and adds nothing', async () => {
    const before = await rowCounts()
    expect(before.visits).toBeGreaterThan(0)
    expect(await seedDemoData(db())).toBe(false)
    expect(await seedDemoData(db(), new Date(now.getTime() + 3 * DAY))).toBe(false)
    expect(await rowCounts()).toEqual(before)
  })
})
