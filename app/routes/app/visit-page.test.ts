// The visit page (docs/product.md "The visit", issue #19) through the visit route's loader and action: the checklist and
// notes as plain forms, the read-only summary of a completed visit, and "Reopen visit" for the office only.
import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { checklistItems, profiles, visitChecks, visits } from '~/db/schema'
import { NOTE_MAX } from '~/field/changes'
import { generateVisits } from '~/models/visit-generation.server'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './visit'

const post = (cookie: string, visitId: string, fields: [string, string][]) =>
  formRequest(`/app/visits/${visitId}`, fields, cookie)

type VisitPage = Awaited<ReturnType<typeof loader>>
const page = async (cookie: string, visitId: string) =>
  (await loader(routeArgs(pageRequest(`/app/visits/${visitId}`, cookie), { visitId }))) as VisitPage

/** Runs an action that should redirect back to the visit; returns the message it carries. */
async function backToVisit(cookie: string, visitId: string, fields: [string, string][]) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, visitId, fields), { visitId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/visits/${visitId}`)
  const cookieValue = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  return (await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie: cookieValue } }))).flash?.text
}

const ticksOf = async (visitId: string) =>
  (await db().select({ label: visitChecks.label }).from(visitChecks).where(eq(visitChecks.visitId, visitId)))
    .map((row) => row.label)
    .sort()

let tech: string
let dispatcher: string
let otherOwner: string
let techVisits: string[]
let items: { id: string; label: string }[]

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  ;[tech, dispatcher, otherOwner] = await Promise.all([
    signInAs('tech@bluelagoon.test'),
    signInAs('dispatch@bluelagoon.test'),
    signInAs('owner@sunsetpools.test'),
  ])
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  const rows = await db()
    .select({ id: visits.id, companyId: visits.companyId })
    .from(visits)
    .where(and(eq(visits.technicianId, profile?.id ?? ''), isNull(visits.completedAt), isNull(visits.canceledAt)))
    .orderBy(visits.scheduledAt)
    .limit(4)
  techVisits = rows.map((row) => row.id)
  items = await db()
    .select({ id: checklistItems.id, label: checklistItems.label })
    .from(checklistItems)
    .where(eq(checklistItems.companyId, rows[0]?.companyId ?? ''))
    .orderBy(checklistItems.position)
  expect(techVisits).toHaveLength(4)
  expect(items).toHaveLength(4)
})

describe('the visit page', () => {
  it("lists the company's checklist in order, nothing ticked, on an open visit the technician works", async () => {
    const visit = await page(tech, techVisits[0] ?? '')
    expect(visit.checklist.map((item) => item.label)).toEqual(items.map((item) => item.label))
    expect(visit.ticks).toEqual([])
    expect(visit).toMatchObject({ canWork: true, canReopen: false, canManage: false })
  })

  it('saves the ticked set from the plain checklist form once, however often it is posted', async () => {
    const visitId = techVisits[0] ?? ''
    const formKey = crypto.randomUUID()
    const fields: [string, string][] = [
      ['intent', 'checklist'],
      ['idempotencyKey', formKey],
      ['itemId', items[0]?.id ?? ''],
      ['itemId', items[2]?.id ?? ''],
    ]
    expect(await backToVisit(tech, visitId, fields)).toBe('Checklist saved.')
    // A double submit of the same form changes nothing more.
    expect(await backToVisit(tech, visitId, fields)).toBe('Checklist saved.')
    expect(await ticksOf(visitId)).toEqual([items[0]?.label, items[2]?.label].sort())
    // The next form, with the first item unticked and the second ticked.
    await backToVisit(tech, visitId, [
      ['intent', 'checklist'],
      ['idempotencyKey', crypto.randomUUID()],
      ['itemId', items[1]?.id ?? ''],
      ['itemId', items[2]?.id ?? ''],
    ])
    expect(await ticksOf(visitId)).toEqual([items[1]?.label, items[2]?.label].sort())
    expect((await page(tech, visitId)).ticks.map((tick) => tick.itemId).sort()).toEqual(
      [items[1]?.id, items[2]?.id].sort(),
    )
  })

  it('saves both notes from the plain notes form', async () => {
    const visitId = techVisits[0] ?? ''
    const message = await backToVisit(tech, visitId, [
      ['intent', 'notes'],
      ['idempotencyKey', crypto.randomUUID()],
      ['officeNote', 'Pump seal weeping; order a kit.'],
      ['customerNote', 'Filter cleaned; looking great.'],
    ])
    expect(message).toBe('Notes saved.')
    const visit = await page(tech, visitId)
    expect(visit.visit).toMatchObject({
      officeNote: 'Pump seal weeping; order a kit.',
      customerNote: 'Filter cleaned; looking great.',
    })
  })

  it('sends the page back with the from it was opened with, so its back link still says where it goes', async () => {
    const visitId = techVisits[0] ?? ''
    const from = `/app/schedule/unassigned/2026-11-30`
    const opened = formRequest(
      `/app/visits/${visitId}?${new URLSearchParams({ from })}`,
      [
        ['intent', 'notes'],
        ['idempotencyKey', crypto.randomUUID()],
        // The notes the test before saved: the visit is left as it was.
        ['officeNote', 'Pump seal weeping; order a kit.'],
        ['customerNote', 'Filter cleaned; looking great.'],
      ],
      tech,
    )
    const { thrown } = await settle(action(routeArgs(opened, { visitId })))
    expect(thrown).toHaveRedirect(`/app/visits/${visitId}?${new URLSearchParams({ from })}`)
  })

  it('refuses a plain form whose fields are not what the page sends, and changes nothing', async () => {
    const visitId = techVisits[0] ?? ''
    const before = await ticksOf(visitId)
    const tampered = await settle(
      action(
        routeArgs(
          post(tech, visitId, [
            ['intent', 'checklist'],
            ['idempotencyKey', crypto.randomUUID()],
            ['itemId', 'not-an-item'],
          ]),
          { visitId },
        ),
      ),
    )
    expect(tampered.returned).toMatchObject({
      init: { status: 400 },
      data: { intent: 'checklist', result: { error: { 'itemId[0]': ['This checklist item does not exist.'] } } },
    })
    expect(await ticksOf(visitId)).toEqual(before)
    const long = await settle(
      action(
        routeArgs(
          post(tech, visitId, [
            ['intent', 'notes'],
            ['idempotencyKey', crypto.randomUUID()],
            ['officeNote', 'x'.repeat(NOTE_MAX + 1)],
          ]),
          { visitId },
        ),
      ),
    )
    expect(long.returned).toMatchObject({
      init: { status: 400 },
      data: { intent: 'notes', result: { error: { officeNote: [`Keep the note under ${NOTE_MAX} characters.`] } } },
    })
    expect((await page(tech, visitId)).visit.officeNote).toBe('Pump seal weeping; order a kit.')
  })

  it('shows a completed visit as its summary, completed by whom, with Reopen for the office only', async () => {
    const visitId = techVisits[0] ?? ''
    const { thrown } = await settle(action(routeArgs(post(tech, visitId, [['intent', 'complete']]), { visitId })))
    expect((thrown as Response).headers.get('Location')).toBe('/app')

    const techView = await page(tech, visitId)
    expect(techView).toMatchObject({ canWork: false, canReopen: false })
    expect(techView.visit).toMatchObject({
      state: 'completed',
      completedBy: 'Tyler Brooks',
      customerNote: 'Filter cleaned; looking great.',
    })
    expect(techView.visit.completed).toMatch(/\d{1,2}:\d{2}\s?[AP]M/)
    expect(techView.ticks.map((tick) => tick.label).sort()).toEqual([items[1]?.label, items[2]?.label].sort())

    const officeView = await page(dispatcher, visitId)
    expect(officeView).toMatchObject({ canWork: false, canReopen: true, canCancel: false })

    // The technician's plain forms are refused now, with the reason, and change nothing.
    const late = await settle(
      action(
        routeArgs(
          post(tech, visitId, [
            ['intent', 'checklist'],
            ['idempotencyKey', crypto.randomUUID()],
          ]),
          { visitId },
        ),
      ),
    )
    expect(late.returned).toMatchObject({
      init: { status: 409 },
      data: { intent: 'checklist', result: { error: { '': ['This visit was already completed.'] } } },
    })
    expect(await ticksOf(visitId)).toHaveLength(2)
  })

  it('lets the office reopen a completed visit, but not its technician', async () => {
    const visitId = techVisits[0] ?? ''
    const { thrown } = await settle(action(routeArgs(post(tech, visitId, [['intent', 'reopen']]), { visitId })))
    expect(statusOf(thrown)).toBe(403)
    expect((await db().select().from(visits).where(eq(visits.id, visitId)))[0]?.completedAt).not.toBeNull()

    expect(await backToVisit(dispatcher, visitId, [['intent', 'reopen']])).toBe('Visit reopened.')
    const [visit] = await db().select().from(visits).where(eq(visits.id, visitId))
    expect(visit).toMatchObject({ completedAt: null, completedBy: null })
    // Open work again for the technician, with what was done kept.
    const techView = await page(tech, visitId)
    expect(techView).toMatchObject({ canWork: true })
    expect(techView.ticks).toHaveLength(2)

    // An open visit cannot be reopened.
    const again = await settle(action(routeArgs(post(dispatcher, visitId, [['intent', 'reopen']]), { visitId })))
    expect(again.returned).toMatchObject({ init: { status: 409 } })
  })

  it("is a 404 for another company's owner on the page and the new intents, and changes nothing", async () => {
    const visitId = techVisits[1] ?? ''
    expect(statusOf((await settle(page(otherOwner, visitId))).thrown)).toBe(404)
    for (const fields of [
      [
        ['intent', 'checklist'],
        ['itemId', items[0]?.id ?? ''],
      ],
      [
        ['intent', 'notes'],
        ['customerNote', 'Hello from elsewhere'],
      ],
      [['intent', 'reopen']],
    ] as [string, string][][]) {
      const { thrown } = await settle(action(routeArgs(post(otherOwner, visitId, fields), { visitId })))
      expect(statusOf(thrown)).toBe(404)
    }
    expect(await ticksOf(visitId)).toEqual([])
    expect((await db().select().from(visits).where(eq(visits.id, visitId)))[0]?.customerNote).toBeNull()
  })
})
