// Service locations, bodies of water and equipment (issue #17): adding, editing and removing them within the
// company, the rules that keep history (a visited location is archived, a body of water with readings stays), and
// the visits booked at a location.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { bodiesOfWater, chemLogs, companies, equipment, profiles, serviceLocations, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer, findTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { addBodyOfWater, removeBodyOfWater, updateBodyOfWater } from './body-of-water.server'
import { addChemLog } from './chem-log.server'
import { getCustomerRecord } from './customer-record.server'
import { pickCustomers } from './customer-search.server'
import { addEquipment, removeEquipment, updateEquipment } from './equipment.server'
import { addServiceLocation, removeServiceLocation, updateServiceLocation } from './service-location.server'
import { createVisit } from './visit-changes.server'
import { getVisitForViewer } from './visit-record.server'

let blue: string
let sunset: string
let techId: string
const DAY = 86_400_000

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
})

async function location(id: string) {
  const [row] = await db().select().from(serviceLocations).where(eq(serviceLocations.id, id))
  return row
}

describe('service locations', () => {
  it('adds a location after the others, edits it, and never touches another company’s', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Two Homes', address: '1 First St, Tampa, FL 33606' })
    const added = await addServiceLocation({
      companyId: blue,
      customerId: owner.id,
      input: { label: 'Beach house', street: '2 Gulf Blvd', city: 'Clearwater', state: 'FL', dogOnSite: false },
    })
    if (!added.ok) throw new Error(added.message)
    expect(await location(added.locationId)).toMatchObject({ position: 1, minutesOnSite: 30, lat: null })
    expect(
      await updateServiceLocation({
        companyId: blue,
        locationId: added.locationId,
        input: {
          label: 'Beach house',
          street: '2 Gulf Blvd',
          city: 'Clearwater',
          state: 'FL',
          postalCode: '33767',
          lat: '27.97',
          lng: '-82.83',
          gateCode: ' 9999 ',
          accessNotes: 'Key under the mat',
          dogOnSite: 'on',
          minutesOnSite: '45',
        },
      }),
    ).toEqual({ ok: true })
    expect(await location(added.locationId)).toMatchObject({
      gateCode: '9999',
      dogOnSite: true,
      minutesOnSite: 45,
      lat: 27.97,
      lng: -82.83,
    })
    const [picked] = await pickCustomers({ companyId: blue, query: 'Two Homes' })
    expect(picked?.locations.map((l) => l.label)).toEqual([null, 'Beach house'])

    const input = { street: 'Hijack St', dogOnSite: false }
    expect(await addServiceLocation({ companyId: sunset, customerId: owner.id, input })).toMatchObject({
      code: 'not-found',
    })
    expect(await updateServiceLocation({ companyId: sunset, locationId: added.locationId, input })).toMatchObject({
      code: 'not-found',
    })
    expect(await removeServiceLocation({ companyId: sunset, locationId: added.locationId })).toMatchObject({
      code: 'not-found',
    })
    expect((await location(added.locationId))?.street).toBe('2 Gulf Blvd')
    expect(
      await updateServiceLocation({
        companyId: blue,
        locationId: added.locationId,
        input: { street: '2 Gulf Blvd', minutesOnSite: 600, dogOnSite: false },
      }),
    ).toMatchObject({ ok: false, code: 'invalid', message: 'Minutes on site must be a whole number from 1 to 480.' })
  })

  it('deletes a location nobody visited, with its water and equipment', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Spare Lot', address: '3 Main St' })
    const spare = await addServiceLocation({
      companyId: blue,
      customerId: owner.id,
      input: { street: '4 Empty Lot', dogOnSite: false },
    })
    if (!spare.ok) throw new Error(spare.message)
    const body = await addBodyOfWater({ companyId: blue, locationId: spare.locationId, input: { name: 'Pool' } })
    if (!body.ok) throw new Error(body.message)
    await addEquipment({ companyId: blue, bodyOfWaterId: body.bodyOfWaterId, input: { kind: 'pump' } })
    expect(await removeServiceLocation({ companyId: blue, locationId: spare.locationId })).toEqual({
      ok: true,
      outcome: 'deleted',
      canceledVisits: 0,
    })
    expect(await location(spare.locationId)).toBeUndefined()
    expect(await db().select().from(equipment).where(eq(equipment.bodyOfWaterId, body.bodyOfWaterId))).toEqual([])
  })

  it('archives a location with visits instead (history kept, open visits canceled), never the last one', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Sold One House', address: '5 Kept St' })
    const sold = await addServiceLocation({
      companyId: blue,
      customerId: owner.id,
      input: { street: '6 Sold St', dogOnSite: false },
    })
    if (!sold.ok) throw new Error(sold.message)
    const now = new Date()
    const visit = (days: number) =>
      createVisit({
        companyId: blue,
        customerId: owner.id,
        locationId: sold.locationId,
        scheduledAt: new Date(now.getTime() + days * DAY),
        technicianId: techId,
      })
    const past = await visit(-3)
    await db()
      .update(visits)
      .set({ completedAt: now })
      .where(eq(visits.id, past?.id ?? ''))
    const upcoming = await visit(4)
    expect(await removeServiceLocation({ companyId: blue, locationId: sold.locationId, now })).toEqual({
      ok: true,
      outcome: 'archived',
      canceledVisits: 1,
    })
    expect((await location(sold.locationId))?.archivedAt).toEqual(now)
    const [kept] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, past?.id ?? ''))
    expect(kept?.canceledAt).toBeNull()
    const [canceled] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, upcoming?.id ?? ''))
    expect(canceled?.canceledAt).toEqual(now)
    // An archived location takes no new visits and leaves the picker; the record still shows its history.
    expect(await visit(5)).toBeNull()
    const [picked] = await pickCustomers({ companyId: blue, query: 'Sold One House' })
    expect(picked?.locations.map((l) => l.address)).toEqual(['5 Kept St'])
    const record = await getCustomerRecord({ companyId: blue, customerId: owner.id })
    expect(record?.locations.map((l) => [l.street, l.archivedAt !== null])).toEqual([
      ['5 Kept St', false],
      ['6 Sold St', true],
    ])
    // The customer's one location in use stays.
    expect(await removeServiceLocation({ companyId: blue, locationId: owner.locationId })).toMatchObject({
      ok: false,
      code: 'conflict',
    })
    expect(await location(owner.locationId)).toMatchObject({ archivedAt: null })
  })
})

describe('createVisit at a location', () => {
  it('books the chosen location with its address; without one, the customer’s first', async () => {
    const vance = await findTestCustomer('Vance Rental Properties', blue)
    const record = await getCustomerRecord({ companyId: blue, customerId: vance.id })
    const brandon = record?.locations[1]
    const at = new Date(Date.now() + 3 * DAY)
    const chosen = await createVisit({
      companyId: blue,
      customerId: vance.id,
      locationId: brandon?.id,
      scheduledAt: at,
      technicianId: null,
    })
    const [row] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, chosen?.id ?? ''))
    expect(row).toMatchObject({
      locationId: brandon?.id,
      address: '1128 Lakewood Dr, Brandon, FL 33510',
      customerName: 'Vance Rental Properties',
    })
    const fallback = await createVisit({ companyId: blue, customerId: vance.id, scheduledAt: at, technicianId: null })
    const [first] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, fallback?.id ?? ''))
    expect(first).toMatchObject({ locationId: vance.locationId, address: '6210 N Central Ave, Tampa, FL 33604' })
  })

  it('refuses another customer’s or another company’s location', async () => {
    const dana = await findTestCustomer('Dana Whitfield', blue)
    const marcus = await findTestCustomer('Marcus Bell', blue)
    const marco = await findTestCustomer('Marco Ruiz', sunset)
    const at = new Date(Date.now() + DAY)
    const base = { companyId: blue, customerId: dana.id, scheduledAt: at, technicianId: null }
    expect(await createVisit({ ...base, locationId: marcus.locationId })).toBeNull()
    expect(await createVisit({ ...base, locationId: marco.locationId })).toBeNull()
    expect(await createVisit({ ...base, locationId: 'not-an-id' })).toBeNull()
    expect(await createVisit({ ...base, companyId: sunset })).toBeNull()
  })
})

describe('bodies of water', () => {
  it('adds, edits and removes a spa; the visit’s pool stays the first body of the location', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Spa Later', address: '7 Spa St' })
    const spa = await addBodyOfWater({
      companyId: blue,
      locationId: owner.locationId,
      input: { name: 'Spa', gallons: '800', surface: 'plaster', sanitizer: 'salt', indoor: 'outdoor' },
    })
    if (!spa.ok) throw new Error(spa.message)
    expect(
      await updateBodyOfWater({
        companyId: blue,
        bodyOfWaterId: spa.bodyOfWaterId,
        input: { name: 'Hot tub', gallons: '1,000', surface: '', sanitizer: '', indoor: 'indoor' },
      }),
    ).toEqual({ ok: true })
    // A change that leaves every field out keeps them all (and is no database error).
    expect(await updateBodyOfWater({ companyId: blue, bodyOfWaterId: spa.bodyOfWaterId, input: {} })).toEqual({
      ok: true,
    })
    const [row] = await db().select().from(bodiesOfWater).where(eq(bodiesOfWater.id, spa.bodyOfWaterId))
    expect(row).toMatchObject({
      name: 'Hot tub',
      gallons: 1000,
      surface: null,
      sanitizer: null,
      indoor: true,
      position: 1,
    })
    await db().update(bodiesOfWater).set({ gallons: 21_000 }).where(eq(bodiesOfWater.locationId, owner.locationId))
    await db().update(bodiesOfWater).set({ gallons: 1_000 }).where(eq(bodiesOfWater.id, spa.bodyOfWaterId))
    const visit = await createVisit({
      companyId: blue,
      customerId: owner.id,
      scheduledAt: new Date(),
      technicianId: techId,
    })
    const viewed = await getVisitForViewer({ id: techId, role: 'tech', companyId: blue }, visit?.id ?? '')
    expect(viewed).toMatchObject({ bodyOfWaterName: 'Pool', poolVolumeGallons: 21_000 })

    expect(await removeBodyOfWater({ companyId: sunset, bodyOfWaterId: spa.bodyOfWaterId })).toMatchObject({
      code: 'not-found',
    })
    expect(await removeBodyOfWater({ companyId: blue, bodyOfWaterId: spa.bodyOfWaterId })).toEqual({ ok: true })
    expect(await db().select().from(bodiesOfWater).where(eq(bodiesOfWater.id, spa.bodyOfWaterId))).toEqual([])
  })

  it('keeps a body of water that has readings, and says why', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Tested Water', address: '8 Test St' })
    const visit = await createVisit({
      companyId: blue,
      customerId: owner.id,
      scheduledAt: new Date(),
      technicianId: null,
    })
    await addChemLog({
      companyId: blue,
      visitId: visit?.id ?? '',
      reading: { ph: 7.4, chlorinePpm: 2, alkalinity: 90 },
    })
    const [pool] = await db().select().from(bodiesOfWater).where(eq(bodiesOfWater.locationId, owner.locationId))
    // The reading went to the location's pool.
    const [reading] = await db()
      .select({ body: chemLogs.bodyOfWaterId })
      .from(chemLogs)
      .where(eq(chemLogs.visitId, visit?.id ?? ''))
    expect(reading?.body).toBe(pool?.id)
    expect(await removeBodyOfWater({ companyId: blue, bodyOfWaterId: pool?.id ?? '' })).toEqual({
      ok: false,
      code: 'conflict',
      message: 'This body of water has chemistry readings from past visits, so it stays in the history.',
    })
  })

  it('refuses impossible values and another company’s location', async () => {
    const dana = await findTestCustomer('Dana Whitfield', blue)
    expect(
      await addBodyOfWater({ companyId: blue, locationId: dana.locationId, input: { gallons: '15k' } }),
    ).toMatchObject({ ok: false, code: 'invalid', message: 'Gallons must be a whole number from 100 to 2,000,000.' })
    expect(await addBodyOfWater({ companyId: sunset, locationId: dana.locationId, input: {} })).toMatchObject({
      code: 'not-found',
    })
  })
})

describe('equipment', () => {
  it('adds, edits and removes equipment on the company’s own bodies of water only', async () => {
    const owner = await addTestCustomer(blue, { customerName: 'Gear Head', address: '9 Pump Rd' })
    const [pool] = await db().select().from(bodiesOfWater).where(eq(bodiesOfWater.locationId, owner.locationId))
    const added = await addEquipment({
      companyId: blue,
      bodyOfWaterId: pool?.id ?? '',
      input: {
        kind: 'chlorinator',
        make: 'Pentair',
        model: 'IntelliChlor IC40',
        serial: ' IC4-123 ',
        installedOn: '2024-05-01',
      },
    })
    if (!added.ok) throw new Error(added.message)
    const input = { kind: 'chlorinator' as const, make: 'Hayward', model: 'AquaRite T-15', installedOn: '' }
    expect(await updateEquipment({ companyId: blue, equipmentId: added.equipmentId, input })).toEqual({ ok: true })
    const [row] = await db().select().from(equipment).where(eq(equipment.id, added.equipmentId))
    expect(row).toMatchObject({ make: 'Hayward', model: 'AquaRite T-15', serial: 'IC4-123', installedOn: null })

    expect(await updateEquipment({ companyId: sunset, equipmentId: added.equipmentId, input })).toMatchObject({
      code: 'not-found',
    })
    expect(await addEquipment({ companyId: sunset, bodyOfWaterId: pool?.id ?? '', input })).toMatchObject({
      code: 'not-found',
    })
    expect(
      await addEquipment({
        companyId: blue,
        bodyOfWaterId: pool?.id ?? '',
        input: { kind: 'jacuzzi' as never, installedOn: 'yesterday' },
      }),
    ).toMatchObject({ ok: false, code: 'invalid', message: 'Choose what kind of equipment this is.' })
    expect(
      await addEquipment({
        companyId: blue,
        bodyOfWaterId: pool?.id ?? '',
        input: { kind: 'pump', installedOn: '2024-13-01' },
      }),
    ).toMatchObject({ ok: false, code: 'invalid', message: 'Enter the date as YYYY-MM-DD.' })
    expect(await removeEquipment({ companyId: sunset, equipmentId: added.equipmentId })).toMatchObject({
      code: 'not-found',
    })
    expect(await removeEquipment({ companyId: blue, equipmentId: added.equipmentId })).toEqual({ ok: true })
    expect(await db().select().from(equipment).where(eq(equipment.id, added.equipmentId))).toEqual([])
  })
})
