// The webhooks' outbox (docs/decisions/051-webhooks.md): a change records its event on the very transaction that
// makes it, with one delivery row per endpoint of the company that asked for that event type — so an event is
// sent if and only if its change committed. One statement, so it is whole even on a caller's plain connection.
// The worker (webhook.server.ts) delivers the rows.
import { sql } from 'drizzle-orm'
import type { WebhookEventType } from '~/db/schema/api'
import type { Database } from '~/utils/db.server'

/** Records `type` for the company's subscribed endpoints, in the caller's transaction. */
export async function recordEvent(
  tx: Pick<Database, 'execute'>,
  companyId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
) {
  await tx.execute(sql`
    with event as (
      insert into webhook_events (company_id, type, data, created_at)
      values (${companyId}, ${type}, ${JSON.stringify(data)}::jsonb, ${new Date().toISOString()}::timestamptz)
      returning id
    )
    insert into webhook_deliveries (company_id, endpoint_id, event_id, next_attempt_at)
    select endpoint.company_id, endpoint.id, event.id, now()
    from webhook_endpoints endpoint, event
    where endpoint.company_id = ${companyId} and endpoint.status = 'active' and ${type} = any(endpoint.events)`)
}

/**
 * `invoice.paid`, when a payment of `cents` has just settled the invoice (it owed something before and nothing now);
 * in the payment's transaction, after its paid sum moved.
 */
export async function recordInvoicePaid(
  tx: Pick<Database, 'execute'>,
  companyId: string,
  invoiceId: string,
  cents: number,
) {
  await tx.execute(sql`
    with invoice as (
      select id from invoices
      where company_id = ${companyId} and id = ${invoiceId} and state = 'sent'
        and paid_cents + credit_applied_cents >= total_cents
        and paid_cents - ${cents} + credit_applied_cents < total_cents
    ), event as (
      insert into webhook_events (company_id, type, data, created_at)
      select ${companyId}, 'invoice.paid', jsonb_build_object('invoiceId', invoice.id), ${new Date().toISOString()}::timestamptz
      from invoice
      returning id
    )
    insert into webhook_deliveries (company_id, endpoint_id, event_id, next_attempt_at)
    select endpoint.company_id, endpoint.id, event.id, now()
    from webhook_endpoints endpoint, event
    where endpoint.company_id = ${companyId} and endpoint.status = 'active' and 'invoice.paid' = any(endpoint.events)`)
}
