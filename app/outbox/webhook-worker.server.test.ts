// The webhook worker (docs/decisions/051-webhooks.md, docs/decisions/070-webhooks-in-the-outbox.md): an event queued
// with its change reaches a receiver signed; a receiver answering 500 once gets the same event id again, validly signed
// each time; private addresses are refused at delivery after DNS; a day of failures disables the endpoint and emails
// the owner.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, webhookAttempts, webhookEndpoints } from '~/db/schema'
import { createCustomerWithLocation, updateCustomerContact } from '~/models/customer-changes.server'
import { createWebhookEndpoint, listEndpointsWithLog, resendDelivery, sendTestEvent } from '~/models/webhook.server'
import { db } from '~/utils/db.server'
import { PRIVATE_REFUSED, resolveEndpoint } from '~/utils/webhook-address.server'
import { addBillingCompany } from '../../tests/helpers/billing'
import { receiver } from '../../tests/helpers/webhook-receiver'
import { deliverDueWebhooks, WEBHOOK_GIVE_UP_AFTER_MS } from './webhook-worker.server'

/** What a receiver does with `Pool-Bud-Signature` (the docs/api.md example). */
function verify(secret: string, header: string | undefined, body: string) {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=') as [string, string]))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex')
  return Boolean(parts.v1) && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1 ?? ''))
}

const previous = process.env.WEBHOOKS_ALLOW_PRIVATE
let companyId: string

beforeAll(async () => {
  companyId = await addBillingCompany('Hook Pools', 'owner@hook.test')
})

afterAll(() => {
  if (previous === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE
  else process.env.WEBHOOKS_ALLOW_PRIVATE = previous
})

/** An endpoint of the company at `url` with `events` test events queued for it ("Send test event"). */
async function endpointWithTestEvents(url: string, events = 1) {
  const endpoint = await createWebhookEndpoint({ companyId, url, events: ['customer.created'] })
  if (!endpoint.ok) throw new Error(endpoint.message)
  for (let sent = 0; sent < events; sent++) await sendTestEvent({ companyId, endpointId: endpoint.endpoint.id })
  return endpoint.endpoint
}

describe('delivery', () => {
  it('retries a receiver that answered 500 with the same event id, validly signed each time', async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = '1'
    const local = await receiver([500])
    try {
      const endpoint = await createWebhookEndpoint({ companyId, url: local.url, events: ['customer.created'] })
      if (!endpoint.ok) throw new Error(endpoint.message)
      const created = await createCustomerWithLocation(companyId, {
        customerName: 'Webhook Customer',
        location: { street: '5 Bay St', dogOnSite: false },
      })
      if (!created.ok) throw new Error('no customer')
      // An update is an event the endpoint did not ask for: never sent to it.
      await updateCustomerContact({ companyId, customerId: created.customerId, input: { customerName: 'Renamed' } })
      const now = new Date()
      expect(await deliverDueWebhooks({ now })).toEqual({ delivered: 0, failed: 1 })
      // Not due again until its back-off has passed.
      expect(await deliverDueWebhooks({ now })).toEqual({ delivered: 0, failed: 0 })
      expect(await deliverDueWebhooks({ now: new Date(now.getTime() + 45_000) })).toEqual({ delivered: 1, failed: 0 })
      expect(local.received).toHaveLength(2)
      const [first, second] = local.received.map((request) => JSON.parse(request.body))
      expect(first).toMatchObject({ type: 'customer.created', data: { customerId: created.customerId } })
      expect(second.id).toBe(first.id)
      expect(local.received[1]?.body).toBe(local.received[0]?.body)
      for (const request of local.received) {
        expect(verify(endpoint.secret, request.headers['pool-bud-signature'] as string, request.body)).toBe(true)
        expect(verify('whsec_wrong', request.headers['pool-bud-signature'] as string, request.body)).toBe(false)
      }
      const log = (await listEndpointsWithLog(companyId)).find((entry) => entry.id === endpoint.endpoint.id)?.log ?? []
      expect(log.map((entry) => entry.statusCode)).toEqual([200, 500])
      expect(log.every((entry) => entry.eventType === 'customer.created' && entry.durationMs >= 0)).toBe(true)
      // "Resend" sends the very event again; "Send test event" sends one to this endpoint alone.
      await resendDelivery({ companyId, deliveryId: log[0]?.deliveryId ?? '' })
      await sendTestEvent({ companyId, endpointId: endpoint.endpoint.id })
      expect(await deliverDueWebhooks({ now: new Date(now.getTime() + 60_000) })).toEqual({ delivered: 2, failed: 0 })
      const bodies = local.received.slice(2).map((request) => JSON.parse(request.body))
      expect(bodies.map((body) => body.type).sort()).toEqual(['customer.created', 'endpoint.test'])
      expect(bodies.find((body) => body.type === 'customer.created')?.id).toBe(first.id)
    } finally {
      await local.close()
    }
  })
})

describe('two instances', () => {
  it('a claim made late in a long run is leased from then, so a second instance does not send it again', async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = '1'
    // Each answer takes 1.5 s and a lease lasts 1 s: the first run claims the second delivery at about 1.5 s. Leased
    // from the run's start it would be free again at 1 s, and the second instance starting at 2 s would send it too.
    const slow = await receiver([], { delayMs: 1_500 })
    try {
      await endpointWithTestEvents(slow.url, 2)
      const now = new Date(Date.now() + 600_000)
      const first = deliverDueWebhooks({ now, leaseMs: 1_000 })
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      const second = await deliverDueWebhooks({ now: new Date(now.getTime() + 2_000), leaseMs: 1_000 })
      expect(await first).toEqual({ delivered: 2, failed: 0 })
      expect(second).toEqual({ delivered: 0, failed: 0 })
      const ids = slow.received.map((request) => JSON.parse(request.body).id)
      expect(ids).toHaveLength(2)
      expect(new Set(ids).size).toBe(2)
    } finally {
      await slow.close()
    }
  })
})

describe('no SSRF at delivery', () => {
  it('refuses a name that resolves to 127.0.0.1, at delivery too, without connecting', async () => {
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }]
    expect(await resolveEndpoint('https://sneaky.example.com/x', { allowPrivate: false, resolve: toLoopback })).toEqual(
      {
        ok: false,
        message: PRIVATE_REFUSED,
      },
    )
    delete process.env.WEBHOOKS_ALLOW_PRIVATE
    const endpoint = await endpointWithTestEvents('https://sneaky.example.com/x')
    const now = new Date(Date.now() + 300_000)
    expect(await deliverDueWebhooks({ now, resolve: toLoopback })).toEqual({ delivered: 0, failed: 1 })
    const [attempt] = await db().select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id))
    expect(attempt).toMatchObject({ statusCode: null, error: PRIVATE_REFUSED })
  })
})

describe('giving up', () => {
  it('disables an endpoint failing for 24 hours and emails its owner', async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE
    const endpoint = await endpointWithTestEvents('https://down.example.com/x')
    const toPrivate = async () => [{ address: '10.0.0.8', family: 4 }]
    const later = new Date(Date.now() + WEBHOOK_GIVE_UP_AFTER_MS + 60_000)
    await deliverDueWebhooks({ now: later, resolve: toPrivate })
    const [row] = await db()
      .select({ status: webhookEndpoints.status })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id))
    expect(row?.status).toBe('disabled')
    const emails = await db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, 'owner@hook.test'), eq(emailOutbox.companyId, companyId)))
    expect(emails.filter((email) => email.text.includes('https://down.example.com/x'))).toHaveLength(1)
    expect(emails[0]?.subject).toBe('Webhook endpoint disabled')
  })
})
