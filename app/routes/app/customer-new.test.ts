import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { bodiesOfWater, customers, serviceLocations } from '~/db/schema'
import { db } from '~/utils/db.server'
import { INVALID_PHONE } from '~/utils/phone'
import { formRequest, routeArgs, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action } from './customer-new'

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app/customers/new', fields, cookie)

/** The errors of a Conform reply by field name, and its status. */
function rejected(result: unknown) {
  const value = result as { data: { result?: { error?: Record<string, string[] | null> } }; init?: { status?: number } }
  return { status: value.init?.status, errors: value.data.result?.error ?? {} }
}

/** A redirect thrown by redirectWithFlash: where it goes and the message it carries (signed, so only its presence). */
async function redirected(promise: Promise<unknown>) {
  const { thrown } = await settle(promise)
  expect(thrown).toBeInstanceOf(Response)
  const response = thrown as Response
  expect(response.status).toBe(302)
  expect(response.headers.get('Set-Cookie')).toMatch(/^pb-flash=/)
  return response.headers.get('Location') ?? ''
}

async function customerByName(name: string) {
  const [row] = await db().select().from(customers).where(eq(customers.customerName, name))
  return row
}

const base = {
  customerName: 'Nora Reef',
  email: '',
  phone: '',
  billingAddress: '',
  notes: '',
  'location.street': '12 Palm Ct',
  'location.city': 'Tampa',
  'location.state': 'FL',
  'location.postalCode': '33606',
  'location.gateCode': '#4321',
  'location.accessNotes': 'Side gate, blue latch',
  'location.dogOnSite': 'on',
  'location.minutesOnSite': '45',
  'bodyOfWater.name': 'Pool',
  'bodyOfWater.gallons': '15,000',
  'bodyOfWater.surface': 'plaster',
  'bodyOfWater.sanitizer': 'salt',
  'bodyOfWater.indoor': 'outdoor',
}

let dispatcher: string

beforeAll(async () => {
  await useDemoData()
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

describe('Add customer', () => {
  it('creates the customer, their first location with its access details and a pool, and opens the record', async () => {
    const to = await redirected(action(routeArgs(post(dispatcher, base))))
    const customer = await customerByName('Nora Reef')
    expect(to).toBe(`/app/customers/${customer?.id}`)
    expect(customer).toMatchObject({ email: null, phone: null, billingAddress: null, notes: null, status: 'active' })
    const [location] = await db()
      .select()
      .from(serviceLocations)
      .where(eq(serviceLocations.customerId, customer?.id ?? ''))
    expect(location).toMatchObject({
      street: '12 Palm Ct',
      city: 'Tampa',
      state: 'FL',
      postalCode: '33606',
      gateCode: '#4321',
      accessNotes: 'Side gate, blue latch',
      dogOnSite: true,
      minutesOnSite: 45,
    })
    const bodies = await db()
      .select()
      .from(bodiesOfWater)
      .where(and(eq(bodiesOfWater.locationId, location?.id ?? '')))
    expect(bodies).toMatchObject([
      { name: 'Pool', gallons: 15_000, surface: 'plaster', sanitizer: 'salt', indoor: false },
    ])
  })

  it('answers each bad field next to it and saves nothing', async () => {
    const result = rejected(
      await action(
        routeArgs(
          post(dispatcher, {
            ...base,
            customerName: ' ',
            phone: '555',
            'location.street': '',
            'location.minutesOnSite': '0',
            'bodyOfWater.gallons': '12.5',
          }),
        ),
      ),
    )
    expect(result.status).toBe(400)
    expect(result.errors).toMatchObject({
      customerName: ['Enter the customer’s name.'],
      phone: [INVALID_PHONE],
      'location.street': ['Enter the street address.'],
      'location.minutesOnSite': [expect.stringContaining('Minutes on site')],
      'bodyOfWater.gallons': [expect.stringContaining('Gallons')],
    })
  })

  it('creates a customer once when the same form is sent twice, and invites with an email', async () => {
    const key = crypto.randomUUID()
    const fields = { ...base, customerName: 'Owen Once', email: 'Owen.Once@Example.com', idempotencyKey: key }
    const first = await redirected(action(routeArgs(post(dispatcher, fields))))
    const second = await redirected(action(routeArgs(post(dispatcher, fields))))
    expect(second).toBe(first)
    const rows = await db().select().from(customers).where(eq(customers.customerName, 'Owen Once'))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.email).toBe('owen.once@example.com')
    // The invite created their portal login.
    expect(rows[0]?.portalUserId).not.toBeNull()
  })

  it('is for the office only', async () => {
    for (const email of ['tech@bluelagoon.test', 'customer@bluelagoon.test', 'admin@poolbud.test']) {
      const { thrown } = await settle(action(routeArgs(post(await signInAs(email), { ...base, customerName: 'Nope' }))))
      expect(statusOf(thrown)).toBe(403)
    }
    expect(await customerByName('Nope')).toBeUndefined()
  })
})
