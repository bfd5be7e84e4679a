import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, emailOutbox, textOptOuts } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../tests/helpers/customers'
import { getCustomerMessages, MESSAGES_PAGE_SIZE, setCustomerNoticeChannel } from './customer-messages.server'

let blueId: string
let sunsetId: string
let dana: TestCustomer
let other: TestCustomer

beforeAll(async () => {
  const rows = await db()
    .insert(companies)
    .values([{ name: 'Blue Messages Pools', quietHoursUntil: '07:30' }, { name: 'Sunset Messages Pools' }])
    .returning({ id: companies.id })
  blueId = rows[0]?.id ?? ''
  sunsetId = rows[1]?.id ?? ''
  dana = await addTestCustomer(blueId, {
    customerName: 'Dana Messages',
    address: '1 Outbox Way',
    email: 'dana@example.com',
    phone: '+15555550101',
  })
  other = await addTestCustomer(sunsetId, { customerName: 'Other Company Olga', address: '2 Elsewhere St' })
})

function message(customerId: string, minutesAgo: number, fields: Partial<typeof emailOutbox.$inferInsert> = {}) {
  return {
    companyId: blueId,
    customerId,
    kind: 'text' as const,
    to: '+15555550101',
    subject: 'On my way',
    html: '',
    text: 'On the way',
    noticeEvent: 'on-my-way',
    noticeSubject: `visit-${minutesAgo}`,
    createdAt: new Date(Date.now() - minutesAgo * 60_000),
    ...fields,
  }
}

async function messagesOf(companyId: string, customerId: string, page = 1) {
  const found = await getCustomerMessages({ companyId, customerId, page })
  if (!found.ok) throw new Error(found.message)
  return found.messages
}

describe("a customer's messages", () => {
  it('lists only their own messages, newest first, 20 to a page, with the total', async () => {
    await db()
      .insert(emailOutbox)
      .values(Array.from({ length: MESSAGES_PAGE_SIZE + 3 }, (_, i) => message(dana.id, i + 1)))
    // Another customer of the same company, and an email with no customer (an invitation): not Dana's.
    const second = await addTestCustomer(blueId, { customerName: 'Second Sam', address: '3 Outbox Way' })
    await db()
      .insert(emailOutbox)
      .values([
        message(second.id, 0),
        { companyId: blueId, kind: 'email', to: 'someone@example.com', subject: 'Invite', html: '', text: '' },
      ])
    const first = await messagesOf(blueId, dana.id)
    expect(first.total).toBe(MESSAGES_PAGE_SIZE + 3)
    expect(first.rows).toHaveLength(MESSAGES_PAGE_SIZE)
    expect(first.rows[0]?.noticeEvent).toBe('on-my-way')
    const times = first.rows.map((row) => row.createdAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const last = await messagesOf(blueId, dana.id, 2)
    expect(last.rows).toHaveLength(3)
    expect(last.rows.at(-1)?.createdAt.getTime()).toBeLessThan(first.rows.at(-1)?.createdAt.getTime() ?? 0)
    expect(first.quietHoursUntil).toBe('07:30')
  })

  it('says when the number replied STOP', async () => {
    expect((await messagesOf(blueId, dana.id)).textsStoppedAt).toBeNull()
    const at = new Date('2026-11-20T15:00:00Z')
    await db().insert(textOptOuts).values({ phone: '+15555550101', via: 'STOP', optedOutAt: at })
    expect((await messagesOf(blueId, dana.id)).textsStoppedAt).toEqual(at)
  })

  it("answers another company's customer as not found, and shows nothing of it", async () => {
    expect(await getCustomerMessages({ companyId: blueId, customerId: other.id })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    expect(await getCustomerMessages({ companyId: blueId, customerId: 'nope' })).toMatchObject({ ok: false })
    expect(
      await setCustomerNoticeChannel({ companyId: blueId, customerId: other.id, channel: 'text', enabled: false }),
    ).toMatchObject({ ok: false, code: 'not-found' })
    const [olga] = await db().select().from(customers).where(eq(customers.id, other.id))
    expect(olga?.noticesByText).toBe(true)
  })

  it("saves the customer's channel choices", async () => {
    expect(
      await setCustomerNoticeChannel({ companyId: blueId, customerId: dana.id, channel: 'text', enabled: false }),
    ).toEqual({ ok: true, channel: 'text', enabled: false })
    expect(await messagesOf(blueId, dana.id)).toMatchObject({ byEmail: true, byText: false })
    await setCustomerNoticeChannel({ companyId: blueId, customerId: dana.id, channel: 'email', enabled: false })
    await setCustomerNoticeChannel({ companyId: blueId, customerId: dana.id, channel: 'text', enabled: true })
    expect(await messagesOf(blueId, dana.id)).toMatchObject({ byEmail: false, byText: true })
  })
})
