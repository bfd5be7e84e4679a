import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invoices, webhookAttempts, webhookDeliveries, webhookEvents } from '~/db/schema'
import { deliverDueWebhooks } from '~/outbox/webhook-worker.server'
import { db } from '~/utils/db.server'
import { checkEndpointUrl, isPrivateAddress } from '~/utils/webhook-address.server'
import { addBillingCompany } from '../../tests/helpers/billing'
import { addTestCustomer } from '../../tests/helpers/customers'
import { receiver } from '../../tests/helpers/webhook-receiver'
import { createCustomerWithLocation } from './customer-changes.server'
import { recordPayment } from './payment.server'
import {
  createWebhookEndpoint,
  DELIVERY_LOG_LIMIT,
  listEndpointsWithLog,
  resendDelivery,
  sendTestEvent,
} from './webhook.server'

/** The company's events, oldest first, each with how many deliveries it has. */
async function eventsOf(companyId: string) {
  const events = await db()
    .select({ id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data })
    .from(webhookEvents)
    .where(eq(webhookEvents.companyId, companyId))
    .orderBy(webhookEvents.createdAt)
  const deliveries = await db()
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.companyId, companyId))
  return events.map((event) => ({
    ...event,
    deliveries: deliveries.filter((delivery) => delivery.eventId === event.id).length,
  }))
}

const previous = process.env.WEBHOOKS_ALLOW_PRIVATE

afterAll(() => {
  if (previous === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE
  else process.env.WEBHOOKS_ALLOW_PRIVATE = previous
})

describe('endpoints', () => {
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
})

describe('events queued with their change', () => {
  let companyId: string

  beforeAll(async () => {
    companyId = await addBillingCompany('Queue Pools', 'owner@queue-pools.test')
    const endpoint = await createWebhookEndpoint({
      companyId,
      url: 'https://hooks.example.com/pool-bud',
      events: ['customer.created', 'invoice.paid'],
    })
    if (!endpoint.ok) throw new Error(endpoint.message)
  })

  it('queues nothing when the change rolls back after its event', async () => {
    const before = await eventsOf(companyId)
    const rolledBack = db().transaction(async (tx) => {
      const created = await createCustomerWithLocation(
        companyId,
        { customerName: 'Never Saved', location: { street: '9 Undo Ln', dogOnSite: false } },
        tx,
      )
      if (!created.ok) throw new Error('no customer')
      // Queued by now, in this transaction: the endpoint's delivery is there for it to see …
      const [queued] = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(and(eq(webhookEvents.companyId, companyId), eq(webhookEvents.type, 'customer.created')))
      expect(queued).toBeDefined()
      // … and a later step of the same change fails.
      throw new Error('a later step failed')
    })
    await expect(rolledBack).rejects.toThrow('a later step failed')
    expect(await eventsOf(companyId)).toEqual(before)
  })

  it('queues invoice.paid for the payment that settles the invoice, and for no other', async () => {
    const customer = await addTestCustomer(companyId, {
      customerName: 'Settling Customer',
      address: '4 Paid Ct, Tampa, FL 33606',
    })
    const [invoice] = await db()
      .insert(invoices)
      .values({
        companyId,
        customerId: customer.id,
        number: 1,
        state: 'sent',
        issuedOn: '2025-03-02',
        dueOn: '2025-03-17',
        subtotalCents: 12_000,
        totalCents: 12_000,
      })
      .returning({ id: invoices.id })
    if (!invoice) throw new Error('no invoice')
    const pay = async (amountCents: number, reference: string) => {
      const paid = await recordPayment({
        companyId,
        customerId: customer.id,
        invoiceId: invoice.id,
        amountCents,
        receivedOn: '2025-03-20',
        method: 'check',
        reference,
        recordedBy: null,
      })
      if (!paid.ok) throw new Error(paid.message)
    }
    const paidEvents = async () => (await eventsOf(companyId)).filter((event) => event.type === 'invoice.paid')
    await pay(5_000, '1001')
    expect(await paidEvents()).toEqual([])
    await pay(7_000, '1002')
    expect(await paidEvents()).toEqual([expect.objectContaining({ data: { invoiceId: invoice.id }, deliveries: 1 })])
    // An overpayment of a paid invoice settles nothing: no second event.
    await pay(500, '1003')
    expect(await paidEvents()).toHaveLength(1)
  })
})

describe("another company's", () => {
  it('resends no delivery and tests no endpoint of another company, and writes nothing for them', async () => {
    const ours = await addBillingCompany('Our Hooks', 'owner@our-hooks.test')
    const theirs = await addBillingCompany('Their Hooks', 'owner@their-hooks.test')
    const endpoint = await createWebhookEndpoint({
      companyId: theirs,
      url: 'https://hooks.example.com/theirs',
      events: ['customer.created'],
    })
    if (!endpoint.ok) throw new Error(endpoint.message)
    expect(await sendTestEvent({ companyId: theirs, endpointId: endpoint.endpoint.id })).toMatchObject({ ok: true })
    const [delivery] = await db()
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.companyId, theirs))
    if (!delivery) throw new Error('no delivery')
    const before = { ours: await eventsOf(ours), theirs: await eventsOf(theirs) }
    expect(await sendTestEvent({ companyId: ours, endpointId: endpoint.endpoint.id })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(await resendDelivery({ companyId: ours, deliveryId: delivery.id })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect({ ours: await eventsOf(ours), theirs: await eventsOf(theirs) }).toEqual(before)
  })
})
