// Webhooks (docs/decisions/051-webhooks.md): an event written with its change reaches a receiver signed; a receiver
// answering 500 once gets the same event id again, validly signed each time; private addresses are refused at save
// and at delivery after DNS; a day of failures disables the endpoint and emails the owner.
import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, webhookAttempts, webhookEndpoints } from '~/db/schema'
import { db } from '~/utils/db.server'
import { checkEndpointUrl, isPrivateAddress, PRIVATE_REFUSED, resolveEndpoint } from '~/utils/webhook-address.server'
import { addBillingCompany } from '../../tests/helpers/billing'
import { createCustomerWithLocation, updateCustomerContact } from './customer-changes.server'
import {
  createWebhookEndpoint,
  DELIVERY_LOG_LIMIT,
  deliverDueWebhooks,
  GIVE_UP_AFTER_MS,
  listEndpointsWithLog,
  resendDelivery,
  sendTestEvent,
} from './webhook.server'

type Received = { headers: http.IncomingHttpHeaders; body: string }

/** A receiver on 127.0.0.1 answering each request with the next status of `statuses` (then 200). */
async function receiver(statuses: number[]) {
  const received: Received[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(statuses.shift() ?? 200)
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

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
      expect(await deliverDueWebhooks({ now: new Date(now.getTime() + 31_000) })).toEqual({ delivered: 1, failed: 0 })
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

  it("keeps each endpoint's own newest attempts in its log: a busy endpoint never hides a quiet one's", async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = '1'
    const local = await receiver([])
    const own = await addBillingCompany('Log Pools', 'owner@log-pools.test')
    try {
      const quiet = await createWebhookEndpoint({ companyId: own, url: local.url, events: ['customer.created'] })
      const busy = await createWebhookEndpoint({ companyId: own, url: local.url, events: ['customer.created'] })
      if (!quiet.ok || !busy.ok) throw new Error('endpoints not created')
      await sendTestEvent({ companyId: own, endpointId: quiet.endpoint.id })
      await sendTestEvent({ companyId: own, endpointId: busy.endpoint.id })
      expect(await deliverDueWebhooks({ now: new Date(Date.now() + 1_000) })).toMatchObject({ delivered: 2 })
      // The busy endpoint's test event was then attempted again and again, all after the quiet one's attempt.
      const [attempt] = await db()
        .select()
        .from(webhookAttempts)
        .where(and(eq(webhookAttempts.companyId, own), eq(webhookAttempts.endpointId, busy.endpoint.id)))
      if (!attempt) throw new Error('no attempt')
      await db()
        .insert(webhookAttempts)
        .values(
          Array.from({ length: 2 * DELIVERY_LOG_LIMIT + 5 }, (_, i) => ({
            ...attempt,
            id: undefined,
            attemptedAt: new Date(attempt.attemptedAt.getTime() + (i + 1) * 60_000),
          })),
        )
      const logs = await listEndpointsWithLog(own)
      expect(logs.find((entry) => entry.id === busy.endpoint.id)?.log).toHaveLength(DELIVERY_LOG_LIMIT)
      const quietLog = logs.find((entry) => entry.id === quiet.endpoint.id)?.log ?? []
      expect(quietLog.map((entry) => entry.eventType)).toEqual(['endpoint.test'])
    } finally {
      await local.close()
    }
  })

  it('writes no event when the change rolls back', async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = '1'
    const local = await receiver([])
    try {
      await createWebhookEndpoint({ companyId, url: local.url, events: ['customer.updated'] })
      const failed = await updateCustomerContact({
        companyId,
        customerId: '00000000-0000-4000-8000-000000000000',
        input: { customerName: 'Nobody' },
      })
      expect(failed.ok).toBe(false)
      expect(await deliverDueWebhooks({ now: new Date(Date.now() + 120_000) })).toEqual({ delivered: 0, failed: 0 })
      expect(local.received).toHaveLength(0)
    } finally {
      await local.close()
    }
  })
})

describe('no SSRF', () => {
  it('refuses http and private literal addresses at save', () => {
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[fd12:3456::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://localhost/x',
    ]) {
      expect(checkEndpointUrl(url, false).ok, url).toBe(false)
    }
    expect(checkEndpointUrl('https://hooks.example.com/x', false).ok).toBe(true)
    expect(isPrivateAddress('8.8.8.8')).toBe(false)
    expect(isPrivateAddress('2606:4700::1111')).toBe(false)
  })

  it('refuses a name that resolves to 127.0.0.1, at delivery too, without connecting', async () => {
    const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }]
    expect(await resolveEndpoint('https://sneaky.example.com/x', { allowPrivate: false, resolve: toLoopback })).toEqual(
      {
        ok: false,
        message: PRIVATE_REFUSED,
      },
    )
    delete process.env.WEBHOOKS_ALLOW_PRIVATE
    const endpoint = await createWebhookEndpoint({
      companyId,
      url: 'https://sneaky.example.com/x',
      events: ['customer.created'],
    })
    if (!endpoint.ok) throw new Error(endpoint.message)
    await sendTestEvent({ companyId, endpointId: endpoint.endpoint.id })
    const now = new Date(Date.now() + 300_000)
    expect(await deliverDueWebhooks({ now, resolve: toLoopback })).toEqual({ delivered: 0, failed: 1 })
    const [attempt] = await db()
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.endpointId, endpoint.endpoint.id))
    expect(attempt).toMatchObject({ statusCode: null, error: PRIVATE_REFUSED })
  })

  it('disables an endpoint failing for 24 hours and emails its owner', async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE
    const endpoint = await createWebhookEndpoint({
      companyId,
      url: 'https://down.example.com/x',
      events: ['customer.created'],
    })
    if (!endpoint.ok) throw new Error(endpoint.message)
    await sendTestEvent({ companyId, endpointId: endpoint.endpoint.id })
    const toPrivate = async () => [{ address: '10.0.0.8', family: 4 }]
    const later = new Date(Date.now() + GIVE_UP_AFTER_MS + 60_000)
    await deliverDueWebhooks({ now: later, resolve: toPrivate })
    const [row] = await db()
      .select({ status: webhookEndpoints.status })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.endpoint.id))
    expect(row?.status).toBe('disabled')
    const emails = await db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, 'owner@hook.test'), eq(emailOutbox.companyId, companyId)))
    expect(emails.filter((email) => email.text.includes('https://down.example.com/x'))).toHaveLength(1)
    expect(emails[0]?.subject).toBe('Webhook endpoint disabled')
  })
})
