// The OpenAPI 3.1 document of /api/v1 (docs/decisions/050-public-api.md), generated from the very Zod schemas the
// routes parse with (api-schemas.ts) by Zod's own JSON Schema output: one source, so the document cannot drift.
import { z } from 'zod'
import { WEBHOOK_EVENT_TYPES } from '~/db/schema/api'
import * as schemas from './api-schemas'

type Operation = {
  method: 'get' | 'post' | 'patch' | 'delete'
  path: string
  tag: string
  summary: string
  query?: z.ZodObject
  body?: z.ZodType
  ok: { status: number; schema: z.ZodType | null }
  errors?: number[]
}

const list = (name: string, item: z.ZodType) => schemas.pageOf(item, name)

const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/customers',
    tag: 'Customers',
    summary: 'List customers (search with q)',
    query: schemas.CustomerListQuery,
    ok: { status: 200, schema: list('Customer', schemas.CustomerOut) },
  },
  {
    method: 'post',
    path: '/customers',
    tag: 'Customers',
    summary: 'Create a customer with a service location',
    body: schemas.CustomerCreateBody,
    ok: { status: 201, schema: schemas.CustomerOut },
    errors: [422],
  },
  {
    method: 'get',
    path: '/customers/{customerId}',
    tag: 'Customers',
    summary: 'Read a customer',
    ok: { status: 200, schema: schemas.CustomerOut },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/customers/{customerId}',
    tag: 'Customers',
    summary: "Update a customer's contact details",
    body: schemas.CustomerUpdateBody,
    ok: { status: 200, schema: schemas.CustomerOut },
    errors: [404, 422],
  },
  {
    method: 'get',
    path: '/visits',
    tag: 'Visits',
    summary: 'List visits by date range, technician and status',
    query: schemas.VisitListQuery,
    ok: { status: 200, schema: list('Visit', schemas.VisitOut) },
  },
  {
    method: 'post',
    path: '/visits',
    tag: 'Visits',
    summary: 'Schedule a one-off visit',
    body: schemas.VisitCreateBody,
    ok: { status: 201, schema: schemas.VisitOut },
    errors: [404, 422],
  },
  {
    method: 'get',
    path: '/visits/{visitId}',
    tag: 'Visits',
    summary: 'Read a visit',
    ok: { status: 200, schema: schemas.VisitOut },
    errors: [404],
  },
  {
    method: 'get',
    path: '/service-plans',
    tag: 'Service plans',
    summary: 'List service plans',
    query: schemas.ServicePlanListQuery,
    ok: { status: 200, schema: list('ServicePlan', schemas.ServicePlanOut) },
  },
  {
    method: 'get',
    path: '/service-plans/{planId}',
    tag: 'Service plans',
    summary: 'Read a service plan',
    ok: { status: 200, schema: schemas.ServicePlanOut },
    errors: [404],
  },
  {
    method: 'get',
    path: '/invoices',
    tag: 'Invoices',
    summary: 'List invoices',
    query: schemas.InvoiceListQuery,
    ok: { status: 200, schema: list('Invoice', schemas.InvoiceOut) },
  },
  {
    method: 'get',
    path: '/invoices/{invoiceId}',
    tag: 'Invoices',
    summary: 'Read an invoice',
    ok: { status: 200, schema: schemas.InvoiceOut },
    errors: [404],
  },
  {
    method: 'get',
    path: '/payments',
    tag: 'Payments',
    summary: 'List payments',
    query: schemas.PaymentListQuery,
    ok: { status: 200, schema: list('Payment', schemas.PaymentOut) },
  },
  {
    method: 'get',
    path: '/payments/{paymentId}',
    tag: 'Payments',
    summary: 'Read a payment',
    ok: { status: 200, schema: schemas.PaymentOut },
    errors: [404],
  },
  {
    method: 'get',
    path: '/technicians',
    tag: 'Technicians',
    summary: 'List technicians',
    ok: { status: 200, schema: list('Technician', schemas.TechnicianOut) },
  },
  {
    method: 'get',
    path: '/technicians/{technicianId}',
    tag: 'Technicians',
    summary: 'Read a technician',
    ok: { status: 200, schema: schemas.TechnicianOut },
    errors: [404],
  },
  {
    method: 'get',
    path: '/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'List webhook endpoints',
    query: schemas.PageQuery,
    ok: { status: 200, schema: list('WebhookEndpoint', schemas.WebhookEndpointOut) },
  },
  {
    method: 'post',
    path: '/webhook-endpoints',
    tag: 'Webhook endpoints',
    summary: 'Add a webhook endpoint (its secret is returned once)',
    body: schemas.WebhookEndpointCreateBody,
    ok: { status: 201, schema: schemas.WebhookEndpointCreatedOut },
    errors: [422],
  },
  {
    method: 'get',
    path: '/webhook-endpoints/{endpointId}',
    tag: 'Webhook endpoints',
    summary: 'Read a webhook endpoint',
    ok: { status: 200, schema: schemas.WebhookEndpointOut },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/webhook-endpoints/{endpointId}',
    tag: 'Webhook endpoints',
    summary: 'Change a webhook endpoint',
    body: schemas.WebhookEndpointUpdateBody,
    ok: { status: 200, schema: schemas.WebhookEndpointOut },
    errors: [404, 422],
  },
  {
    method: 'delete',
    path: '/webhook-endpoints/{endpointId}',
    tag: 'Webhook endpoints',
    summary: 'Delete a webhook endpoint',
    ok: { status: 204, schema: null },
    errors: [404],
  },
]

const ERROR_TEXT: Record<number, string> = {
  400: 'The request is malformed (a bad query value, cursor, JSON body or Idempotency-Key).',
  401: 'No live API key.',
  403: 'A read-only key tried to write.',
  404: 'Not found (another company’s record is not found either).',
  409: 'The change conflicts with the record’s state.',
  422: 'The body breaks a rule, or the Idempotency-Key was used with another request.',
  429: 'Over the key’s rate limit; see Retry-After.',
}

/** The component name of a schema given an id with `.meta({ id })`. */
function componentId(schema: z.ZodType) {
  return (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id
}

type JsonSchema = Record<string, unknown>

/** Every named schema reachable from the operations, as `#/components/schemas/…`. */
function components() {
  const registry = z.registry<{ id: string }>()
  const inputs = z.registry<{ id: string }>()
  const add = (target: typeof registry, schema: z.ZodType | null | undefined) => {
    const id = schema && componentId(schema)
    if (schema && id && !target.has(schema)) target.add(schema, { id })
  }
  for (const operation of OPERATIONS) {
    add(registry, operation.ok.schema)
    add(inputs, operation.body)
  }
  for (const schema of [schemas.ErrorSchema, schemas.CustomerOut, schemas.ServiceLocationOut, schemas.BodyOfWaterOut]) {
    add(registry, schema)
  }
  const uri = (id: string) => `#/components/schemas/${id}`
  const output = z.toJSONSchema(registry, { uri, io: 'output', unrepresentable: 'any', target: 'draft-2020-12' })
  const input = z.toJSONSchema(inputs, { uri, io: 'input', unrepresentable: 'any', target: 'draft-2020-12' })
  const all = { ...output.schemas, ...input.schemas } as Record<string, JsonSchema>
  for (const schema of Object.values(all)) {
    delete schema.$schema
    delete schema.id
  }
  return all
}

function ref(schema: z.ZodType) {
  const id = componentId(schema)
  if (!id) throw new Error('every API body and answer has a component id')
  return { $ref: `#/components/schemas/${id}` }
}

function queryParameters(query: z.ZodObject) {
  const json = z.toJSONSchema(query, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, JsonSchema>
    required?: string[]
  }
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    }
  })
}

const errorResponse = (status: number) => ({
  description: ERROR_TEXT[status] ?? 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

function operationObject(operation: Operation) {
  const pathParameters = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  const idempotency =
    operation.method === 'post' || operation.method === 'patch'
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'The same key and body within 24 hours get the first answer again; another body, 422.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : []
  const statuses = [401, 429, ...(operation.method === 'get' ? [400] : [400, 403]), ...(operation.errors ?? [])]
  return {
    operationId: `${operation.method}${operation.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^a-zA-Z]+(.)/g, (_m, c: string) => c.toUpperCase())}`,
    tags: [operation.tag],
    summary: operation.summary,
    parameters: [...pathParameters, ...(operation.query ? queryParameters(operation.query) : []), ...idempotency],
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(operation.body) } } } }
      : {}),
    responses: {
      [String(operation.ok.status)]: operation.ok.schema
        ? { description: 'OK', content: { 'application/json': { schema: ref(operation.ok.schema) } } }
        : { description: 'Done; no content.' },
      ...Object.fromEntries([...new Set(statuses)].sort().map((status) => [String(status), errorResponse(status)])),
    },
  }
}

let cached: ReturnType<typeof build> | undefined

function build(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of OPERATIONS) {
    paths[operation.path] ??= {}
    ;(paths[operation.path] as Record<string, unknown>)[operation.method] = operationObject(operation)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pool Bud API',
      version: '1.0.0',
      description:
        'Customers, visits, service plans, invoices, payments, technicians and webhook endpoints of one company. ' +
        `Authenticate with "Authorization: Bearer pb_live_…". Webhook events: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [...new Set(OPERATIONS.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: pb_live_…' } },
      schemas: components(),
    },
  }
}

/** The document, built once per process (its server URL is the app's). */
export function openApiDocument(appUrl: string) {
  cached ??= build(`${appUrl.replace(/\/+$/, '')}/api/v1`)
  return cached
}
