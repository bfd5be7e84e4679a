// Every location gets a position with no network needed (issue 32 item 1, docs/subsystems.md "Positions"): a
// location added by hand or imported with only a ZIP is placed at the ZIP's center, routed and marked approximate;
// "Adjust position" saves the person's coordinates and the mark goes; with GEOCODER_URL a background pass moves
// ZIP centers to the street address, one request at a time and never over a newer edit.
import { eq } from 'drizzle-orm'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { createGeocoder } from '~/routing/geocoder.server'
import { zipCenter } from '~/routing/zip-center'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { type LocalServer, sendJson, startLocalServer } from '../../tests/helpers/local-http-server'
import { createCustomerWithLocation } from './customer-changes.server'
import { applyImport } from './customer-import.server'
import { previewImport } from './customer-import-preview.server'
import { getDayRoute } from './day-route.server'
import { countWaitingForGeocoder, placeZipPositions } from './location-position.server'
import { addServiceLocation, updateServiceLocation } from './service-location.server'
import { createVisit } from './visit-changes.server'

const ZONE = 'America/New_York'
let companyId: string
let technicianId: string
let made = 0

/** A company of its own (so the demo's data never matters) with one technician. */
beforeAll(async () => {
  const [company] = await db()
    .insert(companies)
    .values({ name: 'Position Pools', timezone: ZONE })
    .returning({ id: companies.id })
  companyId = company?.id ?? ''
  await createDemoLogin(db(), { email: 'tech@positions.test', fullName: 'Pat Positions', role: 'tech', companyId })
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@positions.test'))
  technicianId = row?.id ?? ''
})

let server: LocalServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const instantClock = { now: () => 0, sleep: async () => undefined }

async function locationRow(id: string) {
  const [row] = await db().select().from(serviceLocations).where(eq(serviceLocations.id, id))
  if (!row) throw new Error('no location')
  return row
}

async function addByHand(input: { street: string; city?: string; state?: string; postalCode?: string }) {
  made++
  const created = await createCustomerWithLocation(companyId, {
    customerName: `Hand Added ${made}`,
    location: { ...input, dogOnSite: false },
  } as never)
  if (!created.ok) throw new Error(created.message)
  return created
}

/** Today's stop for the location's customer, as the route page reads it. */
async function stopOf(customerId: string, locationId: string) {
  const scheduledAt = new Date(Date.now() + 60_000)
  const visit = await createVisit({ companyId, customerId, locationId, scheduledAt, technicianId })
  if (!visit) throw new Error('no visit')
  const route = await getDayRoute({ companyId, timezone: ZONE, technicianId, date: localDateAt(scheduledAt, ZONE) })
  const stop = route.stops.find((candidate) => candidate.locationId === locationId)
  if (!stop) throw new Error('no stop')
  return stop
}

describe('a location added by hand', () => {
  it('with only a ZIP is placed at the ZIP center, routed and marked approximate, with no geocoder', async () => {
    const { customerId, locationId } = await addByHand({ street: '7000 E Mayo Blvd', postalCode: '85254' })
    const center = zipCenter('85254')
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'zip', lat: center?.lat, lng: center?.lng })
    const stop = await stopOf(customerId, locationId)
    expect(stop.point).toEqual(center)
    expect(stop.approximate).toBe(true)
  })

  it('without a ZIP the data knows has no position and is not routed', async () => {
    const { customerId, locationId } = await addByHand({ street: '1 Nowhere Rd', postalCode: '00000' })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: null, lat: null, lng: null })
    const stop = await stopOf(customerId, locationId)
    expect(stop.point).toBeNull()
    expect(stop.approximate).toBe(false)
  })

  it('"Adjust position" saves the coordinates as the person’s: the mark goes and a new address keeps them', async () => {
    const { customerId, locationId } = await addByHand({ street: '10 Palm Ave', city: 'Tampa', postalCode: '33606' })
    const form = { street: '10 Palm Ave', city: 'Tampa', state: '', postalCode: '33606', dogOnSite: '' }
    expect(
      await updateServiceLocation({ companyId, locationId, input: { ...form, lat: '27.9401', lng: '-82.4702' } }),
    ).toEqual({ ok: true })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'manual', lat: 27.9401, lng: -82.4702 })
    const stop = await stopOf(customerId, locationId)
    expect(stop.approximate).toBe(false)
    expect(stop.point).toEqual({ lat: 27.9401, lng: -82.4702 })
    // The person put the pin there: a corrected ZIP does not move it.
    await updateServiceLocation({
      companyId,
      locationId,
      input: { ...form, postalCode: '33609', lat: '27.9401', lng: '-82.4702' },
    })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'manual', lat: 27.9401 })
    // Cleared, the location goes back to its address: the new ZIP's center, approximate.
    await updateServiceLocation({ companyId, locationId, input: { ...form, postalCode: '33609', lat: '', lng: '' } })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'zip', lat: zipCenter('33609')?.lat })
  })

  it('a new ZIP moves a ZIP-center position, and saving the form unchanged keeps it', async () => {
    const { locationId } = await addByHand({ street: '5 Bay St', postalCode: '33606' })
    // The form shows a ZIP center as blank coordinates ("placed by address").
    const form = { street: '5 Bay St', postalCode: '33606', lat: '', lng: '', dogOnSite: '' }
    await updateServiceLocation({ companyId, locationId, input: form })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'zip', lat: zipCenter('33606')?.lat })
    await updateServiceLocation({ companyId, locationId, input: { ...form, postalCode: '85254' } })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'zip', lat: zipCenter('85254')?.lat })
  })

  it('"Add service location" with a ZIP+4 is placed at the ZIP center; typed coordinates are kept', async () => {
    const { customerId } = await addByHand({ street: '1 First St', postalCode: '33606' })
    const zipOnly = await addServiceLocation({
      companyId,
      customerId,
      input: { street: '2 Second St', postalCode: '85254-1234', dogOnSite: false },
    })
    if (!zipOnly.ok) throw new Error(zipOnly.message)
    expect(await locationRow(zipOnly.locationId)).toMatchObject({ positionSource: 'zip', lat: zipCenter('85254')?.lat })
    const typed = await addServiceLocation({
      companyId,
      customerId,
      input: { street: '3 Third St', postalCode: '85254', lat: '33.6', lng: '-111.9', dogOnSite: false },
    })
    if (!typed.ok) throw new Error(typed.message)
    expect(await locationRow(typed.locationId)).toMatchObject({ positionSource: 'manual', lat: 33.6, lng: -111.9 })
  })
})

describe('an imported customer', () => {
  it('without coordinates is routed at once at the ZIP center; one with coordinates keeps the file’s', async () => {
    const header = 'Customer Name,Service Address,City,State,Zip,Latitude,Longitude\n'
    const file = new TextEncoder().encode(
      `${header}Imported Without,9 Cactus Rd,Scottsdale,AZ,85254,,\n` +
        `Imported With,11 Cactus Rd,Scottsdale,AZ,85254,33.62,-111.95\n`,
    )
    const preview = await previewImport(companyId, file)
    if (!preview.ok) throw new Error(preview.message)
    expect(preview.plan.problems).toEqual([])
    const applied = await applyImport(companyId, preview.plan)
    if (!applied.ok) throw new Error(applied.message)
    const rows = await db()
      .select({
        street: serviceLocations.street,
        id: serviceLocations.id,
        customerId: serviceLocations.customerId,
        positionSource: serviceLocations.positionSource,
        lat: serviceLocations.lat,
      })
      .from(serviceLocations)
      .where(eq(serviceLocations.companyId, companyId))
    const without = rows.find((row) => row.street === '9 Cactus Rd')
    const withCoordinates = rows.find((row) => row.street === '11 Cactus Rd')
    expect(without).toMatchObject({ positionSource: 'zip', lat: zipCenter('85254')?.lat })
    expect(withCoordinates).toMatchObject({ positionSource: 'import', lat: 33.62 })
    if (!without) throw new Error('not imported')
    const stop = await stopOf(without.customerId, without.id)
    expect(stop.point).toEqual(zipCenter('85254'))
    expect(stop.approximate).toBe(true)
  })
})

describe('the background pass with GEOCODER_URL', () => {
  it('moves ZIP centers to the street address from a Nominatim-compatible server, and the mark goes', async () => {
    const { customerId, locationId } = await addByHand({
      street: '2100 E Las Olas Blvd',
      city: 'Fort Lauderdale',
      state: 'FL',
      postalCode: '33301',
    })
    server = await startLocalServer((request, response) =>
      sendJson(
        response,
        200,
        request.url.searchParams.get('q')?.startsWith('2100 E Las Olas Blvd')
          ? [{ lat: '26.1194', lon: '-80.1264', display_name: '2100, East Las Olas Boulevard' }]
          : [],
      ),
    )
    const geocode = createGeocoder({ url: server.url, clock: instantClock })
    expect(await countWaitingForGeocoder(companyId)).toBeGreaterThan(0)
    await placeZipPositions({ geocode, limit: 100 })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'geocoder', lat: 26.1194, lng: -80.1264 })
    expect(server.requests.map((r) => r.url.searchParams.get('q'))).toContain(
      '2100 E Las Olas Blvd, Fort Lauderdale, FL 33301',
    )
    // Every waiting position was tried once; one the geocoder cannot find stays approximate for a person to fix.
    expect(await countWaitingForGeocoder(companyId)).toBe(0)
    const asked = server.requests.length
    await placeZipPositions({ geocode, limit: 100 })
    expect(server.requests.length).toBe(asked)
    const stop = await stopOf(customerId, locationId)
    expect(stop.approximate).toBe(false)
  })

  it('never overwrites an address edited while the lookup was out, and retries when the geocoder is down', async () => {
    const { locationId } = await addByHand({ street: '1 Old Rd', postalCode: '33301' })
    let editDuringLookup = true
    server = await startLocalServer((_, response) => {
      if (editDuringLookup) {
        editDuringLookup = false
        void updateServiceLocation({
          companyId,
          locationId,
          input: { street: '2 New Rd', postalCode: '33301', lat: '', lng: '', dogOnSite: '' },
        }).then(() => sendJson(response, 200, [{ lat: '26.1', lon: '-80.1' }]))
        return
      }
      sendJson(response, 503, { error: 'busy' })
    })
    const geocode = createGeocoder({ url: server.url, clock: instantClock })
    await placeZipPositions({ geocode, limit: 1 })
    expect(await locationRow(locationId)).toMatchObject({ street: '2 New Rd', positionSource: 'zip' })
    // The new address waits for its own lookup; the geocoder is down, so it stays in the queue.
    await placeZipPositions({ geocode, limit: 1 })
    expect(await locationRow(locationId)).toMatchObject({ positionSource: 'zip', geocodeTriedAt: null })
  })

  it('sends nothing when no geocoder is configured', async () => {
    expect(await placeZipPositions({ geocode: null })).toBe(0)
  })
})
