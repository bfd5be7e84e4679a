// The portal's "Notifications" and today's arrival window (issue 38 item 7, docs/decisions/047-customer-times.md):
// the customer's own login saves per-event choices; staff previewing and other companies cannot; a number that
// replied STOP keeps its text choices; on the day of a visit the portal says when to expect the technician.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, textOptOuts } from '~/db/schema'
import { createVisit } from '~/models/visit-changes.server'
import { instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './customer'

let blue: string
let danaId: string
let danaPhone: string
let techId: string

/** The notifications form saved with the boxes `on` ticked. */
function saveChoices(cookie: string, customerId: string, on: string[]) {
  const fields: [string, string][] = [['intent', 'notifications'], ...on.map((pair): [string, string] => ['on', pair])]
  return formRequest(`/customer/${customerId}`, fields, cookie, SAME_ORIGIN)
}

const choicesOf = async () =>
  (await db().select({ choices: customers.noticeChoices }).from(customers).where(eq(customers.id, danaId)))[0]?.choices

async function page(cookie: string) {
  return (await loader(routeArgs(pageRequest(`/customer/${danaId}`, cookie), { customerId: danaId }))) as Awaited<
    ReturnType<typeof loader>
  >
}

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const [dana] = await db().select().from(customers).where(eq(customers.customerName, 'Dana Whitfield'))
  danaId = dana?.id ?? ''
  danaPhone = dana?.phone ?? ''
  const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
})

describe('portal Notifications', () => {
  it('lists the events the company sends, and saves the customer’s choice per event and channel', async () => {
    const cookie = await signInAs('customer@bluelagoon.test')
    const before = await page(cookie)
    // The company's defaults: "Visit reminder" is off, so it is not offered.
    expect(before.notifications.events.map((row) => row.event)).not.toContain('visit-reminder')
    expect(before.notifications.events.find((row) => row.event === 'on-my-way')?.channels).toEqual({
      email: null,
      text: true,
    })
    const offered = before.notifications.events.flatMap(({ event, channels }) =>
      (['email', 'text'] as const).filter((channel) => channels[channel] !== null).map((c) => `${event}:${c}`),
    )
    const kept = offered.filter((pair) => !pair.startsWith('visit-skipped:'))
    const reply = (await action(routeArgs(saveChoices(cookie, danaId, kept), { customerId: danaId }))) as {
      data: { notifications: unknown }
    }
    expect(reply.data.notifications).toMatchObject({ message: 'Notifications saved.' })
    expect(await choicesOf()).toMatchObject({
      'visit-skipped': { email: false, text: false },
      'on-my-way': { text: true },
    })
    const after = await page(cookie)
    expect(after.notifications.events.find((row) => row.event === 'visit-skipped')?.channels).toEqual({
      email: false,
      text: false,
    })
    await action(routeArgs(saveChoices(cookie, danaId, offered), { customerId: danaId }))
    expect(await choicesOf()).toMatchObject({ 'visit-skipped': { email: true, text: true } })
  })

  it('refuses staff previewing the portal (403) and another company’s customer (404), changing nothing', async () => {
    const before = await choicesOf()
    const preview = await settle(
      action(routeArgs(saveChoices(await signInAs('dispatch@bluelagoon.test'), danaId, []), { customerId: danaId })),
    )
    expect(statusOf(preview.thrown)).toBe(403)
    const other = await settle(
      action(routeArgs(saveChoices(await signInAs('customer@sunsetpools.test'), danaId, []), { customerId: danaId })),
    )
    expect(statusOf(other.thrown)).toBe(404)
    expect(await choicesOf()).toEqual(before)
  })

  it('keeps the text choices of a number that replied STOP (its boxes are disabled), and says so', async () => {
    const cookie = await signInAs('customer@bluelagoon.test')
    await db().insert(textOptOuts).values({ phone: danaPhone, via: 'STOP' }).onConflictDoNothing()
    try {
      expect((await page(cookie)).notifications.optedOut).toBe(true)
      await action(routeArgs(saveChoices(cookie, danaId, []), { customerId: danaId }))
      const choices = await choicesOf()
      expect(choices?.['visit-skipped']).toEqual({ email: false, text: true })
    } finally {
      await db().delete(textOptOuts).where(eq(textOptOuts.phone, danaPhone))
      await db().update(customers).set({ noticeChoices: {} }).where(eq(customers.id, danaId))
    }
  })
})

describe('portal arrival window', () => {
  it('says when to expect the technician on the day of an open visit', async () => {
    const cookie = await signInAs('customer@bluelagoon.test')
    const today = localDateAt(new Date(), 'America/New_York')
    await createVisit({
      companyId: blue,
      customerId: danaId,
      scheduledAt: instantAt(today, '10:00', 'America/New_York'),
      technicianId: techId,
    })
    const data = await page(cookie)
    expect(data.arrivingToday).toMatch(
      /^Arriving (between \d{1,2}:\d\d [AP]M and \d{1,2}:\d\d [AP]M|at \d{1,2}:\d\d [AP]M)$/,
    )
  })
})
