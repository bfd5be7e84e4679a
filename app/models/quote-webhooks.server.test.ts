// The quote webhooks (issue 33 item 3 with issue 34 item 6; docs/api.md "Webhooks", decision 061): quote.approved when
// the customer approves in the portal or the office marks it approved, quote.declined when the customer declines —
// recorded in the decision's transaction, so exactly once even when "Approve" is pressed twice or in two tabs at
// once, and only for endpoints that asked for the event.
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companies, profiles, webhookDeliveries, webhookEvents } from '~/db/schema'
import { createDemoLogin } from '~/demo/seed.server'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { getQuote } from './quote.server'
import { createQuote } from './quote-create.server'
import { approveQuote, DECISION_MESSAGES, declineQuote, markQuoteApproved } from './quote-decision.server'
import { addQuoteLine } from './quote-edits.server'
import { sendQuote } from './quote-send.server'
import { createWebhookEndpoint } from './webhook.server'

const TZ = 'America/New_York'
const today = () => localDateAt(new Date(), TZ)

async function sentQuote(name: string, events: ('quote.approved' | 'quote.declined' | 'customer.created')[]) {
  const [company] = await db().insert(companies).values({ name, timezone: TZ }).returning()
  if (!company) throw new Error('no company')
  const companyId = company.id
  const endpoint = await createWebhookEndpoint({ companyId, url: 'https://hooks.example.com/pool-bud', events })
  if (!endpoint.ok) throw new Error(endpoint.message)
  const customer = await addTestCustomer(companyId, {
    customerName: 'Hook Customer',
    address: '8 Hook Rd, Tampa, FL 33606',
    email: 'hook.customer@example.test',
  })
  const created = await createQuote({ companyId, customerId: customer.id, today: today() })
  if (!created.ok) throw new Error(created.message)
  const quoteId = created.quote.id
  await addQuoteLine(companyId, quoteId, {
    description: 'Replace filter cartridge',
    quantityHundredths: 100,
    unitPriceCents: 42_050,
    priceBookItemId: null,
    optional: false,
    taxable: false,
  })
  const sent = await sendQuote(companyId, quoteId)
  if (!sent.ok) throw new Error(sent.message)
  const quote = await getQuote({ companyId, quoteId, today: today() })
  if (!quote) throw new Error('no quote')
  return { companyId, customerId: customer.id, quoteId, versionId: quote.version.id, endpointId: endpoint.endpoint.id }
}

async function eventsOf(companyId: string) {
  return db()
    .select({ id: webhookEvents.id, type: webhookEvents.type, data: webhookEvents.data })
    .from(webhookEvents)
    .where(eq(webhookEvents.companyId, companyId))
}

async function deliveriesOf(companyId: string, endpointId: string) {
  return db()
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.endpointId, endpointId)))
}

const approval = (q: Awaited<ReturnType<typeof sentQuote>>) => ({
  companyId: q.companyId,
  customerId: q.customerId,
  quoteId: q.quoteId,
  versionId: q.versionId,
  signerName: 'Hook Customer',
  signaturePng: null,
  ipAddress: '203.0.113.9',
  tickedLineIds: [],
  today: today(),
})

describe('quote webhooks', () => {
  it('records quote.approved once when the customer approves twice at the same time, and again later', async () => {
    const q = await sentQuote('Hook Approve Pools', ['quote.approved'])
    const answers = await Promise.all([approveQuote(approval(q)), approveQuote(approval(q))])
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1)
    expect(answers.find((answer) => !answer.ok)).toMatchObject({ message: DECISION_MESSAGES.decided })
    expect(await approveQuote(approval(q))).toMatchObject({ ok: false, message: DECISION_MESSAGES.decided })
    const events = await eventsOf(q.companyId)
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: 'quote.approved',
        data: {
          quoteId: q.quoteId,
          number: 'Q-0001',
          customerId: q.customerId,
          version: 1,
          source: 'customer',
          totalCents: 42_050,
          depositCents: 0,
        },
      },
    ])
    expect(await deliveriesOf(q.companyId, q.endpointId)).toEqual([{ eventId: events[0]?.id }])
  })

  it('records quote.approved from "Mark as approved" (source office), once', async () => {
    const q = await sentQuote('Hook Office Pools', ['quote.approved', 'quote.declined'])
    await createDemoLogin(db(), {
      email: `owner-${q.companyId}@example.test`,
      fullName: 'Olive Owner',
      role: 'owner',
      companyId: q.companyId,
    })
    const [member] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.companyId, q.companyId))
    const mark = () =>
      markQuoteApproved({
        companyId: q.companyId,
        quoteId: q.quoteId,
        approvedBy: 'Hook Customer',
        method: 'phone',
        approvedAt: new Date(),
        recordedBy: member?.id ?? '',
        tickedLineIds: [],
        today: today(),
      })
    const answers = await Promise.all([mark(), mark()])
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1)
    // The customer's page, still open, cannot decide it again either.
    expect(await declineQuote({ ...approval(q), reason: 'Too late' })).toMatchObject({ ok: false })
    const events = await eventsOf(q.companyId)
    expect(events.map((event) => [event.type, event.data.source])).toEqual([['quote.approved', 'office']])
    expect(await deliveriesOf(q.companyId, q.endpointId)).toHaveLength(1)
  })

  it('records quote.declined with the reason; an endpoint that did not ask for it gets no delivery', async () => {
    const q = await sentQuote('Hook Decline Pools', ['customer.created'])
    const declined = await declineQuote({ ...approval(q), reason: 'Going with a cheaper pump' })
    expect(declined.ok).toBe(true)
    expect((await eventsOf(q.companyId)).map((event) => event.data)).toEqual([
      {
        quoteId: q.quoteId,
        number: 'Q-0001',
        customerId: q.customerId,
        version: 1,
        reason: 'Going with a cheaper pump',
      },
    ])
    expect(await deliveriesOf(q.companyId, q.endpointId)).toEqual([])
  })
})
