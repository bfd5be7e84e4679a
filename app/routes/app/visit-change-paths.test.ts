// One write path per visit change (issue 37 item 3): the visit page's plain form (no JavaScript) and the phone's queue
// (POST /app/field/changes) apply a change through the same function, so the same change gets the same result, the
// same refusal and the same message whichever way it came — for the technician and for the office.
import { and, asc, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, profiles, visits } from '~/db/schema'
import type { VisitChange } from '~/field/changes'
import { generateVisits } from '~/models/visit-generation.server'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { db } from '~/utils/db.server'
import { settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as fieldChangesAction } from '../resources/field-changes'
import { action as visitPageAction } from './visit'

/** What a person is told: the status and the message, or where they were sent. */
type Answer = { status: number; message: string | null; location?: string | null }

/** A plain form of the visit page, posted as a browser without JavaScript would. */
async function postForm(cookie: string, visitId: string, fields: Record<string, string>): Promise<Answer> {
  const request = new Request(`${TEST_ORIGIN}/app/visits/${visitId}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
  const { returned, thrown } = await settle(
    visitPageAction({ request, params: { visitId: visitId }, context: {} } as never),
  )
  const answer = returned ?? thrown
  if (answer instanceof Response) {
    return { status: answer.status, message: null, location: answer.headers.get('Location') }
  }
  const value = answer as {
    type?: string
    data?: { error?: string; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number }
  }
  const body = value.type === 'DataWithResponseInit' ? value.data : (answer as typeof value.data)
  const errors = Object.values(body?.result?.error ?? {})
    .flat()
    .filter(Boolean)
  return { status: value.init?.status ?? 200, message: body?.error ?? errors[0] ?? null }
}

/** The same change as the phone's queue sends it. */
async function sendFromPhone(cookie: string, visitId: string, change: VisitChange): Promise<Answer> {
  const request = new Request(`${TEST_ORIGIN}/app/field/changes`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ key: crypto.randomUUID(), visitId, madeAt: new Date().toISOString(), change }),
  })
  const response = (await fieldChangesAction({ request, params: {}, context: {} } as never)) as Response
  const body = (await response.json()) as { ok: boolean; message?: string }
  return { status: response.status, message: body.ok ? null : (body.message ?? null) }
}

const visitRow = async (visitId: string) => {
  const [row] = await db()
    .select({
      technicianId: visits.technicianId,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
      skipReason: visits.skipReason,
      officeNote: visits.officeNote,
    })
    .from(visits)
    .where(eq(visits.id, visitId))
  return row
}

const readingsOf = (visitId: string) =>
  db()
    .select({ ph: chemLogs.ph, chlorinePpm: chemLogs.chlorinePpm, alkalinity: chemLogs.alkalinity })
    .from(chemLogs)
    .where(eq(chemLogs.visitId, visitId))

let tech: string
let dispatcher: string
let tech2Id: string
/** Open visits of tech@, in order; each test takes its own pair, one for each way. */
let visitList: string[]

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  tech = await signInAs('tech@bluelagoon.test')
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  const [techProfile] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  const [tech2Profile] = await db().select().from(profiles).where(eq(profiles.email, 'tech2@bluelagoon.test'))
  tech2Id = tech2Profile?.id ?? ''
  const rows = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.technicianId, techProfile?.id ?? ''), isNull(visits.completedAt), isNull(visits.canceledAt)))
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(6)
  visitList = rows.map((row) => row.id)
  expect(visitList).toHaveLength(6)
})

describe('a visit change by plain form or by the phone', () => {
  it('saves the same reading, and refuses the same reading out of range with the same message', async () => {
    const [byForm = '', byPhone = ''] = visitList
    const reading = { ph: '7.4', chlorinePpm: '3', alkalinity: '90' }
    expect(await postForm(tech, byForm, { intent: 'reading', ...reading })).toMatchObject({ status: 200 })
    expect(await sendFromPhone(tech, byPhone, { type: 'reading', fields: reading })).toEqual({
      status: 200,
      message: null,
    })
    const saved = { ph: 7.4, chlorinePpm: 3, alkalinity: 90 }
    expect(await readingsOf(byForm)).toEqual([saved])
    expect(await readingsOf(byPhone)).toEqual([saved])

    const outOfRange = { ...reading, cyanuricAcid: '400' }
    const formRefusal = await postForm(tech, byForm, { intent: 'reading', ...outOfRange })
    const phoneRefusal = await sendFromPhone(tech, byPhone, { type: 'reading', fields: outOfRange })
    expect(formRefusal).toEqual({ status: 400, message: 'Cyanuric acid must be between 0 and 300 ppm.' })
    expect(phoneRefusal).toEqual(formRefusal)
    expect(await readingsOf(byForm)).toHaveLength(1)
    expect(await readingsOf(byPhone)).toHaveLength(1)
  })

  it('lets the office skip a technician’s visit either way, with the same result', async () => {
    const [, , byForm = '', byPhone = ''] = visitList
    expect(await postForm(dispatcher, byForm, { intent: 'skip-visit', reason: 'Weather' })).toMatchObject({
      status: 302,
      location: `/app/visits/${byForm}`,
    })
    expect(await sendFromPhone(dispatcher, byPhone, { type: 'skip', fields: { reason: 'Weather' } })).toEqual({
      status: 200,
      message: null,
    })
    for (const visitId of [byForm, byPhone]) {
      expect(await visitRow(visitId)).toMatchObject({ skipReason: 'Weather', canceledAt: expect.any(Date) })
    }
    // Skipped, the visit refuses the technician's next change the same way too.
    const formRefusal = await postForm(tech, byForm, { intent: 'complete' })
    expect(formRefusal).toEqual({ status: 409, message: 'This visit was skipped: Weather.' })
    expect(await sendFromPhone(tech, byPhone, { type: 'complete' })).toEqual(formRefusal)
  })

  it('refuses a visit the office gave to another technician with the same answer, and changes nothing', async () => {
    const [, , , , byForm = '', byPhone = ''] = visitList
    // The office reassigns both visits after the technician opened them.
    for (const visitId of [byForm, byPhone]) {
      await db().update(visits).set({ technicianId: tech2Id }).where(eq(visits.id, visitId))
    }
    const reassigned = { status: 409, message: FIELD_MESSAGES.reassigned }
    const attempts: Array<[Record<string, string>, VisitChange]> = [
      [
        { intent: 'notes', officeNote: 'Gate was open.', customerNote: '' },
        { type: 'note', audience: 'office', text: 'Gate was open.' },
      ],
      [
        { intent: 'reading', ph: '7.4', chlorinePpm: '3', alkalinity: '90' },
        { type: 'reading', fields: { ph: '7.4', chlorinePpm: '3', alkalinity: '90' } },
      ],
      [
        { intent: 'skip-visit', reason: 'Locked gate' },
        { type: 'skip', fields: { reason: 'Locked gate' } },
      ],
      [{ intent: 'complete' }, { type: 'complete' }],
    ]
    for (const [fields, change] of attempts) {
      expect(await postForm(tech, byForm, fields), fields.intent).toEqual(reassigned)
      expect(await sendFromPhone(tech, byPhone, change), change.type).toEqual(reassigned)
    }
    for (const visitId of [byForm, byPhone]) {
      expect(await visitRow(visitId)).toEqual({
        technicianId: tech2Id,
        completedAt: null,
        canceledAt: null,
        skipReason: null,
        officeNote: null,
      })
      expect(await readingsOf(visitId)).toEqual([])
    }
  })
})
