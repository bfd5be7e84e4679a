// POST /app/field/clock: the technician's "Start day", "Break", "Back", "End day" from the phone's queue, each event
// recorded once by its id however often (or however concurrently) it is replayed, with the phone's time (docs/time.md).
import { and, count, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, timeEvents, visits } from '~/db/schema'
import { type ClockChange, type ClockKind, FIELD_OWNER_HEADER } from '~/field/changes'
import { TIME_MESSAGES } from '~/models/time-events.server'
import { applyFieldChange } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../../tests/helpers/customers'
import { answerOf, jsonRequest, routeArgs } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action } from './field-clock'

const send = async (cookie: string, body: unknown, madeBy?: string) => {
  const headers: Record<string, string> = madeBy ? { [FIELD_OWNER_HEADER]: madeBy } : {}
  const request = jsonRequest('/app/field/clock', body, { cookie, headers })
  // A guard's refusal is thrown as React Router's data (the 403 guard card), not as a JSON response.
  const response = (await answerOf(action(routeArgs(request)))) as
    | Response
    | { init: { status: number }; data: unknown }
  if (!(response instanceof Response)) return { status: response.init.status, body: response.data }
  return { status: response.status, body: await response.json() }
}

const tap = (kind: ClockKind, madeAt = new Date()): ClockChange => ({
  id: crypto.randomUUID(),
  kind,
  madeAt: madeAt.toISOString(),
})

let tech: string
let techId: string
/** When the day was started (40 minutes before the first test ran). */
let startedAt: Date
let owner: string

async function eventsOfTech() {
  return db()
    .select({ id: timeEvents.id, kind: timeEvents.kind, at: timeEvents.at })
    .from(timeEvents)
    .where(eq(timeEvents.technicianId, techId))
    .orderBy(timeEvents.at)
}

beforeAll(async () => {
  await useDemoData()
  tech = await signInAs('tech2@bluelagoon.test')
  owner = await signInAs('owner@bluelagoon.test')
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'tech2@bluelagoon.test'))
  techId = profile?.id ?? ''
})

describe('the phone clock', () => {
  it('records a day started offline once, with the phone’s time, however often and however concurrently it is sent', async () => {
    // Tapped 40 minutes ago without signal; the queue sends it now, twice in a row and three times at once.
    startedAt = new Date(Date.now() - 40 * 60_000)
    const start = tap('start', startedAt)
    expect(await send(tech, start, techId)).toEqual({ status: 200, body: { ok: true } })
    expect(await send(tech, start, techId)).toEqual({ status: 200, body: { ok: true, replayed: true } })
    const copies = await Promise.all([send(tech, start), send(tech, start), send(tech, start)])
    expect(copies.every((copy) => copy.status === 200 && copy.body.ok)).toBe(true)
    const rows = await eventsOfTech()
    expect(rows).toHaveLength(1)
    expect(rows[0]?.at.toISOString()).toBe(start.madeAt)
  })

  it('takes a break, comes back, and ends the day; each tap in order, each once', async () => {
    const pause = tap('break-start', new Date(Date.now() - 20 * 60_000))
    const back = tap('break-end', new Date(Date.now() - 10 * 60_000))
    const end = tap('end')
    await Promise.all([send(tech, pause), send(tech, pause)])
    expect((await send(tech, back)).status).toBe(200)
    expect((await send(tech, back)).body).toEqual({ ok: true, replayed: true })
    expect((await send(tech, end)).status).toBe(200)
    expect((await eventsOfTech()).map((row) => row.kind)).toEqual(['start', 'break-start', 'break-end', 'end'])
  })

  it('refuses a tap that does not fit the day, recording nothing: a second start, a break after the end', async () => {
    // At the first start's time, so on its day whatever the hour: a start after the company's midnight is a new day.
    const again = await send(tech, tap('start', startedAt))
    expect(again).toMatchObject({
      status: 409,
      body: { ok: false, refused: true, message: TIME_MESSAGES.alreadyStarted },
    })
    const late = await send(tech, tap('break-start'))
    expect(late).toMatchObject({ status: 409, body: { refused: true, message: TIME_MESSAGES.alreadyEnded } })
    const [{ value } = { value: 0 }] = await db()
      .select({ value: count() })
      .from(timeEvents)
      .where(and(eq(timeEvents.technicianId, techId)))
    expect(value).toBe(4)
  })

  it('refuses an id used for another tap (422) and another person’s tap (409), and the office has no clock (403)', async () => {
    const [first] = await eventsOfTech()
    const reused = await send(tech, { ...tap('end'), id: first?.id })
    expect(reused).toMatchObject({ status: 422, body: { refused: true, code: 'key-reused' } })
    const other = await send(tech, tap('end'), 'someone-else')
    expect(other).toMatchObject({ status: 409, body: { otherPerson: true } })
    expect((await send(owner, tap('start'))).status).toBe(403)
    expect((await send('', tap('start'))).status).toBe(401)
  })

  it('reads only what it understands', async () => {
    const bad = await send(tech, { id: 'nope', kind: 'start', madeAt: 'yesterday' })
    expect(bad).toMatchObject({ status: 400, body: { refused: true, code: 'invalid' } })
  })
})

describe('a stop’s own times from the phone', () => {
  it('keeps the first "On my way" and "Mark Complete" as tapped, even when they reach the server later', async () => {
    const customer = await findTestCustomer('Dana Whitfield')
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, techId))
    const companyId = profile?.companyId ?? ''
    const [visit] = await db()
      .insert(visits)
      .values({
        companyId,
        customerId: customer.id,
        locationId: customer.locationId,
        customerName: customer.customerName,
        address: customer.address,
        technicianId: techId,
        scheduledAt: new Date(),
      })
      .returning({ id: visits.id })
    const visitId = visit?.id ?? ''
    const member = { id: techId, role: 'tech' as const, companyId }
    const onMyWay = new Date(Date.now() - 50 * 60_000)
    const done = new Date(Date.now() - 5 * 60_000)
    const send = (type: 'on-my-way' | 'complete', madeAt: Date) =>
      applyFieldChange(member, { key: crypto.randomUUID(), visitId, madeAt: madeAt.toISOString(), change: { type } })
    expect(await send('on-my-way', onMyWay)).toMatchObject({ ok: true })
    // A second tap later does not move the start of the drive.
    expect(await send('on-my-way', new Date())).toMatchObject({ ok: true })
    expect(await send('complete', done)).toMatchObject({ ok: true })
    const [row] = await db()
      .select({
        onMyWayAt: visits.onMyWayAt,
        completedOnPhoneAt: visits.completedOnPhoneAt,
        completedAt: visits.completedAt,
      })
      .from(visits)
      .where(eq(visits.id, visitId))
    expect(row?.onMyWayAt?.toISOString()).toBe(onMyWay.toISOString())
    expect(row?.completedOnPhoneAt?.toISOString()).toBe(done.toISOString())
    // The server's own record of the completion is when it arrived (billing reads it, decision 042).
    expect(row?.completedAt?.getTime()).toBeGreaterThan(done.getTime())
  })
})
