// The forms of Settings → "API keys" and "Webhooks": shared by the components, the actions and the tests.
import { z } from 'zod'
import { CreateApiKeySchema } from '~/models/api-key-schema'
import { WEBHOOK_EVENT_TYPES } from '~/utils/api-fields'

export { CreateApiKeySchema }

export const RevokeApiKeySchema = z.object({ keyId: z.uuid() })

export const WEBHOOK_EVENT_LABELS: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'customer.created': 'Customer created',
  'customer.updated': 'Customer updated',
  'visit.scheduled': 'Visit scheduled',
  'visit.completed': 'Visit completed',
  'visit.skipped': 'Visit skipped',
  'invoice.sent': 'Invoice sent',
  'invoice.paid': 'Invoice paid',
  'payment.recorded': 'Payment recorded',
  'payment.voided': 'Payment voided',
  'quote.approved': 'Quote approved',
  'quote.declined': 'Quote declined',
}

const URL_REQUIRED = 'Enter the endpoint URL.'

export const AddEndpointSchema = z.object({
  url: z.string({ error: URL_REQUIRED }).trim().min(1, URL_REQUIRED).max(2000, 'Use at most 2,000 characters.'),
  // One ticked box posts a single value, several post a list.
  events: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'Choose at least one event.'),
  ),
})

export const EndpointActionSchema = z.object({ endpointId: z.uuid() })
export const ResendSchema = z.object({ endpointId: z.uuid(), deliveryId: z.uuid() })
