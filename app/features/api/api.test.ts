// The public API end to end through its routes (docs/api.md): keys shown once and stored hashed; every answer valid
// against the OpenAPI document (itself valid OpenAPI 3.1); another company's records are 404 on every resource;
// Idempotency-Key replays and refuses; 429 with its headers; read-only keys cannot write.
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { requireApiKey } from '~/auth/api-key.server'
import { apiKeys, invoices, payments, servicePlans, visits } from '~/db/schema'
import { openApiDocument } from '~/features/api/openapi.server'
import { API_RATE, createApiKey, hashApiKey, listApiKeys, revokeApiKey } from '~/models/api-key.server'
import { createVisit } from '~/models/visit-changes.server'
import { db } from '~/utils/db.server'
import { addBillingCompany } from '../../../tests/helpers/billing'
import { addTestCustomer, type TestCustomer } from '../../../tests/helpers/customers'
import { routeArgs } from '../../../tests/helpers/requests'
import * as customerRoute from '../../routes/api/customer'
import * as customersRoute from '../../routes/api/customers'
import * as invoiceRoute from '../../routes/api/invoice'
import * as invoicesRoute from '../../routes/api/invoices'
import * as openapiRoute from '../../routes/api/openapi'
import * as paymentRoute from '../../routes/api/payment'
import * as paymentsRoute from '../../routes/api/payments'
import * as planRoute from '../../routes/api/service-plan'
import * as plansRoute from '../../routes/api/service-plans'
import * as technicianRoute from '../../routes/api/technician'
import * as techniciansRoute from '../../routes/api/technicians'
import * as visitRoute from '../../routes/api/visit'
import * as visitsRoute from '../../routes/api/visits'
import * as endpointRoute from '../../routes/api/webhook-endpoint'
import * as endpointsRoute from '../../routes/api/webhook-endpoints'

const BASE = 'http://localhost:3999/api/v1'
type Handler = (args: never) => Promise<Response> | Response
type RouteModule = { loader?: Handler; action?: Handler }

const document = openApiDocument('http://localhost:3999')
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
ajv.addSchema({ $id: 'https://pool-bud.test/openapi.json', components: document.components })

/** Checks an answer against the document's schema for `path` and `method` at its status. */
async function conforms(path: string, method: string, response: Response) {
  const operation = (document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[path]?.[
    method
  ]
  expect(operation, `${method} ${path} is documented`).toBeDefined()
  const spec = operation?.responses[String(response.status)] as
    | { content?: { 'application/json': { schema: { $ref: string } } } }
    | undefined
  expect(spec, `${method} ${path} documents status ${response.status}`).toBeDefined()
  const body = response.status === 204 ? null : await response.clone().json()
  const ref = spec?.content?.['application/json'].schema.$ref
  if (ref) {
    const valid = ajv.validate({ $ref: `https://pool-bud.test/openapi.json${ref}` }, body)
    expect(ajv.errorsText(ajv.errors), `${method} ${path} ${response.status}`).toBe('No errors')
    expect(valid).toBe(true)
  }
  return body
}

async function call(
  route: RouteModule,
  template: string,
  {
    key,
    method = 'GET',
    params = {},
    query = '',
    body,
    headers = {},
  }: {
    key: string
    method?: string
    params?: Record<string, string>
    query?: string
    body?: unknown
    headers?: Record<string, string>
  },
) {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? '')
  const request = new Request(`${BASE}${path}${query}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const handler = method === 'GET' ? route.loader : route.action
  if (!handler) throw new Error(`no handler for ${method}`)
  const response = await handler(routeArgs(request, params))
  return { response, body: await conforms(template, method.toLowerCase(), response) }
}

type Company = { id: string; readKey: string; writeKey: string; customer: TestCustomer }

async function company(name: string): Promise<Company> {
  const id = await addBillingCompany(name, `${name.toLowerCase().replace(/\W/g, '')}@api.test`)
  const read = await createApiKey({ companyId: id, createdBy: null, input: { name: 'Reader', scope: 'read' } })
  const write = await createApiKey({ companyId: id, createdBy: null, input: { name: 'Writer', scope: 'write' } })
  if (!read.ok || !write.ok) throw new Error('no keys')
  const customer = await addTestCustomer(id, {
    customerName: `${name} Customer`,
    address: '1 Main St, Tampa, FL 33602',
  })
  return { id, readKey: read.key, writeKey: write.key, customer }
}

let a: Company
let b: Company
let bRecords: { visitId: string; planId: string; invoiceId: string; paymentId: string }

beforeAll(async () => {
  a = await company('Alpha Pools')
  b = await company('Beta Pools')
  const visit = await createVisit({
    companyId: b.id,
    customerId: b.customer.id,
    scheduledAt: new Date('2030-01-02T15:00:00Z'),
    technicianId: null,
  })
  const [plan] = await db()
    .insert(servicePlans)
    .values({ companyId: b.id, locationId: b.customer.locationId, weekday: 3, startsOn: '2030-01-01', rateCents: 4500 })
    .returning({ id: servicePlans.id })
  const [invoice] = await db()
    .insert(invoices)
    .values({
      companyId: b.id,
      customerId: b.customer.id,
      number: 1,
      state: 'sent',
      issuedOn: '2030-01-01',
      dueOn: '2030-01-15',
      sentAt: new Date('2030-01-01T12:00:00Z'),
      subtotalCents: 4500,
      totalCents: 4500,
    })
    .returning({ id: invoices.id })
  const [payment] = await db()
    .insert(payments)
    .values({
      companyId: b.id,
      customerId: b.customer.id,
      invoiceId: invoice?.id,
      amountCents: 4500,
      receivedOn: '2030-01-03',
      method: 'check',
    })
    .returning({ id: payments.id })
  if (!visit || !plan || !invoice || !payment) throw new Error('no records')
  bRecords = { visitId: visit.id, planId: plan.id, invoiceId: invoice.id, paymentId: payment.id }
})

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 and is what /api/v1/openapi.json serves', async () => {
    const validator = new Validator()
    const result = await validator.validate(document as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
    const served = await (openapiRoute.loader as unknown as () => Response)().json()
    expect(served.openapi).toBe('3.1.0')
    expect(Object.keys(served.paths)).toContain('/customers/{customerId}')
  })

  it('asks of a request body only what the API requires: a new customer needs no "dogOnSite"', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { requestBody?: { content: Record<string, unknown> } }>
    >
    const body = paths['/customers']?.post?.requestBody?.content['application/json'] as { schema?: { $ref: string } }
    const schema = { $ref: body?.schema?.$ref ?? 'missing' }
    const minimal = { customerName: 'Ada Pool', location: { street: '1 Main St' } }
    const valid = ajv.validate({ $ref: `https://pool-bud.test/openapi.json${schema.$ref}` }, minimal)
    expect(ajv.errorsText(ajv.errors)).toBe('No errors')
    expect(valid).toBe(true)
  })
})

describe('API keys', () => {
  it('are shown once and stored only as their SHA-256', async () => {
    const created = await createApiKey({ companyId: a.id, createdBy: null, input: { name: 'Once', scope: 'read' } })
    if (!created.ok) throw new Error('not created')
    expect(created.key).toMatch(/^pb_live_[A-Za-z0-9_-]{43}$/)
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, created.id))
    expect(row?.keyHash).toBe(hashApiKey(created.key))
    expect(JSON.stringify(row)).not.toContain(created.key)
    const listed = await listApiKeys(a.id)
    expect(JSON.stringify(listed)).not.toContain(created.key)
    expect(listed.find((key) => key.id === created.id)).toMatchObject({ name: 'Once', scope: 'read' })
  })

  it('are refused without a key, with a revoked key, and a read-only key may not write', async () => {
    const none = await customersRoute.loader({
      request: new Request(`${BASE}/customers`),
      params: {},
      context: {},
    } as never)
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } })
    const created = await createApiKey({ companyId: a.id, createdBy: null, input: { name: 'Gone', scope: 'write' } })
    if (!created.ok) throw new Error('not created')
    await revokeApiKey({ companyId: a.id, keyId: created.id })
    const revoked = await call(customersRoute, '/customers', { key: created.key })
    expect(revoked.response.status).toBe(401)
    const readOnly = await call(customersRoute, '/customers', {
      key: a.readKey,
      method: 'POST',
      body: { customerName: 'Nope', location: { street: '2 Main St' } },
    })
    expect(readOnly.response.status).toBe(403)
    expect(readOnly.body.error.code).toBe('forbidden')
  })
})

describe('resources', () => {
  it('lists, creates, reads and updates customers with their locations and bodies of water, paged by cursor', async () => {
    for (let index = 0; index < 3; index++) {
      const created = await call(customersRoute, '/customers', {
        key: a.writeKey,
        method: 'POST',
        body: {
          customerName: `Paged ${index}`,
          email: `paged${index}@example.com`,
          location: { street: `${index} Oak Ave`, city: 'Tampa' },
          bodyOfWater: { name: 'Spa', gallons: 800 },
        },
      })
      expect(created.response.status).toBe(201)
      expect(created.body.serviceLocations[0].bodiesOfWater[0]).toMatchObject({ name: 'Spa', gallons: 800 })
    }
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { data: { customerName: string }[]; nextCursor: string | null } } = await call(
        customersRoute,
        '/customers',
        { key: a.readKey, query: `?limit=2${cursor ? `&cursor=${cursor}` : ''}` },
      )
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((customer) => customer.customerName))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['Alpha Pools Customer', 'Paged 0', 'Paged 1', 'Paged 2'])
    const search = await call(customersRoute, '/customers', { key: a.readKey, query: '?q=paged1' })
    expect(search.body.data.map((customer: { email: string }) => customer.email)).toEqual(['paged1@example.com'])
    const patched = await call(customerRoute, '/customers/{customerId}', {
      key: a.writeKey,
      method: 'PATCH',
      params: { customerId: a.customer.id },
      body: { notes: 'Gate code changed' },
    })
    expect(patched.response.status).toBe(200)
    expect(patched.body).toMatchObject({ customerName: 'Alpha Pools Customer', notes: 'Gate code changed' })
    const invalid = await call(customersRoute, '/customers', {
      key: a.writeKey,
      method: 'POST',
      body: { customerName: '', location: { street: '1 A St' } },
    })
    expect(invalid.response.status).toBe(422)
    const badCursor = await call(customersRoute, '/customers', { key: a.readKey, query: '?cursor=nonsense' })
    expect(badCursor.response.status).toBe(400)
    const tooMany = await call(customersRoute, '/customers', { key: a.readKey, query: '?limit=101' })
    expect(tooMany.response.status).toBe(400)
  })

  it('lists only what was created or changed since `updated_since`, a change to a location or pool included', async () => {
    const c = await company('Since Pools')
    const make = async (customerName: string) => {
      const created = await call(customersRoute, '/customers', {
        key: c.writeKey,
        method: 'POST',
        body: { customerName, location: { street: '2 Palm Ave' }, bodyOfWater: { name: 'Pool', gallons: 12000 } },
      })
      return created.body as { id: string; serviceLocations: { id: string }[] }
    }
    const kept = await make('Kept Same')
    const renamed = await make('To Rename')
    const refilled = await make('New Pool Size')
    const visit = await call(visitsRoute, '/visits', {
      key: c.writeKey,
      method: 'POST',
      body: { customerId: kept.id, scheduledAt: '2031-07-07T14:00:00Z' },
    })
    const untouched = await call(visitsRoute, '/visits', {
      key: c.writeKey,
      method: 'POST',
      body: { customerId: kept.id, scheduledAt: '2031-07-08T14:00:00Z' },
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const since = new Date().toISOString()
    const changed = async () =>
      (await call(customersRoute, '/customers', { key: c.readKey, query: `?updated_since=${since}` })).body.data
        .map((customer: { customerName: string }) => customer.customerName)
        .sort()
    expect(await changed()).toEqual([])

    await call(customerRoute, '/customers/{customerId}', {
      key: c.writeKey,
      method: 'PATCH',
      params: { customerId: renamed.id },
      body: { customerName: 'Renamed' },
    })
    expect(await changed()).toEqual(['Renamed'])
    // Any write path counts, a pool's size changed by a plain SQL statement included.
    await db().execute(
      sql`update bodies_of_water set gallons = 15000 where location_id = ${refilled.serviceLocations[0]?.id}`,
    )
    expect(await changed()).toEqual(['New Pool Size', 'Renamed'])

    await db().update(visits).set({ completedAt: new Date() }).where(eq(visits.id, visit.body.id))
    const visitList = await call(visitsRoute, '/visits', { key: c.readKey, query: `?updated_since=${since}` })
    const ids = visitList.body.data.map((row: { id: string }) => row.id)
    expect(ids).toEqual([visit.body.id])
    expect(ids).not.toContain(untouched.body.id)

    const bad = await call(customersRoute, '/customers', { key: c.readKey, query: '?updated_since=yesterday' })
    expect(bad.response.status).toBe(400)
  })

  it('creates a one-off visit and lists visits by date range and status', async () => {
    const created = await call(visitsRoute, '/visits', {
      key: a.writeKey,
      method: 'POST',
      body: { customerId: a.customer.id, scheduledAt: '2031-05-05T14:00:00Z' },
    })
    expect(created.response.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'scheduled', customerId: a.customer.id })
    const inRange = await call(visitsRoute, '/visits', {
      key: a.readKey,
      query: '?from=2031-05-01T00:00:00Z&to=2031-06-01T00:00:00Z&status=scheduled',
    })
    expect(inRange.body.data.map((visit: { id: string }) => visit.id)).toEqual([created.body.id])
    const outside = await call(visitsRoute, '/visits', { key: a.readKey, query: '?to=2031-05-01T00:00:00Z' })
    expect(outside.body.data.map((visit: { id: string }) => visit.id)).not.toContain(created.body.id)
    const one = await call(visitRoute, '/visits/{visitId}', { key: a.readKey, params: { visitId: created.body.id } })
    expect(one.body.id).toBe(created.body.id)
    const elsewhere = await call(visitsRoute, '/visits', {
      key: a.writeKey,
      method: 'POST',
      body: { customerId: b.customer.id, scheduledAt: '2031-05-05T14:00:00Z' },
    })
    expect(elsewhere.response.status).toBe(404)
  })

  it("answers another company's records 404 on every resource, and lists none of them", async () => {
    const reads: [RouteModule, string, Record<string, string>][] = [
      [customerRoute, '/customers/{customerId}', { customerId: b.customer.id }],
      [visitRoute, '/visits/{visitId}', { visitId: bRecords.visitId }],
      [planRoute, '/service-plans/{planId}', { planId: bRecords.planId }],
      [invoiceRoute, '/invoices/{invoiceId}', { invoiceId: bRecords.invoiceId }],
      [paymentRoute, '/payments/{paymentId}', { paymentId: bRecords.paymentId }],
      [technicianRoute, '/technicians/{technicianId}', { technicianId: 'no-such-tech' }],
    ]
    for (const [route, path, params] of reads) {
      const theirs = await call(route, path, { key: b.readKey, params })
      if (!path.startsWith('/technicians')) expect(theirs.response.status, path).toBe(200)
      const mine = await call(route, path, { key: a.readKey, params })
      expect(mine.response.status, path).toBe(404)
      expect(mine.body.error.code).toBe('not_found')
    }
    const patch = await call(customerRoute, '/customers/{customerId}', {
      key: a.writeKey,
      method: 'PATCH',
      params: { customerId: b.customer.id },
      body: { notes: 'hijacked' },
    })
    expect(patch.response.status).toBe(404)
    const lists: [RouteModule, string][] = [
      [customersRoute, '/customers'],
      [visitsRoute, '/visits'],
      [plansRoute, '/service-plans'],
      [invoicesRoute, '/invoices'],
      [paymentsRoute, '/payments'],
      [techniciansRoute, '/technicians'],
      [endpointsRoute, '/webhook-endpoints'],
    ]
    const theirIds = [b.customer.id, ...Object.values(bRecords)]
    for (const [route, path] of lists) {
      const mine = await call(route, path, { key: a.readKey, query: path === '/technicians' ? '' : '?limit=100' })
      for (const id of theirIds) expect(JSON.stringify(mine.body), path).not.toContain(id)
      const theirs = await call(route, path, { key: b.readKey })
      expect(theirs.response.status).toBe(200)
    }
    const [first] = (await call(invoicesRoute, '/invoices', { key: b.readKey })).body.data
    expect(first).toMatchObject({ id: bRecords.invoiceId, totalCents: 4500 })
  })

  it('manages webhook endpoints, refusing private addresses and keeping them to the company', async () => {
    const created = await call(endpointsRoute, '/webhook-endpoints', {
      key: a.writeKey,
      method: 'POST',
      body: { url: 'https://hooks.example.com/pool-bud', events: ['customer.created'] },
    })
    expect(created.response.status).toBe(201)
    expect(created.body.secret).toMatch(/^whsec_/)
    const read = await call(endpointRoute, '/webhook-endpoints/{endpointId}', {
      key: a.readKey,
      params: { endpointId: created.body.id },
    })
    expect(read.body).not.toHaveProperty('secret')
    const theirs = await call(endpointRoute, '/webhook-endpoints/{endpointId}', {
      key: b.readKey,
      params: { endpointId: created.body.id },
    })
    expect(theirs.response.status).toBe(404)
    const local = await call(endpointsRoute, '/webhook-endpoints', {
      key: a.writeKey,
      method: 'POST',
      body: { url: 'https://127.0.0.1/hook', events: ['customer.created'] },
    })
    expect(local.response.status).toBe(422)
    const patched = await call(endpointRoute, '/webhook-endpoints/{endpointId}', {
      key: a.writeKey,
      method: 'PATCH',
      params: { endpointId: created.body.id },
      body: { events: ['visit.completed', 'invoice.paid'] },
    })
    expect(patched.body.events).toEqual(['visit.completed', 'invoice.paid'])
    const deleted = await call(endpointRoute, '/webhook-endpoints/{endpointId}', {
      key: a.writeKey,
      method: 'DELETE',
      params: { endpointId: created.body.id },
    })
    expect(deleted.response.status).toBe(204)
  })
})

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, and refuses another body with 422', async () => {
    const body = { customerName: 'Once Only', location: { street: '9 Elm St' } }
    const headers = { 'idempotency-key': 'order-7781' }
    const first = await call(customersRoute, '/customers', { key: a.writeKey, method: 'POST', body, headers })
    const again = await call(customersRoute, '/customers', { key: a.writeKey, method: 'POST', body, headers })
    expect(first.response.status).toBe(201)
    expect(again.response.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true')
    const search = await call(customersRoute, '/customers', { key: a.readKey, query: '?q=Once%20Only' })
    expect(search.body.data).toHaveLength(1)
    const other = await call(customersRoute, '/customers', {
      key: a.writeKey,
      method: 'POST',
      body: { ...body, customerName: 'Someone Else' },
      headers,
    })
    expect(other.response.status).toBe(422)
    expect(other.body.error.code).toBe('idempotency_key_reused')
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit headers once a burst is spent, for that key only', async () => {
    const fresh = await createApiKey({ companyId: a.id, createdBy: null, input: { name: 'Busy', scope: 'read' } })
    if (!fresh.ok) throw new Error('no key')
    const request = () => new Request(`${BASE}/customers`, { headers: { authorization: `Bearer ${fresh.key}` } })
    const now = new Date('2030-03-01T10:00:00Z')
    for (let index = 0; index < API_RATE.burst; index++) {
      const caller = await requireApiKey(request(), 'read', now)
      expect(caller.rateHeaders.get('RateLimit')).toContain(`r=${API_RATE.burst - 1 - index}`)
    }
    const refused = await requireApiKey(request(), 'read', now).catch((thrown: unknown) => thrown as Response)
    expect(refused).toBeInstanceOf(Response)
    expect((refused as Response).status).toBe(429)
    expect((refused as Response).headers.get('Retry-After')).toBe('1')
    expect((refused as Response).headers.get('RateLimit-Policy')).toContain('q=600;w=60')
    expect(await (refused as Response).json()).toMatchObject({ error: { code: 'rate_limited' } })
    // Another company's key is untouched at the same instant; this key refills at 10 a second.
    await expect(
      requireApiKey(
        new Request(`${BASE}/customers`, { headers: { authorization: `Bearer ${b.readKey}` } }),
        'read',
        now,
      ),
    ).resolves.toMatchObject({ companyId: b.id })
    await expect(requireApiKey(request(), 'read', new Date(now.getTime() + 1000))).resolves.toMatchObject({
      companyId: a.id,
    })
  })
})
