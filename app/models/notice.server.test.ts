// Notices queued by their events: once per visit, channel and recipient, only on the channels the company and the
// customer have on; and the afternoon-before reminders.
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, emailOutbox, profiles, serviceLocations, visits } from '~/db/schema'
import { arrivalSentence, arrivalWindow } from '~/notices/arrival-window'
import { localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { getDayRoute } from './day-route.server'
import { queueVisitNotice } from './notice.server'
import { createVisit } from './visit-changes.server'
import { queueVisitReminders } from './visit-reminder.server'

let blue: string
let dana: { id: string; name: string; address: string }
let techId: string

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const customer = await findTestCustomer('Dana Whitfield', blue)
  dana = { id: customer.id, name: customer.customerName, address: customer.address }
  const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
})

async function visitAt(scheduledAt: Date) {
  const visit = await createVisit({
    companyId: blue,
    customerId: dana.id,
    customerName: dana.name,
    address: dana.address,
    scheduledAt,
    technicianId: techId,
  })
  if (!visit) throw new Error('no visit')
  return visit.id
}

const noticesOf = (visitId: string) => db().select().from(emailOutbox).where(eq(emailOutbox.noticeSubject, visitId))

describe('queueVisitNotice', () => {
  it('queues a skip notice by email and text once, however often the event fires', async () => {
    const visitId = await visitAt(new Date())
    const notice = { companyId: blue, visitId, event: 'visit-skipped' as const, values: { reason: 'Locked gate' } }
    expect(await queueVisitNotice(db(), notice)).toBe(2)
    expect(await queueVisitNotice(db(), notice)).toBe(0)
    const rows = await noticesOf(visitId)
    expect(rows.map((row) => row.kind).sort()).toEqual(['email', 'text'])
    const text = rows.find((row) => row.kind === 'text')
    expect(text).toMatchObject({ to: '+18135550101', customerId: dana.id, status: 'pending' })
    expect(text?.text).toContain('could not service your pool today (Locked gate)')
  })

  it('leaves out a channel the customer turned off', async () => {
    await db().update(customers).set({ noticesByText: false }).where(eq(customers.id, dana.id))
    const visitId = await visitAt(new Date())
    expect(await queueVisitNotice(db(), { companyId: blue, visitId, event: 'visit-skipped' })).toBe(1)
    expect((await noticesOf(visitId)).map((row) => row.kind)).toEqual(['email'])
    await db().update(customers).set({ noticesByText: true }).where(eq(customers.id, dana.id))
  })

  it('sends nothing on a channel the customer turned off for that event, and the rest as before', async () => {
    await db()
      .update(customers)
      .set({ noticeChoices: { 'visit-skipped': { text: false, email: false }, 'on-my-way': { email: false } } })
      .where(eq(customers.id, dana.id))
    try {
      const visitId = await visitAt(new Date())
      expect(await queueVisitNotice(db(), { companyId: blue, visitId, event: 'visit-skipped' })).toBe(0)
      // "On my way" goes by text (the company's default); the customer turned off only its email.
      expect(
        await queueVisitNotice(db(), { companyId: blue, visitId, event: 'on-my-way', values: { eta: '10:40 AM' } }),
      ).toBe(1)
      expect((await noticesOf(visitId)).map((row) => [row.noticeEvent, row.kind])).toEqual([['on-my-way', 'text']])
    } finally {
      await db().update(customers).set({ noticeChoices: {} }).where(eq(customers.id, dana.id))
    }
  })
})

describe('queueVisitReminders', () => {
  it('reminds the afternoon before, once, and only where the company turned reminders on', async () => {
    // 10:00 and 17:00 in New York, on a day whose tomorrow has a visit of Dana's.
    const morning = new Date('2026-12-02T15:00:00Z')
    const afternoon = new Date('2026-12-02T22:00:00Z')
    const visitId = await visitAt(new Date('2026-12-03T14:30:00Z'))
    expect(await queueVisitReminders(afternoon)).toBe(0)
    await db()
      .update(companies)
      .set({ noticeSettings: { 'visit-reminder': { text: true } } })
      .where(eq(companies.id, blue))
    expect(await queueVisitReminders(morning)).toBe(0)
    expect(await queueVisitReminders(afternoon)).toBeGreaterThanOrEqual(1)
    expect(await queueVisitReminders(afternoon)).toBe(0)
    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.noticeSubject, visitId), eq(emailOutbox.noticeEvent, 'visit-reminder')))
    expect(rows.map((row) => row.kind)).toEqual(['text'])
    expect(rows[0]?.text).toContain('will service your pool tomorrow')
    // The two hours around the route's ETA, as the route stood when the reminder was queued.
    const route = await getDayRoute({
      companyId: blue,
      timezone: 'America/New_York',
      technicianId: techId,
      date: localDateAt(new Date('2026-12-03T14:30:00Z'), 'America/New_York'),
    })
    const stop = route.stops.find((row) => row.id === visitId)
    if (stop?.etaMinutes == null) throw new Error('Dana’s visit has no ETA')
    expect(rows[0]?.text).toContain(arrivalSentence(arrivalWindow(stop.etaMinutes, stop.window)))
    expect(rows[0]?.text).toMatch(/Your technician should arrive between \d{1,2}:\d\d [AP]M and \d{1,2}:\d\d [AP]M\./)
  })

  it('keeps the wording without a window for a pool with no position (no ETA)', async () => {
    const afternoon = new Date('2026-12-09T22:00:00Z')
    await db()
      .update(companies)
      .set({ noticeSettings: { 'visit-reminder': { text: true } } })
      .where(eq(companies.id, blue))
    const [customer] = await db()
      .insert(customers)
      .values({ companyId: blue, customerName: 'No Position', phone: '+18135550177' })
      .returning({ id: customers.id })
    const [place] = await db()
      .insert(serviceLocations)
      .values({ companyId: blue, customerId: customer?.id ?? '', street: '9 Nowhere Rd' })
      .returning({ id: serviceLocations.id })
    const visit = await createVisit({
      companyId: blue,
      customerId: customer?.id ?? '',
      locationId: place?.id,
      scheduledAt: new Date('2026-12-10T14:30:00Z'),
      technicianId: techId,
    })
    if (!visit) throw new Error('no visit')
    const [row] = await db().select({ locationId: visits.locationId }).from(visits).where(eq(visits.id, visit.id))
    expect(row?.locationId).toBe(place?.id)
    await queueVisitReminders(afternoon)
    const [reminder] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.noticeSubject, visit.id), eq(emailOutbox.noticeEvent, 'visit-reminder')))
    expect(reminder?.text).toBe(
      'Blue Lagoon Pool Co.: Tyler Brooks will service your pool tomorrow. Please leave the gate unlocked.',
    )
  })
})
