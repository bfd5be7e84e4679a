// The values an API key's scope and a webhook's event may take (docs/api.md). Dependency-free, like
// customer-fields.ts: the database schema and the forms (browser and server) read them from here, so a browser
// chunk that lists them carries no table code (docs/performance.md, "Browser bundles").

export const API_KEY_SCOPES = ['read', 'write'] as const
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number]

export const WEBHOOK_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'visit.scheduled',
  'visit.completed',
  'visit.skipped',
  'invoice.sent',
  'invoice.paid',
  'payment.recorded',
  'payment.voided',
  'quote.approved',
  'quote.declined',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]
