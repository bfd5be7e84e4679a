// Migration 0007 (issue #17) on yesterday's demo database: the demo as it was at 0006 (a frozen fixture of its rows
// plus the awkward addresses and phone numbers real data has) moves onto service locations and bodies of water
// without losing a row. Runs on PGlite and, with DATABASE_URL, on PostgreSQL (`npm run db:migrate` on an embedded
// database on disk: db-migrate-command.test.ts).
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getVisitForViewer } from '~/models/visit-record.server'
import { formatAddress, parseAddress } from '~/utils/address'
import {
  currentDatabaseHandle,
  type DatabaseHandle,
  installDatabase,
  migrateDatabase,
  queryRows,
} from '~/utils/db.server'
import { BEFORE, counts, loadFixture } from '../helpers/demo-0006'
import { databaseMigratedTo } from '../helpers/migrations'

type OldCustomer = {
  id: string
  company_id: string
  customer_name: string
  address: string
  phone: string | null
  email: string | null
  pool_volume_gallons: number | null
  pool_surface: string | null
  pool_sanitiser: string | null
  pool_indoor: boolean | null
}

/** Yesterday's demo database, migrated to 0006 and filled from the fixture. */
async function yesterdaysDemo(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const demo = await databaseMigratedTo(BEFORE)
  try {
    await loadFixture(demo.handle)
  } catch (error) {
    await demo.drop()
    throw error
  }
  return demo
}

describe('migration 0007 on yesterday’s demo database', () => {
  let demo: Awaited<ReturnType<typeof yesterdaysDemo>>
  let before: Record<string, number>
  let oldCustomers: OldCustomer[]
  let oldVisits: Map<string, string>

  beforeAll(async () => {
    demo = await yesterdaysDemo()
    before = await counts(demo.handle)
    oldCustomers = await queryRows<OldCustomer>(
      sql`select id, company_id, customer_name, address, phone, email, pool_volume_gallons, pool_surface,
            pool_sanitiser, pool_indoor from customers`,
      demo.handle.db,
    )
    oldVisits = new Map(
      (await queryRows<{ id: string; address: string }>(sql`select id, address from jobs`, demo.handle.db)).map(
        (visit) => [visit.id, visit.address],
      ),
    )
    await migrateDatabase(demo.handle)
  })

  afterAll(async () => {
    await demo?.drop()
  })

  it('starts from the demo as it was: location-less customers with pool profiles, visits, readings, photos', () => {
    expect(before.customers).toBe(34)
    expect(before).toMatchObject({ visits: 398, readings: 254, invites: 1 })
    expect(before.photos).toBeGreaterThan(0)
    expect(oldCustomers.filter((c) => c.pool_volume_gallons !== null).length).toBeGreaterThan(20)
  })

  it('keeps every row: the same counts before and after', async () => {
    expect(await counts(demo.handle)).toEqual(before)
  })

  it('gives every customer one service location and one "Pool" with their pool profile', async () => {
    const rows = await queryRows<{
      id: string
      locations: number
      bodies: number
      name: string
      gallons: number | null
      surface: string | null
      sanitizer: string | null
      indoor: boolean | null
    }>(
      sql`select c.id, count(distinct l.id)::int as locations, count(b.id)::int as bodies, min(b.name) as name,
            min(b.gallons) as gallons, min(b.surface) as surface, min(b.sanitizer) as sanitizer,
            bool_and(b.indoor) as indoor
          from customers c
          left join service_locations l on l.company_id = c.company_id and l.customer_id = c.id
          left join bodies_of_water b on b.company_id = l.company_id and b.location_id = l.id
          group by c.id`,
      demo.handle.db,
    )
    expect(rows).toHaveLength(oldCustomers.length)
    for (const old of oldCustomers) {
      expect(
        rows.find((row) => row.id === old.id),
        old.customer_name,
      ).toEqual({
        id: old.id,
        locations: 1,
        bodies: 1,
        name: 'Pool',
        gallons: old.pool_volume_gallons,
        // 0041 spells the one stored British value the US way (docs/decisions/069-one-word-visit-and-us-spelling.md).
        surface: old.pool_surface === 'fibreglass' ? 'fiberglass' : old.pool_surface,
        sanitizer: old.pool_sanitiser,
        indoor: old.pool_indoor,
      })
    }
  })

  it('splits "street, city, ST zip" addresses into parts, keeps anything else whole, and keeps the text', async () => {
    const rows = await queryRows<{
      name: string
      billing: string | null
      street: string
      city: string | null
      state: string | null
      zip: string | null
    }>(
      sql`select c.customer_name as name, c.billing_address as billing, l.street, l.city, l.state, l.postal_code as zip
          from customers c join service_locations l on l.company_id = c.company_id and l.customer_id = c.id`,
      demo.handle.db,
    )
    const byName = new Map(rows.map((row) => [row.name, row]))
    expect(byName.get('Ravi Shore')).toMatchObject({
      street: '4400 W Cypress St, Apt 12',
      city: 'Tampa',
      state: 'FL',
      zip: '33607-1234',
    })
    expect(byName.get('Mona Abroad')).toMatchObject({
      street: '88 Harbour Island Blvd',
      city: 'Tampa',
      state: 'FL',
      zip: null,
    })
    expect(byName.get('Quinn Marsh-Edge')).toMatchObject({
      street: 'Lot 7 behind the marina',
      city: null,
      state: null,
      zip: null,
    })
    for (const old of oldCustomers) {
      const row = byName.get(old.customer_name)
      // Nothing lost: the address as it was typed stays on the customer (now their billing address) …
      expect(row?.billing, old.customer_name).toBe(old.address)
      // … and the app's own splitter reads it exactly as the migration did.
      const parsed = parseAddress(old.address)
      expect({ street: row?.street, city: row?.city, state: row?.state, zip: row?.zip }, old.address).toEqual({
        street: parsed.street,
        city: parsed.city,
        state: parsed.state,
        zip: parsed.postalCode,
      })
    }
    // The demo's "123 Palm Ave, Tampa, FL" reads back the same.
    const dana = byName.get('Dana Whitfield')
    expect(dana && formatAddress({ ...dana, postalCode: dana.zip })).toBe(dana?.billing)
  })

  it('attaches every visit to its customer’s location with its address unchanged', async () => {
    const rows = await queryRows<{ id: string; address: string; same_customer: boolean }>(
      sql`select j.id, j.address, l.customer_id = j.customer_id as same_customer
          from visits j join service_locations l on l.company_id = j.company_id and l.id = j.location_id`,
      demo.handle.db,
    )
    expect(rows).toHaveLength(oldVisits.size)
    for (const row of rows) {
      expect(row.same_customer).toBe(true)
      expect(row.address).toBe(oldVisits.get(row.id))
    }
  })

  it('puts every reading on the pool of its visit’s location', async () => {
    const [row] = await queryRows<{ readings: number; placed: number }>(
      sql`select count(*)::int as readings, count(b.id)::int as placed from chem_logs r
          join visits j on j.company_id = r.company_id and j.id = r.visit_id
          left join bodies_of_water b on b.company_id = r.company_id and b.id = r.body_of_water_id
            and b.location_id = j.location_id`,
      demo.handle.db,
    )
    expect(row?.readings).toBe(before.readings)
    expect(row?.placed).toBe(before.readings)
  })

  it('stores US phone numbers in E.164, keeps anything else as typed, and lower-cases emails', async () => {
    const rows = await queryRows<{ name: string; phone: string | null; email: string | null; status: string }>(
      sql`select customer_name as name, phone, email, status from customers`,
      demo.handle.db,
    )
    const byName = new Map(rows.map((row) => [row.name, row]))
    expect(byName.get('Dana Whitfield')?.phone).toBe('+18135550101')
    expect(byName.get('Marco Ruiz')?.phone).toBe('+14805550131')
    expect(byName.get('Ravi Shore')).toMatchObject({ phone: '+18135550177', email: 'ravi.shore@example.com' })
    expect(byName.get('Mona Abroad')?.phone).toBe('+44 20 7946 0958')
    expect(byName.get('Quinn Marsh-Edge')?.phone).toBe('813.555.0199 ext 4')
    expect(byName.get('Blank Phone')?.phone).toBeNull()
    for (const old of oldCustomers.filter((c) => /^\(\d{3}\) \d{3}-\d{4}$/.test(c.phone ?? ''))) {
      expect(byName.get(old.customer_name)?.phone).toBe(`+1${old.phone?.replace(/\D/g, '')}`)
    }
    expect(rows.every((row) => row.status === 'active')).toBe(true)
  })

  it('judges a migrated visit against the pool profile its customer had', async () => {
    const [old] = await queryRows<{ visit: string; company: string; gallons: number; surface: string }>(
      sql`select j.id as visit, j.company_id as company, b.gallons, b.surface from visits j
          join bodies_of_water b on b.company_id = j.company_id and b.location_id = j.location_id
          where b.sanitizer = 'salt' and b.surface = 'vinyl' limit 1`,
      demo.handle.db,
    )
    const previous = currentDatabaseHandle()
    installDatabase(demo.handle)
    try {
      const visit = await getVisitForViewer(
        { id: 'office', role: 'admin', companyId: old?.company ?? '' },
        old?.visit ?? '',
      )
      expect(visit).toMatchObject({ poolVolumeGallons: old?.gallons, poolSurface: 'vinyl', poolSanitizer: 'salt' })
    } finally {
      installDatabase(previous)
    }
  })
})
