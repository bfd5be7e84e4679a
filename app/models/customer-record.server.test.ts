// The customer data layer of issue #17: the list, the record, the picker, creating and editing, and archive /
// restore with everything they change (visits, portal access, lists and pickers). Tenancy on every function.
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { getFreshSessionUser } from '~/auth/guards.server'
import { companies, customers, profiles, session, user, visits } from '~/db/schema'
import {
  currentDatabaseHandle,
  type DatabaseHandle,
  db,
  queryRows,
  type RecordedQuery,
  recordQueries,
} from '~/utils/db.server'
import { addTestCustomer, findTestCustomer } from '../../tests/helpers/customers'
import { pageRequest } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { fillBeforeIndexes, useDemoData } from '../../tests/helpers/test-database'
import { addBodyOfWater } from './body-of-water.server'
import {
  archiveCustomer,
  createCustomerWithLocation,
  restoreCustomer,
  updateCustomerContact,
} from './customer-changes.server'
import { listCustomerDirectory } from './customer-list.server'
import { getCustomerRecord } from './customer-record.server'
import { PICKER_LIMIT, pickCustomers } from './customer-search.server'
import { getDispatchCounts } from './dashboard-counts.server'
import { addEquipment } from './equipment.server'
import { inviteCustomer } from './invitation.server'
import { addServiceLocation } from './service-location.server'
import { createVisit } from './visit-changes.server'

let blue: string
let sunset: string
let techId: string

async function companyId(name: string) {
  const [row] = await db().select({ id: companies.id }).from(companies).where(eq(companies.name, name))
  if (!row) throw new Error(`no company ${name}`)
  return row.id
}

const DAY = 86_400_000
const names = (rows: Array<{ customerName: string }>) => rows.map((row) => row.customerName)

beforeAll(async () => {
  await useDemoData()
  blue = await companyId('Blue Lagoon Pool Co.')
  sunset = await companyId('Sunset Pool Care')
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
})

describe('listCustomerDirectory', () => {
  it('lists active customers by name with first address, next visit and balance, and counts them all', async () => {
    const page = await listCustomerDirectory({ companyId: blue, pageSize: 10 })
    // The demo's 32 customers and the houses on the technicians' weekly routes (app/demo/routes.server.ts), whose
    // number depends on the day it was seeded.
    const [{ n: all } = { n: 0 }] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(customers)
      .where(eq(customers.companyId, blue))
    expect(all).toBeGreaterThan(32)
    expect(page.total).toBe(all)
    expect(page.rows).toHaveLength(10)
    expect(names(page.rows)).toEqual([...names(page.rows)].sort())
    const last = Math.ceil(all / 10)
    const second = await listCustomerDirectory({ companyId: blue, pageSize: 10, page: last })
    expect(second.rows).toHaveLength(all - (last - 1) * 10)
    expect(second.total).toBe(all)

    const vance = (await listCustomerDirectory({ companyId: blue, query: 'Vance' })).rows[0]
    expect(vance).toMatchObject({
      customerName: 'Vance Rental Properties',
      address: '6210 N Central Ave, Tampa, FL 33604',
      balanceDue: 48000,
      status: 'active',
    })
    // The next visit is the earliest one still to do (open, not canceled), whichever location it is at.
    const [expected] = await queryRows<{ at: Date | null }>(
      sql`select min(j.scheduled_at) as at from visits j join customers c on c.id = j.customer_id
          where c.customer_name = 'Vance Rental Properties' and j.completed_at is null and j.canceled_at is null`,
    )
    expect(vance?.nextVisitAt?.toISOString()).toBe(expected?.at ? new Date(expected.at).toISOString() : undefined)
  })

  it('searches name, email, phone (as typed) and the address of any location, literally', async () => {
    const search = async (query: string) => names((await listCustomerDirectory({ companyId: blue, query })).rows)
    expect(await search('whitf')).toEqual(['Dana Whitfield'])
    expect(await search('PRIYA.RAMAN@')).toEqual(['Priya Raman'])
    expect(await search('(813) 555-0113')).toEqual(['Victor Huang'])
    expect(await search('727-555-0128')).toEqual(['Owen Gallagher'])
    // Vance's third house, not the one the list shows.
    expect(await search('7th Ave N')).toEqual(['Vance Rental Properties'])
    expect(await search('Seminole Heights')).toEqual(['Vance Rental Properties'])
    expect((await search('Clearwater')).length).toBeGreaterThanOrEqual(5)
    expect(await search('33629')).toContain('Dana Whitfield')
    for (const query of ['%', "'", '_', ',', "' or 1=1 --", 'Marco Ruiz']) expect(await search(query)).toEqual([])
  })

  it('shows archived customers under "Archived" only', async () => {
    const gone = await addTestCustomer(blue, { customerName: 'Archie Listed', address: '1 Archive Way, Tampa, FL' })
    expect((await archiveCustomer({ companyId: blue, customerId: gone.id })).ok).toBe(true)
    expect(names((await listCustomerDirectory({ companyId: blue, query: 'archie' })).rows)).toEqual([])
    const archived = await listCustomerDirectory({ companyId: blue, status: 'archived', query: 'archie' })
    expect(archived.rows).toMatchObject([{ customerName: 'Archie Listed', status: 'archived' }])
  })
})

describe('getCustomerRecord', () => {
  it('loads contact, locations with bodies of water, equipment and plans, upcoming visits and history', async () => {
    const vance = await findTestCustomer('Vance Rental Properties', blue)
    const record = await getCustomerRecord({ companyId: blue, customerId: vance.id })
    if (!record) throw new Error('no record')
    expect(record.customer).toMatchObject({
      customerName: 'Vance Rental Properties',
      billingAddress: '100 N Tampa St, Suite 2200, Tampa, FL 33602',
      phone: '+18135550125',
      status: 'active',
      portalStatus: 'none',
    })
    expect(record.locations.map((l) => l.label)).toEqual([
      'Seminole Heights house',
      'Brandon rental',
      'St. Pete rental',
    ])
    const [first] = record.locations
    expect(first).toMatchObject({ address: '6210 N Central Ave, Tampa, FL 33604', gateCode: '5150', lat: 28.00302 })
    for (const location of record.locations) {
      expect(location.bodiesOfWater.map((b) => b.name)).toEqual(['Pool'])
      expect(location.bodiesOfWater[0]?.equipment.map((e) => e.kind)).toContain('pump')
      expect(location.plans).toMatchObject([{ frequencyWeeks: 2, technicianName: expect.any(String) }])
    }
    const upcoming = record.upcomingVisits
    expect(upcoming.every((v) => v.completedAt === null && v.canceledAt === null)).toBe(true)
    expect(upcoming.map((v) => v.scheduledAt.getTime())).toEqual(upcoming.map((v) => v.scheduledAt.getTime()).sort())
    const history = record.visitHistory
    expect(history.rows.every((v) => v.completedAt !== null || v.canceledAt !== null)).toBe(true)
    const times = history.rows.map((v) => v.scheduledAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const [done] = await queryRows<{ n: number }>(
      sql`select count(*)::int as n from visits where customer_id = ${vance.id} and completed_at is not null`,
    )
    expect(history.total).toBe(done?.n)

    const hoa = await findTestCustomer('Bayshore Palms HOA', blue)
    const club = await getCustomerRecord({ companyId: blue, customerId: hoa.id })
    expect(club?.locations[0]?.bodiesOfWater.map((b) => [b.name, b.gallons])).toEqual([
      ['Community pool', 85_000],
      ['Spa', 1_500],
    ])
    expect(club?.locations[0]?.plans.map((p) => p.weekday)).toEqual([1, 4])
  })

  it('pages the visit history', async () => {
    const many = await addTestCustomer(blue, { customerName: 'History Pages', address: '3 Old Rd, Tampa, FL' })
    const start = Date.UTC(2025, 0, 6, 14)
    await db()
      .insert(visits)
      .values(
        Array.from({ length: 45 }, (_, i) => ({
          companyId: blue,
          customerId: many.id,
          locationId: many.locationId,
          customerName: many.customerName,
          address: many.address,
          scheduledAt: new Date(start + i * 7 * DAY),
          completedAt: new Date(start + i * 7 * DAY + 3_600_000),
        })),
      )
    const pages = await Promise.all(
      [1, 2, 3].map((historyPage) => getCustomerRecord({ companyId: blue, customerId: many.id, historyPage })),
    )
    expect(pages.map((p) => p?.visitHistory.rows.length)).toEqual([20, 20, 5])
    expect(pages.map((p) => p?.visitHistory.total)).toEqual([45, 45, 45])
    expect(new Set(pages.flatMap((p) => p?.visitHistory.rows.map((v) => v.id))).size).toBe(45)
  })

  it('is null for another company’s customer and for anything that is not an id', async () => {
    const dana = await findTestCustomer('Dana Whitfield', blue)
    expect(await getCustomerRecord({ companyId: sunset, customerId: dana.id })).toBeNull()
    expect(await getCustomerRecord({ companyId: blue, customerId: "' or 1=1 --" })).toBeNull()
  })

  it('runs the same few queries however many locations, bodies of water and equipment there are', async () => {
    const handle = currentDatabaseHandle() as DatabaseHandle
    const countFor = async (customerId: string) => {
      const { recorded } = await recordQueries(handle, () => getCustomerRecord({ companyId: blue, customerId }))
      return recorded.length
    }
    const small = await addTestCustomer(blue, { customerName: 'One Pool Only', address: '4 Small St, Tampa, FL' })
    const big = await addTestCustomer(blue, { customerName: 'Many Places', address: '5 Big St, Tampa, FL' })
    for (let i = 0; i < 6; i++) {
      const location = await addServiceLocation({
        companyId: blue,
        customerId: big.id,
        input: { street: `${10 + i} Big St`, city: 'Tampa', state: 'FL', dogOnSite: false },
      })
      if (!location.ok) throw new Error(location.message)
      for (const name of ['Pool', 'Spa']) {
        const body = await addBodyOfWater({ companyId: blue, locationId: location.locationId, input: { name } })
        if (!body.ok) throw new Error(body.message)
        await addEquipment({ companyId: blue, bodyOfWaterId: body.bodyOfWaterId, input: { kind: 'pump' } })
        await addEquipment({ companyId: blue, bodyOfWaterId: body.bodyOfWaterId, input: { kind: 'filter' } })
      }
    }
    const few = await countFor(small.id)
    expect(few).toBe(7)
    expect(await countFor(big.id)).toBe(few)
    const record = await getCustomerRecord({ companyId: blue, customerId: big.id })
    expect(record?.locations).toHaveLength(7)
    expect(record?.locations[6]?.bodiesOfWater.map((b) => b.equipment.length)).toEqual([2, 2])
  })
})

describe('createCustomerWithLocation / updateCustomerContact', () => {
  it('creates the customer, their first location and a body of water in one go, cleaned', async () => {
    const created = await createCustomerWithLocation(blue, {
      customerName: '  Gwen Newcomer ',
      email: ' Gwen@Example.COM ',
      phone: '813 555 0190',
      billingAddress: '',
      location: {
        street: ' 77 Sandpiper Ln ',
        city: 'Clearwater',
        state: 'FL',
        postalCode: '33767',
        lat: '27.98',
        lng: '-82.82',
        gateCode: '1234',
        dogOnSite: 'on',
        minutesOnSite: '40',
      },
      bodyOfWater: { name: 'Spa', gallons: '700', surface: 'plaster', sanitizer: 'salt', indoor: 'outdoor' },
    })
    if (!created.ok) throw new Error(created.message)
    const record = await getCustomerRecord({ companyId: blue, customerId: created.customerId })
    expect(record?.customer).toMatchObject({
      customerName: 'Gwen Newcomer',
      email: 'gwen@example.com',
      phone: '+18135550190',
      billingAddress: null,
    })
    expect(record?.locations).toMatchObject([
      {
        id: created.locationId,
        address: '77 Sandpiper Ln, Clearwater, FL 33767',
        lat: 27.98,
        lng: -82.82,
        gateCode: '1234',
        dogOnSite: true,
        minutesOnSite: 40,
        bodiesOfWater: [{ id: created.bodyOfWaterId, name: 'Spa', gallons: 700, sanitizer: 'salt', indoor: false }],
      },
    ])
  })

  it('refuses bad input with the reason and writes nothing', async () => {
    const before = (await listCustomerDirectory({ companyId: blue })).total
    const cases: Array<[Parameters<typeof createCustomerWithLocation>[1], string]> = [
      [{ customerName: 'X', phone: '555', location: { street: '1 A St', dogOnSite: false } }, 'valid phone number'],
      [{ customerName: 'X', email: 'nope', location: { street: '1 A St', dogOnSite: false } }, 'valid email'],
      [{ customerName: ' ', location: { street: '1 A St', dogOnSite: false } }, 'name'],
      [{ customerName: 'X', location: { street: ' ', dogOnSite: false } }, 'street address'],
      [
        { customerName: 'X', location: { street: '1 A St', lat: 27.9, dogOnSite: false } },
        'both latitude and longitude',
      ],
      [{ customerName: 'X', location: { street: '1 A St', minutesOnSite: 0, dogOnSite: false } }, 'Minutes on site'],
      [
        { customerName: 'X', location: { street: '1 A St', dogOnSite: false }, bodyOfWater: { gallons: '50' } },
        'Gallons must be',
      ],
    ]
    for (const [input, words] of cases) {
      const result = await createCustomerWithLocation(blue, input)
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.code).toBe('invalid')
        expect(result.message).toContain(words)
      }
    }
    expect((await listCustomerDirectory({ companyId: blue })).total).toBe(before)
  })

  it('updates the contact of the company’s own customers only', async () => {
    const marcus = await findTestCustomer('Marcus Bell', blue)
    const input = {
      customerName: 'Marcus Bell',
      email: 'marcus.bell@example.com',
      phone: '(813) 555-0199',
      notes: 'Gate sticks.',
    }
    expect(await updateCustomerContact({ companyId: sunset, customerId: marcus.id, input })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(await updateCustomerContact({ companyId: blue, customerId: marcus.id, input })).toEqual({ ok: true })
    const record = await getCustomerRecord({ companyId: blue, customerId: marcus.id })
    expect(record?.customer).toMatchObject({ phone: '+18135550199', notes: 'Gate sticks.' })
    expect(
      await updateCustomerContact({ companyId: blue, customerId: marcus.id, input: { ...input, email: 'x@' } }),
    ).toMatchObject({ ok: false, code: 'invalid', message: 'Enter a valid email address.' })
  })
})

describe('pickCustomers (the new-visit form’s customer picker)', () => {
  it('finds active customers as you type, best match first, each with its locations', async () => {
    expect(names(await pickCustomers({ companyId: blue, query: 'whit' }))).toEqual(['Ben Whitaker', 'Dana Whitfield'])
    const [first] = await pickCustomers({ companyId: blue, query: 'whitf' })
    expect(first).toMatchObject({ customerName: 'Dana Whitfield' })
    expect(first?.locations).toEqual([
      { id: expect.any(String), label: null, address: '4107 W San Miguel St, Tampa, FL 33629' },
    ])
    const [vance] = await pickCustomers({ companyId: blue, query: 'vance' })
    expect(vance?.locations.map((l) => l.label)).toEqual([
      'Seminole Heights house',
      'Brandon rental',
      'St. Pete rental',
    ])
    // By address too.
    expect(names(await pickCustomers({ companyId: blue, query: 'Coffee Pot' }))).toEqual(['Victor Huang'])
    // A name that starts with the text comes before names that only contain it, whatever the alphabet says.
    await addTestCustomer(blue, { customerName: 'Ross Ashby', address: '8 Picker Rd, Tampa, FL' })
    expect(names(await pickCustomers({ companyId: blue, query: 'ross' })).slice(0, 2)).toEqual([
      'Ross Ashby',
      'Bianca Rossi',
    ])
    expect(await pickCustomers({ companyId: sunset, query: 'whit' })).toEqual([])
  })

  it('stops at ten of any number of matches, and leaves out archived customers', async () => {
    for (let i = 0; i < 14; i++) {
      await addTestCustomer(blue, { customerName: `Pickme ${String(i).padStart(2, '0')}`, address: `${i} Pick St` })
    }
    const found = await pickCustomers({ companyId: blue, query: 'pickme' })
    expect(found).toHaveLength(PICKER_LIMIT)
    expect(names(found)).toEqual(Array.from({ length: 10 }, (_, i) => `Pickme ${String(i).padStart(2, '0')}`))
    const [gone] = found
    await archiveCustomer({ companyId: blue, customerId: gone?.id ?? '' })
    expect(names(await pickCustomers({ companyId: blue, query: 'pickme' }))).not.toContain('Pickme 00')
    expect(names((await listCustomerDirectory({ companyId: blue, query: 'pickme' })).rows)).not.toContain('Pickme 00')
  })
})

describe('archiveCustomer / restoreCustomer', () => {
  it('cancels open visits (future and overdue), keeps history, and drops the customer from lists and pickers', async () => {
    const gone = await addTestCustomer(blue, { customerName: 'Leaving Lenny', address: '9 Exit Rd, Tampa, FL' })
    const now = new Date()
    const at = (days: number) => new Date(now.getTime() + days * DAY)
    const make = (scheduledAt: Date) =>
      createVisit({ companyId: blue, customerId: gone.id, scheduledAt, technicianId: techId })
    const [done, overdue, future1, future2] = await Promise.all([make(at(-7)), make(at(-2)), make(at(2)), make(at(9))])
    await db()
      .update(visits)
      .set({ completedAt: at(-7) })
      .where(eq(visits.id, done?.id ?? ''))
    const countsBefore = await getDispatchCounts({ companyId: blue, timezone: 'America/New_York', now })

    const archived = await archiveCustomer({ companyId: blue, customerId: gone.id, now })
    expect(archived).toEqual({ ok: true, canceledVisits: 3 })
    const rows = await db()
      .select({ id: visits.id, completedAt: visits.completedAt, canceledAt: visits.canceledAt })
      .from(visits)
      .where(eq(visits.customerId, gone.id))
    const byId = new Map(rows.map((row) => [row.id, row]))
    expect(byId.get(done?.id ?? '')).toMatchObject({ canceledAt: null, completedAt: expect.any(Date) })
    for (const visit of [overdue, future1, future2]) expect(byId.get(visit?.id ?? '')?.canceledAt).toEqual(now)
    const countsAfter = await getDispatchCounts({ companyId: blue, timezone: 'America/New_York', now })
    expect(countsAfter.overdue).toBe(countsBefore.overdue - 1)

    expect(names((await listCustomerDirectory({ companyId: blue, query: 'lenny' })).rows)).toEqual([])
    expect((await listCustomerDirectory({ companyId: blue, query: 'lenny' })).rows).toEqual([])
    expect(await pickCustomers({ companyId: blue, query: 'lenny' })).toEqual([])
    // No new visits for an archived customer.
    expect(await make(at(3))).toBeNull()
    // Archiving again changes nothing; restoring brings the customer back, and the canceled visits stay canceled.
    expect(await archiveCustomer({ companyId: blue, customerId: gone.id })).toEqual({ ok: true, canceledVisits: 0 })
    expect(await restoreCustomer({ companyId: blue, customerId: gone.id })).toEqual({ ok: true })
    expect(names((await listCustomerDirectory({ companyId: blue, query: 'lenny' })).rows)).toEqual(['Leaving Lenny'])
    const canceled = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.customerId, gone.id), isNotNull(visits.canceledAt)))
    expect(canceled).toHaveLength(3)
    expect(await make(at(3))).not.toBeNull()
  })

  it('ends portal access: sessions deleted, sign-in refused, no invite; restoring lets them in again', async () => {
    const dana = await findTestCustomer('Dana Whitfield', blue)
    const cookie = await signInAs('customer@bluelagoon.test')
    expect(await getFreshSessionUser(pageRequest('/', cookie))).not.toBeNull()

    expect((await archiveCustomer({ companyId: blue, customerId: dana.id })).ok).toBe(true)
    const [portalUser] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'customer@bluelagoon.test'))
    expect(
      await db()
        .select()
        .from(session)
        .where(eq(session.userId, portalUser?.id ?? '')),
    ).toEqual([])
    expect(await getFreshSessionUser(pageRequest('/', cookie))).toBeNull()
    await expect(signInAs('customer@bluelagoon.test')).rejects.toThrow(/deactivated/)
    expect(await inviteCustomer({ companyId: blue, customerId: dana.id })).toEqual({
      ok: false,
      code: 'invalid',
      message: 'This customer is archived. Restore them first.',
    })

    expect(await restoreCustomer({ companyId: blue, customerId: dana.id })).toEqual({ ok: true })
    const again = await signInAs('customer@bluelagoon.test')
    expect((await getFreshSessionUser(pageRequest('/', again)))?.email).toBe('customer@bluelagoon.test')
    const [row] = await db()
      .select({ status: customers.status, archivedAt: customers.archivedAt })
      .from(customers)
      .where(eq(customers.id, dana.id))
    expect(row).toEqual({ status: 'active', archivedAt: null })
  })

  it("answers not found for another company's customer and changes nothing", async () => {
    const marco = await findTestCustomer('Marco Ruiz', sunset)
    expect(await archiveCustomer({ companyId: blue, customerId: marco.id })).toMatchObject({ code: 'not-found' })
    expect(await restoreCustomer({ companyId: blue, customerId: marco.id })).toMatchObject({ code: 'not-found' })
    expect(await archiveCustomer({ companyId: blue, customerId: 'nope' })).toMatchObject({ code: 'not-found' })
    const [row] = await db().select({ status: customers.status }).from(customers).where(eq(customers.id, marco.id))
    expect(row?.status).toBe('active')
  })
})

describe('the picker on a platform of many companies with thousands of customers', () => {
  it('finds them through the trigram indexes, not a scan of every customer', async () => {
    // Blue Lagoon grows to 3,000 customers among 40 other companies of 500 each.
    // The rows first, then the indexes built over them at once, as a database restored from a dump is.
    await fillBeforeIndexes(['customers', 'service_locations'], async () => {
      await db().execute(sql`insert into companies (name) select 'Other Pools ' || g from generate_series(1, 40) g`)
      await db().execute(sql`
        insert into customers (company_id, customer_name, email)
        select ${blue}, 'Grown Customer ' || g, 'grown' || g || '@example.com' from generate_series(1, 3000) g
        union all
        select c.id, 'Other Customer ' || g || ' ' || md5(c.id::text || g), 'other' || g || '@example.com'
        from companies c cross join generate_series(1, 500) g where c.name like 'Other Pools %'`)
      await db().execute(sql`
        insert into service_locations (company_id, customer_id, street, city, state)
        select company_id, id, split_part(customer_name, ' ', 3) || ' Grown St', 'Tampa', 'FL'
        from customers where customer_name like 'Grown Customer %' or customer_name like 'Other Customer %'`)
    })
    const handle = currentDatabaseHandle() as DatabaseHandle
    // Analyzed first, as the running app's database soon is (autovacuum; the statistics task on PGlite): unanalysed,
    // 23,000 rows made PGlite's planner loop over every customer (88 s on a busy CI machine).
    await db().execute(sql`analyze customers`)
    await db().execute(sql`analyze service_locations`)
    const { value, recorded } = await recordQueries(handle, () =>
      pickCustomers({ companyId: blue, query: 'whitfield' }),
    )
    expect(names(value)).toEqual(['Dana Whitfield'])
    const search = recorded[0]
    if (!search) throw new Error('no query')
    const plan = await explain(handle, search)
    // The names on their trigram index; the addresses on an index too (which one is the planner's choice).
    expect(plan).toContain('customers_company_search_trgm_idx')
    expect(plan).not.toMatch(/Seq Scan on (customers|service_locations)/)
  })
})

/** The plan PostgreSQL chooses for a recorded query, with fresh statistics. */
async function explain(handle: DatabaseHandle, query: RecordedQuery) {
  const run = async (send: (statement: string, params?: unknown[]) => Promise<{ rows: unknown[] }>) => {
    await send('analyze customers')
    await send('analyze service_locations')
    const result = await send(`explain ${query.sql}`, query.params)
    return (result.rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n')
  }
  if (handle.kind === 'pglite') return run((statement, params) => handle.client.query(statement, params))
  const client = await handle.client.connect()
  try {
    return await run((statement, params) => client.query(statement, params))
  } finally {
    client.release()
  }
}
