// POST /app/field/changes: the phone's queued changes, each applied once however often it is replayed (issue #19).
import { and, count, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  checklistItems,
  chemLogs,
  customers,
  idempotencyKeys,
  profiles,
  serviceReports,
  user,
  visitChecks,
  visits,
} from '~/db/schema'
import { FIELD_OWNER_HEADER, type FieldChange, type VisitChange } from '~/field/changes'
import { KEY_REUSED } from '~/models/idempotency.server'
import { createVisit } from '~/models/visit-changes.server'
import { generateVisits } from '~/models/visit-generation.server'
import { db } from '~/utils/db.server'
import { answerOf, jsonRequest, routeArgs } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action } from './field-changes'

const send = async (cookie: string, body: unknown, madeBy?: string) => {
  const headers: Record<string, string> = madeBy ? { [FIELD_OWNER_HEADER]: madeBy } : {}
  const request = jsonRequest('/app/field/changes', body, { cookie, headers })
  // The route's answer, returned or thrown (the 401 a signed-out script is told).
  const response = (await answerOf(action(routeArgs(request)))) as Response
  return { status: response.status, body: await response.json() }
}

const change = (visitId: string, body: VisitChange): FieldChange => ({
  key: crypto.randomUUID(),
  visitId,
  madeAt: new Date().toISOString(),
  change: body,
})

let tech: string
let tech2: string
let techId: string
let visitList: string[]
let items: string[]

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  tech = await signInAs('tech@bluelagoon.test')
  tech2 = await signInAs('tech2@bluelagoon.test')
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = profile?.id ?? ''
  const rows = await db()
    .select({ id: visits.id, companyId: visits.companyId })
    .from(visits)
    .where(and(eq(visits.technicianId, techId), isNull(visits.completedAt), isNull(visits.canceledAt)))
    .orderBy(visits.scheduledAt)
    .limit(6)
  visitList = rows.map((row) => row.id)
  const list = await db()
    .select({ id: checklistItems.id })
    .from(checklistItems)
    .where(eq(checklistItems.companyId, rows[0]?.companyId ?? ''))
    .orderBy(checklistItems.position)
  items = list.map((item) => item.id)
  expect(visitList.length).toBe(6)
  expect(items.length).toBe(4)
})

const countOf = async (table: typeof chemLogs | typeof visitChecks, visitId: string) =>
  (await db().select({ n: count() }).from(table).where(eq(table.visitId, visitId)))[0]?.n

describe('field changes', () => {
  it('applies every queued change once when the whole queue is replayed five times, two copies at once', async () => {
    const visitId = visitList[0] ?? ''
    const queue = [
      change(visitId, { type: 'check', itemId: items[0] ?? '', checked: true }),
      change(visitId, { type: 'check', itemId: items[1] ?? '', checked: true }),
      change(visitId, { type: 'reading', fields: { ph: '7.4', chlorinePpm: '2', alkalinity: '90' } }),
      change(visitId, { type: 'note', audience: 'customer', text: 'Filter cleaned; looking great.' }),
      change(visitId, { type: 'complete' }),
    ]
    for (let round = 0; round < 5; round++) {
      for (const queued of queue) {
        const answers = await Promise.all([send(tech, queued), send(tech, queued)])
        for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { ok: true } })
      }
    }
    expect(await countOf(chemLogs, visitId)).toBe(1)
    expect(await countOf(visitChecks, visitId)).toBe(2)
    const [visit] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(visit?.completedAt).not.toBeNull()
    expect(visit?.completedBy).toBe(techId)
    expect(visit?.customerNote).toBe('Filter cleaned; looking great.')
    const keys = await db()
      .select({ n: count() })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.action, 'field.change'))
    expect(keys[0]?.n).toBeGreaterThanOrEqual(queue.length)
    const reports = await db().select({ n: count() }).from(serviceReports).where(eq(serviceReports.visitId, visitId))
    expect(reports[0]?.n).toBeLessThanOrEqual(1)
  })

  it('refuses a change to a visit the office gave to another technician, and keeps nothing of it', async () => {
    const visitId = visitList[1] ?? ''
    const [other] = await db().select().from(profiles).where(eq(profiles.email, 'tech2@bluelagoon.test'))
    await db()
      .update(visits)
      .set({ technicianId: other?.id ?? '' })
      .where(eq(visits.id, visitId))
    const answer = await send(
      tech,
      change(visitId, { type: 'reading', fields: { ph: '7.2', chlorinePpm: '3', alkalinity: '100' } }),
    )
    expect(answer).toMatchObject({
      status: 409,
      body: { ok: false, refused: true, message: 'The office gave this visit to another technician.' },
    })
    expect(await countOf(chemLogs, visitId)).toBe(0)
  })

  it('refuses changes to a canceled or skipped visit, and a second completion by someone else', async () => {
    const skipped = visitList[2] ?? ''
    expect(await send(tech, change(skipped, { type: 'skip', fields: { reason: 'Locked gate' } }))).toMatchObject({
      status: 200,
    })
    const tick = await send(tech, change(skipped, { type: 'check', itemId: items[0] ?? '', checked: true }))
    expect(tick).toMatchObject({ status: 409, body: { message: 'This visit was skipped: Locked gate.' } })
  })

  it('answers another technician’s visit as not found, and bad input with a clear refusal', async () => {
    const visitId = visitList[3] ?? ''
    const other = await send(tech2, change(visitId, { type: 'check', itemId: items[0] ?? '', checked: true }))
    expect(other).toMatchObject({ status: 409, body: { refused: true } })
    const bad = await send(
      tech,
      change(visitId, { type: 'reading', fields: { ph: '19', chlorinePpm: '2', alkalinity: '90' } }),
    )
    expect(bad).toMatchObject({ status: 400, body: { refused: true, message: 'pH must be between 0 and 14.' } })
    const garbage = await send(tech, { key: 'nope' })
    expect(garbage).toMatchObject({ status: 400, body: { refused: true, code: 'invalid' } })
    const huge = await send(tech, change(visitId, { type: 'note', audience: 'office', text: 'x'.repeat(70_000) }))
    expect(huge).toMatchObject({
      status: 413,
      body: { ok: false, refused: true, code: 'too-large', message: 'This change is too large to send.' },
    })
    expect(await countOf(chemLogs, visitId)).toBe(0)
  })

  it('unticks, and asks a signed-out phone to sign in rather than dropping its change', async () => {
    const visitId = visitList[4] ?? ''
    await send(tech, change(visitId, { type: 'check', itemId: items[2] ?? '', checked: true }))
    expect(await countOf(visitChecks, visitId)).toBe(1)
    await send(tech, change(visitId, { type: 'check', itemId: items[2] ?? '', checked: false }))
    expect(await countOf(visitChecks, visitId)).toBe(0)
    const signedOut = await send('', change(visitId, { type: 'complete' }))
    expect(signedOut).toMatchObject({ status: 401, body: { signedOut: true } })
  })

  it('never applies a change the phone recorded as another person’s: it waits on the phone for them', async () => {
    // Tyler queued a reading on a shared phone; his session ended without "Log out" and the owner signed in there.
    const visitId = visitList[5] ?? ''
    const [tyler] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'tech@bluelagoon.test'))
    const office = await signInAs('owner@bluelagoon.test')
    const reading = change(visitId, { type: 'reading', fields: { ph: '7.6', chlorinePpm: '1', alkalinity: '80' } })
    const answer = await send(office, reading, tyler?.id)
    expect(answer).toMatchObject({
      status: 409,
      body: { ok: false, otherPerson: true, message: expect.stringMatching(/made by someone else on this phone/) },
    })
    expect(await countOf(chemLogs, visitId)).toBe(0)
    // Tyler, signed in again, sends it once.
    expect(await send(tech, reading, tyler?.id)).toMatchObject({ status: 200, body: { ok: true } })
    expect(await send(tech, reading, tyler?.id)).toMatchObject({ status: 200, body: { ok: true } })
    expect(await countOf(chemLogs, visitId)).toBe(1)
  })
})

describe('a key is bound to its technician, its visit and its change', () => {
  let owner: string
  /** A visit of the technician's for now (made here: the test holds at any hour and weekday). */
  const newVisit = async () => {
    const [companyOfTech] = await db()
      .select({ companyId: profiles.companyId })
      .from(profiles)
      .where(eq(profiles.id, techId))
    const companyId = companyOfTech?.companyId ?? ''
    const [customer] = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.companyId, companyId))
      .limit(1)
    const visit = await createVisit({
      companyId,
      customerId: customer?.id ?? '',
      scheduledAt: new Date(),
      technicianId: techId,
    })
    return visit?.id ?? ''
  }
  const reading = (ph: string): VisitChange => ({ type: 'reading', fields: { ph, chlorinePpm: '2', alkalinity: '90' } })
  const refusedAsReused = { status: 422, body: { ok: false, refused: true, code: 'key-reused', message: KEY_REUSED } }
  const phOf = async (visitId: string) =>
    (await db().select({ ph: chemLogs.ph }).from(chemLogs).where(eq(chemLogs.visitId, visitId))).map((row) => row.ph)

  beforeAll(async () => {
    owner = await signInAs('owner@bluelagoon.test')
  })

  it('the same key with the same change gets the first answer, and the change is made once', async () => {
    const visitId = await newVisit()
    const first = change(visitId, reading('7.4'))
    expect(await send(tech, first)).toMatchObject({ status: 200, body: { ok: true } })
    // The phone's queue sends it again with the fields in another order: still the same change.
    const reordered = {
      ...first,
      change: { type: 'reading', fields: { alkalinity: '90', chlorinePpm: '2', ph: '7.4' } },
    }
    expect(await send(tech, reordered)).toEqual({ status: 200, body: { ok: true, replayed: true } })
    expect(await phOf(visitId)).toHaveLength(1)
  })

  it('"Mark Complete" replayed with another visit is refused (422) and that visit stays open', async () => {
    const [done, open] = [await newVisit(), await newVisit()]
    const complete = change(done, { type: 'complete' })
    expect(await send(tech, complete)).toMatchObject({ status: 200, body: { ok: true } })
    expect(await send(tech, { ...complete, visitId: open })).toEqual(refusedAsReused)
    const [visit] = await db().select({ completedAt: visits.completedAt }).from(visits).where(eq(visits.id, open))
    expect(visit?.completedAt).toBeNull()
  })

  it('the same key with another change is refused (422) and changes nothing', async () => {
    const visitId = await newVisit()
    const first = change(visitId, reading('7.4'))
    expect(await send(tech, first)).toMatchObject({ status: 200 })
    expect(await send(tech, { ...first, change: reading('7.8') })).toEqual(refusedAsReused)
    expect(await send(tech, { ...first, change: { type: 'complete' } })).toEqual(refusedAsReused)
    expect(await phOf(visitId)).toEqual([7.4])
    const [visit] = await db().select({ completedAt: visits.completedAt }).from(visits).where(eq(visits.id, visitId))
    expect(visit?.completedAt).toBeNull()
  })

  it('the same key sent by another user is refused (422), even with the same change', async () => {
    const visitId = await newVisit()
    const note = change(visitId, { type: 'note', audience: 'office', text: 'Gate code 4411' })
    expect(await send(tech, note)).toMatchObject({ status: 200 })
    expect(await send(owner, note)).toEqual(refusedAsReused)
    expect(await send(owner, { ...note, change: { ...note.change, text: 'Gate code changed' } })).toEqual(
      refusedAsReused,
    )
    const [visit] = await db().select({ officeNote: visits.officeNote }).from(visits).where(eq(visits.id, visitId))
    expect(visit?.officeNote).toBe('Gate code 4411')
  })

  it('copies sent at once settle once: the same change is applied once, and a different one is refused', async () => {
    const visitId = await newVisit()
    const first = change(visitId, reading('7.2'))
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(tech, first)))
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { ok: true } })
    expect(await phOf(visitId)).toEqual([7.2])

    const racing = change(visitId, reading('7.6'))
    const raced = await Promise.all([send(tech, racing), send(tech, { ...racing, change: reading('7.0') })])
    expect(raced.map((answer) => answer.status).sort()).toEqual([200, 422])
    expect((await phOf(visitId)).sort()).toEqual([7.2, raced[0]?.status === 200 ? 7.6 : 7.0].sort())
  })
})
