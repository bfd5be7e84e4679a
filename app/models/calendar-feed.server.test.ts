// The technician's calendar feed (docs/product.md "Schedule" "Calendar feed"): the token is stored only as its hash, a
// reset revokes the old link, and the feed holds exactly the technician's own visits of the 12-week window, each with
// its status, window, time on site, access notes and absolute link.
import { and, eq, gte, lt } from 'drizzle-orm'
import ICAL from 'ical.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations, servicePlans, visits } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { visitUid } from '~/schedule/calendar-feed'
import { hashFeedToken } from '~/schedule/feed-token.server'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { skipAsOffice } from '../../tests/helpers/visits'
import {
  CALENDAR_FEED_NOT_A_TECHNICIAN,
  calendarFeedFor,
  FEED_DAYS_AHEAD,
  FEED_DAYS_BEFORE,
  FEED_LIMIT,
  hasCalendarFeed,
  resetCalendarFeed,
} from './calendar-feed.server'
import { cancelVisit } from './visit.server'
import { generateVisits } from './visit-generation.server'

const NOW = new Date()
const HOST = 'localhost'
let blue: string
let zone: string
let tyler: string
let maya: string
let dispatcher: string

async function profileId(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  return row?.id ?? ''
}

beforeAll(async () => {
  await seedDemoData(db(), NOW)
  await generateVisits({ now: NOW })
  const [company] = await db()
    .select({ id: companies.id, timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  zone = company?.timezone ?? ''
  tyler = await profileId('tech@bluelagoon.test')
  maya = await profileId('tech2@bluelagoon.test')
  dispatcher = await profileId('dispatch@bluelagoon.test')
})

/** The events of a feed by UID. */
function eventsOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  return new Map(
    calendar.getAllSubcomponents('vevent').map((event) => [String(event.getFirstPropertyValue('uid')), event]),
  )
}

/** The technician's visits in the feed's window, straight from the table. */
async function visitsInWindow(technicianId: string) {
  const today = localDateAt(NOW, zone)
  return db()
    .select({ id: visits.id, planId: visits.planId })
    .from(visits)
    .where(
      and(
        eq(visits.companyId, blue),
        eq(visits.technicianId, technicianId),
        gte(visits.scheduledAt, instantAt(addDays(today, -FEED_DAYS_BEFORE), '00:00', zone)),
        lt(visits.scheduledAt, instantAt(addDays(today, FEED_DAYS_AHEAD + 1), '00:00', zone)),
      ),
    )
}

/** A one-off visit for Tyler `days` from today at 10:00, at the location of one of his visits. */
async function addOneOff(days: number) {
  const [model] = await db().select().from(visits).where(eq(visits.technicianId, tyler)).limit(1)
  if (!model) throw new Error('Tyler has no visits')
  const [row] = await db()
    .insert(visits)
    .values({
      companyId: blue,
      customerId: model.customerId,
      locationId: model.locationId,
      customerName: model.customerName,
      address: model.address,
      technicianId: tyler,
      scheduledAt: instantAt(addDays(localDateAt(NOW, zone), days), '10:00', zone),
    })
    .returning({ id: visits.id })
  return row?.id ?? ''
}

describe('the calendar link', () => {
  it('is a 256-bit token shown once; only its hash is stored', async () => {
    expect(await hasCalendarFeed(tyler)).toBe(false)
    const made = await resetCalendarFeed(tyler, { replace: false })
    if (!made.ok) throw new Error(made.message)
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const [row] = await db().select({ hash: profiles.calendarFeedHash }).from(profiles).where(eq(profiles.id, tyler))
    expect(row?.hash).toBe(hashFeedToken(made.token))
    expect(row?.hash).not.toContain(made.token)
    expect(await hasCalendarFeed(tyler)).toBe(true)
  })

  it('is not made twice by "Create": a second one would silently revoke the first', async () => {
    const again = await resetCalendarFeed(tyler, { replace: false })
    expect(again).toMatchObject({ ok: false, code: 'conflict' })
  })

  it('belongs to technicians only', async () => {
    expect(await resetCalendarFeed(dispatcher)).toEqual({
      ok: false,
      code: 'forbidden',
      message: CALENDAR_FEED_NOT_A_TECHNICIAN,
    })
    expect(await hasCalendarFeed(dispatcher)).toBe(false)
  })

  it('stops working when reset, and the new one works', async () => {
    const first = await resetCalendarFeed(maya)
    const second = await resetCalendarFeed(maya)
    if (!first.ok || !second.ok) throw new Error('reset failed')
    expect(second.token).not.toBe(first.token)
    expect(await calendarFeedFor(first.token, NOW)).toBeNull()
    expect(await calendarFeedFor(second.token, NOW)).toContain('BEGIN:VCALENDAR')
  })

  it('turns away malformed and unknown tokens', async () => {
    for (const token of ['', 'abc', '../../etc/passwd', `${'a'.repeat(42)}.`, 'a'.repeat(44), 'a'.repeat(43)]) {
      expect(await calendarFeedFor(token, NOW)).toBeNull()
    }
  })
})

describe('the feed', () => {
  let token: string
  let events: Map<string, ICAL.Component>

  beforeAll(async () => {
    const made = await resetCalendarFeed(tyler)
    if (!made.ok) throw new Error(made.message)
    token = made.token
  })

  it('holds exactly the technician’s visits from 4 weeks ago to 8 weeks ahead', async () => {
    const inside = [await addOneOff(-FEED_DAYS_BEFORE), await addOneOff(FEED_DAYS_AHEAD)]
    const outside = [await addOneOff(-FEED_DAYS_BEFORE - 1), await addOneOff(FEED_DAYS_AHEAD + 1)]
    const text = await calendarFeedFor(token, NOW)
    if (!text) throw new Error('no feed')
    events = eventsOf(text)
    const expected = await visitsInWindow(tyler)
    expect(expected.some((visit) => visit.planId)).toBe(true)
    expect([...events.keys()].sort()).toEqual(expected.map((visit) => visitUid(visit.id, HOST)).sort())
    for (const id of inside) expect(events.has(visitUid(id, HOST))).toBe(true)
    for (const id of outside) expect(events.has(visitUid(id, HOST))).toBe(false)
    // Maya's visits are never in Tyler's feed.
    const mayas = await visitsInWindow(maya)
    expect(mayas.length).toBeGreaterThan(0)
    for (const visit of mayas) expect(events.has(visitUid(visit.id, HOST))).toBe(false)
  })

  it('says each visit’s status, window, time on site, access notes and link', async () => {
    const today = localDateAt(NOW, zone)
    const open = await db()
      .select({
        id: visits.id,
        planId: visits.planId,
        window: servicePlans.serviceWindow,
        minutes: serviceLocations.minutesOnSite,
        notes: serviceLocations.accessNotes,
        completedAt: visits.completedAt,
      })
      .from(visits)
      .innerJoin(serviceLocations, eq(serviceLocations.id, visits.locationId))
      .leftJoin(servicePlans, eq(servicePlans.id, visits.planId))
      .where(
        and(
          eq(visits.technicianId, tyler),
          gte(visits.scheduledAt, instantAt(addDays(today, 1), '00:00', zone)),
          lt(visits.scheduledAt, instantAt(addDays(today, FEED_DAYS_AHEAD), '00:00', zone)),
        ),
      )
    const planVisits = open.filter((visit) => visit.planId)
    const [skipped, canceled, plain] = planVisits
    if (!skipped || !canceled || !plain) throw new Error('Tyler needs three plan visits ahead')
    expect(await skipAsOffice({ companyId: blue, visitId: skipped.id, reason: 'Customer request' })).toMatchObject({
      ok: true,
    })
    expect(await cancelVisit({ companyId: blue, visitId: canceled.id })).toMatchObject({ ok: true })
    const oneOff = await addOneOff(3)
    const [completed] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(
        and(
          eq(visits.technicianId, tyler),
          gte(visits.scheduledAt, instantAt(addDays(today, -7), '00:00', zone)),
          lt(visits.scheduledAt, instantAt(today, '00:00', zone)),
        ),
      )
      .limit(1)
    const text = (await calendarFeedFor(token, NOW)) ?? ''
    events = eventsOf(text)
    const event = (id: string) => {
      const found = events.get(visitUid(id, HOST))
      if (!found) throw new Error(`visit ${id} is not in the feed`)
      return {
        status: found.getFirstPropertyValue('status'),
        description: String(found.getFirstPropertyValue('description')),
        url: found.getFirstPropertyValue('url'),
      }
    }
    expect(event(plain.id).status).toBe('CONFIRMED')
    const windowLabel = { morning: 'Morning', afternoon: 'Afternoon', flexible: 'Flexible' }[plain.window ?? 'flexible']
    expect(event(plain.id).description).toContain(`${windowLabel} window`)
    expect(event(plain.id).description).toContain(`about ${plain.minutes} minutes on site`)
    if (plain.notes) expect(event(plain.id).description).toContain(plain.notes)
    expect(event(plain.id).url).toBe(`http://localhost:3999/app/visits/${plain.id}`)
    expect(event(skipped.id)).toMatchObject({ status: 'CANCELLED', description: expect.stringContaining('Skipped.') })
    expect(event(canceled.id)).toMatchObject({
      status: 'CANCELLED',
      description: expect.stringContaining('Canceled.'),
    })
    expect(event(oneOff).description).toContain('Flexible window')
    if (completed) expect(event(completed.id).description).toContain('Completed.')
  })

  it(`holds at most ${FEED_LIMIT} visits`, async () => {
    const [model] = await db().select().from(visits).where(eq(visits.technicianId, tyler)).limit(1)
    if (!model) throw new Error('Tyler has no visits')
    const start = instantAt(localDateAt(NOW, zone), '06:00', zone).getTime()
    await db()
      .insert(visits)
      .values(
        Array.from({ length: FEED_LIMIT }, (_, i) => ({
          companyId: blue,
          customerId: model.customerId,
          locationId: model.locationId,
          customerName: model.customerName,
          address: model.address,
          technicianId: tyler,
          scheduledAt: new Date(start + i * 60_000),
        })),
      )
    const text = (await calendarFeedFor(token, NOW)) ?? ''
    expect(eventsOf(text).size).toBe(FEED_LIMIT)
  })

  it('is gone once the technician is deactivated', async () => {
    await db().update(profiles).set({ deactivatedAt: NOW }).where(eq(profiles.id, tyler))
    expect(await calendarFeedFor(token, NOW)).toBeNull()
    expect(await hasCalendarFeed(tyler)).toBe(false)
    expect(await resetCalendarFeed(tyler)).toMatchObject({ ok: false, code: 'forbidden' })
  })
})
