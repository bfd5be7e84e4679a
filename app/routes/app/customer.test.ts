import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { bodiesOfWater, customers, equipment, serviceLocations, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer, findTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './customer'

const post = (cookie: string, customerId: string, fields: Record<string, string>) =>
  formRequest(`/app/customers/${customerId}`, fields, cookie)

type RecordPage = Awaited<ReturnType<typeof loader>>

async function record(cookie: string, customerId: string, search = '') {
  return (await loader(
    routeArgs(pageRequest(`/app/customers/${customerId}${search}`, cookie), { customerId }),
  )) as RecordPage
}

/** What the record shows, without the key each page view mints for its "New quote" button (not state). */
function stateOf(page: RecordPage) {
  // Every "New quote" form (the record's and each equipment item's) gets a fresh idempotency key per load.
  return JSON.parse(JSON.stringify(page, (key, value) => (key === 'newQuoteKey' ? undefined : value)))
}

/** Runs an action that should save and redirect back to the record with a message. */
async function saves(cookie: string, customerId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, customerId, fields), { customerId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/customers/${customerId}`)
  expect(response.headers.get('Set-Cookie')).toMatch(/^pb-flash=/)
}

function reply(result: unknown) {
  const value = result as {
    data: { message?: string | null; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number }
  }
  return { status: value.init?.status ?? 200, message: value.data.message, errors: value.data.result?.error ?? {} }
}

const location = {
  label: 'Beach house',
  street: '2 Gulf Blvd',
  city: 'Clearwater',
  state: 'FL',
  postalCode: '33767',
  gateCode: '2468',
  accessNotes: 'Code on the keypad left of the door',
  dogOnSite: 'on',
  minutesOnSite: '40',
}

let dispatcher: string
let blueCompanyId: string

beforeAll(async () => {
  await useDemoData()
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  const [marcus] = await db().select().from(customers).where(eq(customers.customerName, 'Marcus Bell'))
  blueCompanyId = marcus?.companyId ?? ''
})

describe('the customer record', () => {
  it('shows contact details, locations with access details, bodies of water, plans and visits', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const page = await record(dispatcher, dana.id)
    expect(page.customer).toMatchObject({ customerName: 'Dana Whitfield', balanceDue: '$240.00', archived: false })
    expect(page.locations[0]).toMatchObject({ address: dana.address, minutesOnSite: expect.any(Number) })
    expect(page.locations[0]?.bodiesOfWater.length).toBeGreaterThan(0)
    expect(page.upcomingVisits.length + page.visitHistory.rows.length).toBeGreaterThan(0)
    for (const visit of page.visitHistory.rows) expect(['Completed', 'Canceled']).toContain(visit.status)
    expect(page.open).toEqual({ edit: '', add: '' })
    expect((await record(dispatcher, dana.id, '?edit=contact')).open.edit).toBe('contact')
  })

  it('edits the contact details, clearing what is blanked', async () => {
    const customer = await addTestCustomer(blueCompanyId, {
      customerName: 'Cleo Contact',
      address: '3 Bay St, Tampa, FL',
      email: 'cleo@example.com',
    })
    await saves(dispatcher, customer.id, {
      intent: 'contact',
      customerName: 'Cleo Contact-Ruiz',
      email: '',
      phone: '813 555 0199',
      billingAddress: 'PO Box 9, Tampa, FL',
      notes: 'Prefers texts',
    })
    const [row] = await db().select().from(customers).where(eq(customers.id, customer.id))
    expect(row).toMatchObject({
      customerName: 'Cleo Contact-Ruiz',
      email: null,
      phone: '+18135550199',
      billingAddress: 'PO Box 9, Tampa, FL',
      notes: 'Prefers texts',
    })
    const refused = reply(
      await action(
        routeArgs(post(dispatcher, customer.id, { intent: 'contact', customerName: '', email: 'x' }), {
          customerId: customer.id,
        }),
      ),
    )
    expect(refused.status).toBe(400)
    expect(refused.errors).toMatchObject({
      customerName: ['Enter the customer’s name.'],
      email: ['Enter a valid email address.'],
    })
  })

  it('adds a second location, a spa there with equipment, edits and removes them', async () => {
    const customer = await addTestCustomer(blueCompanyId, { customerName: 'Hal Two Homes', address: '1 Main St' })
    await saves(dispatcher, customer.id, { intent: 'add-location', ...location })
    const page = await record(dispatcher, customer.id)
    expect(page.locations).toHaveLength(2)
    const beach = page.locations[1]
    expect(beach).toMatchObject({
      label: 'Beach house',
      address: '2 Gulf Blvd, Clearwater, FL 33767',
      gateCode: '2468',
      dogOnSite: true,
      minutesOnSite: 40,
    })
    // Clearing the gate code and unticking the dog clears them.
    await saves(dispatcher, customer.id, {
      intent: 'edit-location',
      targetId: beach?.id ?? '',
      ...location,
      gateCode: '',
      dogOnSite: '',
    })
    const [edited] = await db()
      .select()
      .from(serviceLocations)
      .where(eq(serviceLocations.id, beach?.id ?? ''))
    expect(edited).toMatchObject({ gateCode: null, dogOnSite: false, accessNotes: location.accessNotes })

    await saves(dispatcher, customer.id, {
      intent: 'add-body',
      targetId: beach?.id ?? '',
      name: 'Spa',
      gallons: '600',
      surface: '',
      sanitizer: 'chlorine',
      indoor: 'outdoor',
    })
    const [spa] = await db()
      .select()
      .from(bodiesOfWater)
      .where(and(eq(bodiesOfWater.locationId, beach?.id ?? ''), eq(bodiesOfWater.name, 'Spa')))
    expect(spa).toMatchObject({ gallons: 600, sanitizer: 'chlorine', indoor: false, surface: null })
    await saves(dispatcher, customer.id, {
      intent: 'add-equipment',
      targetId: spa?.id ?? '',
      kind: 'heater',
      make: 'Raypak',
      model: 'Avia 266k',
      serial: 'RP-1',
      installedOn: '2024-05-01',
      notes: '',
    })
    const [heater] = await db()
      .select()
      .from(equipment)
      .where(eq(equipment.bodyOfWaterId, spa?.id ?? ''))
    expect(heater).toMatchObject({ kind: 'heater', make: 'Raypak', installedOn: '2024-05-01' })
    const badKind = reply(
      await action(
        routeArgs(
          post(dispatcher, customer.id, { intent: 'add-equipment', targetId: spa?.id ?? '', kind: 'toaster' }),
          { customerId: customer.id },
        ),
      ),
    )
    expect(badKind.errors.kind).toEqual(['Choose what kind of equipment this is.'])

    await saves(dispatcher, customer.id, { intent: 'remove-equipment', targetId: heater?.id ?? '' })
    await saves(dispatcher, customer.id, { intent: 'remove-body', targetId: spa?.id ?? '' })
    await saves(dispatcher, customer.id, { intent: 'remove-location', targetId: beach?.id ?? '' })
    expect((await record(dispatcher, customer.id)).locations).toHaveLength(1)

    // The last location stays: the model's refusal is said in words, with its status.
    const last = reply(
      await action(
        routeArgs(post(dispatcher, customer.id, { intent: 'remove-location', targetId: customer.locationId }), {
          customerId: customer.id,
        }),
      ),
    )
    expect(last).toMatchObject({ status: 409, message: expect.stringContaining('only service location') })
  })

  it('archives a customer (open visits canceled, out of the list) and restores them', async () => {
    const customer = await addTestCustomer(blueCompanyId, { customerName: 'Ada Archive', address: '4 Elm St' })
    await db()
      .insert(visits)
      .values({
        companyId: blueCompanyId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        scheduledAt: new Date(Date.now() + 86_400_000),
      })
    await saves(dispatcher, customer.id, { intent: 'archive' })
    const archived = await record(dispatcher, customer.id)
    expect(archived.customer.archived).toBe(true)
    expect(archived.upcomingVisits).toEqual([])
    expect(archived.visitHistory.rows.map((visit) => visit.status)).toEqual(['Canceled'])
    await saves(dispatcher, customer.id, { intent: 'restore' })
    expect((await record(dispatcher, customer.id)).customer.archived).toBe(false)
    const open = await db()
      .select()
      .from(visits)
      .where(and(eq(visits.customerId, customer.id), isNull(visits.canceledAt)))
    expect(open).toEqual([])
  })
})

describe('who may see and change a record', () => {
  it("is a 404 for another company's customer and its pieces, and changes nothing", async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const sunset = await signInAs('owner@sunsetpools.test')
    expect(statusOf((await settle(record(sunset, dana.id))).thrown)).toBe(404)
    expect(statusOf((await settle(record(dispatcher, 'not-an-id'))).thrown)).toBe(404)
    const before = await record(dispatcher, dana.id)
    const attempts: Array<Record<string, string>> = [
      { intent: 'contact', customerName: 'Hijacked' },
      { intent: 'contact', customerName: '' },
      { intent: 'archive' },
      { intent: 'add-location', ...location },
      { intent: 'remove-location', targetId: dana.locationId },
    ]
    for (const fields of attempts) {
      const { thrown } = await settle(action(routeArgs(post(sunset, dana.id, fields), { customerId: dana.id })))
      expect(statusOf(thrown)).toBe(404)
    }
    // Sunset's own customer's page cannot reach Blue Lagoon's location either.
    const marco = await findTestCustomer('Marco Ruiz')
    const { thrown } = await settle(
      action(
        routeArgs(post(sunset, marco.id, { intent: 'edit-location', targetId: dana.locationId, ...location }), {
          customerId: marco.id,
        }),
      ),
    )
    expect(statusOf(thrown)).toBe(404)
    expect(stateOf(await record(dispatcher, dana.id))).toEqual(stateOf(before))
  })

  it('answers an intent no form sends with the 400 error page, and changes nothing', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    const before = await record(dispatcher, dana.id)
    const { thrown } = await settle(
      action(routeArgs(post(dispatcher, dana.id, { intent: 'merge' }), { customerId: dana.id })),
    )
    expect(statusOf(thrown)).toBe(400)
    expect((thrown as { data?: unknown }).data).toBe('Unknown action.')
    expect(stateOf(await record(dispatcher, dana.id))).toEqual(stateOf(before))
  })

  it('turns technicians, customers and the platform admin away', async () => {
    const dana = await findTestCustomer('Dana Whitfield')
    for (const email of ['tech@bluelagoon.test', 'customer@bluelagoon.test', 'admin@poolbud.test']) {
      const cookie = await signInAs(email)
      expect(statusOf((await settle(record(cookie, dana.id))).thrown)).toBe(403)
      const { thrown } = await settle(
        action(routeArgs(post(cookie, dana.id, { intent: 'archive' }), { customerId: dana.id })),
      )
      expect(statusOf(thrown)).toBe(403)
    }
  })
})
