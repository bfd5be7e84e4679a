// The public API's shapes (docs/decisions/050-public-api.md), as Zod schemas: requests are parsed with them and the
// OpenAPI document (openapi.server.ts) is generated from them, so the document cannot drift from what is enforced.
// Request bodies reuse the app's own form schemas (models/customer-schemas.ts): one set of rules for both.
import { z } from 'zod'
import { ContactSchema, NewCustomerSchema } from '~/models/customer-schemas'
import { API_KEY_SCOPES, WEBHOOK_EVENT_TYPES } from '~/utils/api-fields'

export const ErrorSchema = z
  .object({
    error: z.object({ code: z.string(), message: z.string() }),
  })
  .meta({ id: 'Error' })

const id = z.uuid()
const timestamp = z.iso.datetime({ offset: true })
const localDate = z.iso.date()

export const BodyOfWaterOut = z
  .object({
    id,
    name: z.string(),
    gallons: z.int().nullable(),
    surface: z.string().nullable(),
    sanitizer: z.string().nullable(),
    indoor: z.boolean().nullable(),
  })
  .meta({ id: 'BodyOfWater' })

export const ServiceLocationOut = z
  .object({
    id,
    label: z.string().nullable(),
    street: z.string(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postalCode: z.string().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    gateCode: z.string().nullable(),
    accessNotes: z.string().nullable(),
    dogOnSite: z.boolean(),
    minutesOnSite: z.int(),
    archived: z.boolean(),
    bodiesOfWater: z.array(BodyOfWaterOut),
  })
  .meta({ id: 'ServiceLocation' })

export const CustomerOut = z
  .object({
    id,
    customerName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    billingAddress: z.string().nullable(),
    notes: z.string().nullable(),
    status: z.enum(['active', 'archived']),
    createdAt: timestamp,
    serviceLocations: z.array(ServiceLocationOut),
  })
  .meta({ id: 'Customer' })

export const VISIT_STATUSES = ['scheduled', 'completed', 'skipped', 'canceled'] as const

export const VisitOut = z
  .object({
    id,
    customerId: id,
    locationId: id,
    customerName: z.string(),
    address: z.string(),
    status: z.enum(VISIT_STATUSES),
    scheduledAt: timestamp,
    completedAt: timestamp.nullable(),
    skipReason: z.string().nullable(),
    technicianId: z.string().nullable(),
    servicePlanId: id.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Visit' })

export const ServicePlanOut = z
  .object({
    id,
    customerId: id,
    locationId: id,
    frequencyWeeks: z.int(),
    weekday: z.int().min(1).max(7).describe('ISO weekday: 1 is Monday'),
    technicianId: z.string().nullable(),
    startsOn: localDate,
    endsOn: localDate.nullable(),
    serviceWindow: z.string(),
    rateCents: z.int(),
    rateType: z.string(),
    createdAt: timestamp,
  })
  .meta({ id: 'ServicePlan' })

export const InvoiceOut = z
  .object({
    id,
    customerId: id,
    number: z.int(),
    state: z.enum(['draft', 'sent', 'void']),
    periodStart: localDate.nullable(),
    periodEnd: localDate.nullable(),
    issuedOn: localDate.nullable(),
    dueOn: localDate.nullable(),
    subtotalCents: z.int(),
    taxCents: z.int(),
    totalCents: z.int(),
    paidCents: z.int(),
    sentAt: timestamp.nullable(),
    voidedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Invoice' })

export const PaymentOut = z
  .object({
    id,
    customerId: id,
    invoiceId: id.nullable(),
    amountCents: z.int(),
    refundedCents: z.int(),
    receivedOn: localDate,
    method: z.string(),
    reference: z.string().nullable(),
    voidedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Payment' })

export const TechnicianOut = z
  .object({ id: z.string(), name: z.string().nullable(), email: z.string(), active: z.boolean() })
  .meta({ id: 'Technician' })

export const WebhookEndpointOut = z
  .object({
    id,
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    status: z.enum(['active', 'disabled']),
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' })

export const WebhookEndpointCreatedOut = WebhookEndpointOut.extend({
  secret: z.string().describe('The signing secret (whsec_…), returned only when the endpoint is created.'),
}).meta({ id: 'WebhookEndpointCreated' })

export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
    })
    .meta({ id: `${name}List` })
}

// ---- Requests ----

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  cursor: z.string().max(200).optional(),
})

/** The lists a client keeps in step with: `updated_since` returns only what was created or changed since. */
const ChangesQuery = PageQuery.extend({
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only records created or changed at or after this instant (related records count: see docs).'),
})

export const ServicePlanListQuery = ChangesQuery

export const CustomerListQuery = ChangesQuery.extend({
  q: z.string().max(100).optional().describe('Name, email, phone or address contains this text.'),
  status: z.enum(['active', 'archived']).optional(),
})

export const VisitListQuery = ChangesQuery.extend({
  from: z.iso.datetime({ offset: true }).optional().describe('Scheduled at or after this instant.'),
  to: z.iso.datetime({ offset: true }).optional().describe('Scheduled before this instant.'),
  technicianId: z.string().max(100).optional(),
  status: z.enum(VISIT_STATUSES).optional(),
})

export const InvoiceListQuery = ChangesQuery.extend({
  customerId: z.uuid().optional(),
  state: z.enum(['draft', 'sent', 'void']).optional(),
})

export const PaymentListQuery = ChangesQuery.extend({ customerId: z.uuid().optional() })

/** POST /customers: the "Add customer" form's rules. */
export const CustomerCreateBody = NewCustomerSchema.meta({ id: 'CustomerCreate' })

/** PATCH /customers/{id}: the record's "Edit" rules; fields left out keep their value. */
export const CustomerUpdateBody = ContactSchema.partial().meta({ id: 'CustomerUpdate' })

export const VisitCreateBody = z
  .object({
    customerId: z.uuid(),
    locationId: z.uuid().optional().describe("The customer's service location; their first one when left out."),
    scheduledAt: z.iso.datetime({ offset: true }),
    technicianId: z.string().max(100).nullable().optional(),
    appointment: z.boolean().optional().describe('A fixed appointment at scheduledAt.'),
  })
  .meta({ id: 'VisitCreate' })

const webhookEvents = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'Choose at least one event.')

export const WebhookEndpointCreateBody = z
  .object({ url: z.url().max(2000), events: webhookEvents })
  .meta({ id: 'WebhookEndpointCreate' })

export const WebhookEndpointUpdateBody = z
  .object({
    url: z.url().max(2000).optional(),
    events: webhookEvents.optional(),
    status: z.enum(['active', 'disabled']).optional(),
  })
  .meta({ id: 'WebhookEndpointUpdate' })

export { API_KEY_SCOPES }
