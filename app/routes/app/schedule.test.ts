import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations, user, visits } from '~/db/schema'
import { unpackCells } from '~/features/schedule/board-cells'
import { generateVisits } from '~/models/visit-generation.server'
import { getWeekBoard, mondayOf } from '~/models/week-board.server'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle, statusOf } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './schedule'
import { action as visitAction } from './visit'

const post = (path: string, cookie: string, fields: Record<string, string>) =>
  formRequest(path, fields, cookie, SAME_ORIGIN)

type Reply = { data: { ok: string | null; visitId: string; result?: { error?: Record<string, string[]> } } }

let dispatcher: string
let companyId: string
let timezone: string
let today: string
let maya: string
let tyler: string

/** An open plan visit of Blue Lagoon at least two days ahead, and its local date. */
async function openPlanVisit(skip = 0, technicianId?: string) {
  const rows = await db()
    .select({ id: visits.id, scheduledAt: visits.scheduledAt, technicianId: visits.technicianId })
    .from(visits)
    .where(
      and(
        eq(visits.companyId, companyId),
        isNotNull(visits.planId),
        technicianId ? eq(visits.technicianId, technicianId) : undefined,
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
        gt(visits.scheduledAt, new Date(Date.now() + 2 * 86_400_000)),
      ),
    )
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(skip + 1)
  const visit = rows[skip]
  if (!visit) throw new Error('no open plan visit')
  return { ...visit, date: localDateAt(visit.scheduledAt, timezone) }
}

async function visitRow(id: string) {
  const [row] = await db()
    .select({ scheduledAt: visits.scheduledAt, technicianId: visits.technicianId, movedAt: visits.movedAt })
    .from(visits)
    .where(eq(visits.id, id))
  return row
}

beforeAll(async () => {
  await useDemoData()
  await generateVisits({ now: new Date() })
  const [owner] = await db()
    .select({ companyId: profiles.companyId })
    .from(profiles)
    .where(eq(profiles.email, 'owner@bluelagoon.test'))
  companyId = owner?.companyId as string
  const [company] = await db()
    .select({ timezone: companies.timezone })
    .from(companies)
    .where(eq(companies.id, companyId))
  timezone = company?.timezone as string
  today = localDateAt(new Date(), 'America/New_York')
  const [tech2] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.email, 'tech2@bluelagoon.test'))
  maya = tech2?.id as string
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  tyler = tech?.id as string
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

describe('Schedule: the week board', () => {
  it('shows this week from Monday: 7 day columns with full dates, a row per technician, visits counted per cell', async () => {
    const board = await loader(routeArgs(pageRequest('/app/schedule', dispatcher)))
    expect(board.weekStart).toBe(mondayOf(today))
    expect(board.days.map((day) => day.date)).toEqual(Array.from({ length: 7 }, (_, i) => addDays(board.weekStart, i)))
    expect(board.days[0]?.label).toMatch(/^Mon, [A-Z][a-z]{2} \d{1,2}, \d{4}$/)
    expect(board.days[6]?.label).toMatch(/^Sun, /)
    expect(board.technicians.map((tech) => tech.name)).toEqual(expect.arrayContaining(['Tyler Brooks', 'Maya Flores']))
    expect(board.previousWeek).toBe(addDays(board.weekStart, -7))
    expect(board.nextWeek).toBe(addDays(board.weekStart, 7))
    expect(board.truncated).toBe(false)
    for (const visit of unpackCells(board.cells)) expect(board.days.map((day) => day.date)).toContain(visit.date)
  })

  it('lists next week’s generated plan visits in their technician’s cells', async () => {
    const next = addDays(mondayOf(today), 7)
    const board = await loader(routeArgs(pageRequest(`/app/schedule?week=${next}`, dispatcher)))
    expect(board.weekStart).toBe(next)
    const visits = unpackCells(board.cells)
    expect(visits.length).toBeGreaterThan(0)
    const techIds = new Set(board.technicians.map((tech) => tech.id))
    for (const visit of visits) {
      if (visit.technicianId) expect(techIds.has(visit.technicianId)).toBe(true)
      expect(visit.minutes).toBeGreaterThan(0)
    }
  })

  it.each([
    ['a Tuesday', (monday: string) => addDays(monday, 8)],
    ['empty', () => ''],
  ])('falls back to this week when "week" is %s', async (_, week) => {
    const board = await loader(routeArgs(pageRequest(`/app/schedule?week=${week(mondayOf(today))}`, dispatcher)))
    expect(board.weekStart).toBe(mondayOf(today))
  })

  it.each([
    ['not a date', 'soon'],
    ['an impossible date', '2026-02-30'],
    ['an impossible month', '2026-13-07'],
    // A Monday in the year 9999: its Sunday and "next week" left the date form, a 500 (RangeError) before.
    ['a Monday far past any year of service', '9999-12-27'],
    ['a Monday before any year of service', '1999-12-27'],
  ])('is a 404 when "week" is %s', async (_, week) => {
    const { thrown } = await settle(loader(routeArgs(pageRequest(`/app/schedule?week=${week}`, dispatcher))))
    expect(statusOf(thrown)).toBe(404)
  })

  it('pages the technicians eight at a time; every page shows the unassigned visits and its own technicians’ only', async () => {
    // A second company with 12 technicians ("Pager Tech 01…12"), one visit each this week, and one unassigned.
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Paging Pools', timezone: 'UTC' })
      .returning({ id: companies.id })
    const pagingCompany = company?.id as string
    const names = Array.from({ length: 12 }, (_, i) => `Pager Tech ${String(i + 1).padStart(2, '0')}`)
    await db()
      .insert(user)
      .values(names.map((name, i) => ({ id: `pager-tech-${i}`, name, email: `pager-tech-${i}@paging.test` })))
    await db()
      .insert(profiles)
      .values([
        ...names.map((name, i) => ({
          id: `pager-tech-${i}`,
          companyId: pagingCompany,
          role: 'tech' as const,
          fullName: name,
          email: `pager-tech-${i}@paging.test`,
          hasCompletedSetup: true,
        })),
      ])
    const customer = await addTestCustomer(pagingCompany, { customerName: 'Paging Customer', address: '1 Page St' })
    const monday = mondayOf(localDateAt(new Date(), 'UTC'))
    const at = new Date(`${addDays(monday, 2)}T10:00:00Z`)
    const visit = (technicianId: string | null, i: number) => ({
      companyId: pagingCompany,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: `Visit ${i}`,
      address: '1 Page St',
      scheduledAt: at,
      technicianId,
    })
    await db()
      .insert(visits)
      .values([...names.map((_, i) => visit(`pager-tech-${i}`, i)), visit(null, 99)])

    const first = await getWeekBoard({ companyId: pagingCompany, timezone: 'UTC', weekStart: monday })
    expect(first.technicianPage).toEqual({ page: 1, pageCount: 2, from: 1, to: 8, total: 12 })
    expect(first.rowTechnicians.map((tech) => tech.name)).toEqual(names.slice(0, 8))
    expect(first.technicians).toHaveLength(12)
    expect(first.visits.map((v) => v.customerName).sort()).toEqual(
      [...names.slice(0, 8).map((_, i) => `Visit ${i}`), 'Visit 99'].sort(),
    )
    const second = await getWeekBoard({
      companyId: pagingCompany,
      timezone: 'UTC',
      weekStart: monday,
      technicianPage: 2,
    })
    expect(second.technicianPage).toEqual({ page: 2, pageCount: 2, from: 9, to: 12, total: 12 })
    expect(second.visits.map((v) => v.customerName).sort()).toEqual([
      'Visit 10',
      'Visit 11',
      'Visit 8',
      'Visit 9',
      'Visit 99',
    ])
    // A page past the end is the last page; nonsense is the first.
    expect(
      (await getWeekBoard({ companyId: pagingCompany, timezone: 'UTC', weekStart: monday, technicianPage: 9 }))
        .technicianPage.page,
    ).toBe(2)
    expect(
      (await getWeekBoard({ companyId: pagingCompany, timezone: 'UTC', weekStart: monday, technicianPage: Number.NaN }))
        .technicianPage.page,
    ).toBe(1)
  })

  it('names the location on the cards of a customer with several locations, and only theirs', async () => {
    const week = addDays(mondayOf(today), 14)
    const two = await addTestCustomer(companyId, {
      customerName: 'Two Pools Co',
      address: '1 Main St, Austin, TX 78701',
    })
    const [second] = await db()
      .insert(serviceLocations)
      .values({ companyId, customerId: two.id, label: 'Lake house', street: '9 Shore Rd', city: 'Austin' })
      .returning({ id: serviceLocations.id })
    const one = await addTestCustomer(companyId, { customerName: 'One Pool Co', address: '2 Elm St, Austin, TX 78701' })
    const at = instantAt(addDays(week, 1), '10:15', timezone)
    const rows = await db()
      .insert(visits)
      .values([
        {
          companyId,
          customerId: two.id,
          locationId: two.locationId,
          customerName: two.customerName,
          address: two.address,
          scheduledAt: at,
        },
        {
          companyId,
          customerId: two.id,
          locationId: second?.id as string,
          customerName: two.customerName,
          address: '9 Shore Rd',
          scheduledAt: at,
        },
        {
          companyId,
          customerId: one.id,
          locationId: one.locationId,
          customerName: one.customerName,
          address: one.address,
          scheduledAt: at,
        },
      ])
      .returning({ id: visits.id })
    const board = await loader(routeArgs(pageRequest(`/app/schedule?week=${week}`, dispatcher)))
    const place = (id: string | undefined) => unpackCells(board.cells).find((visit) => visit.id === id)
    expect(place(rows[0]?.id)).toMatchObject({ place: '1 Main St', clock: '10:15' })
    expect(place(rows[1]?.id)).toMatchObject({ place: 'Lake house' })
    expect(place(rows[2]?.id)).not.toHaveProperty('place')
  })

  it('turns a technician away as the guard does', async () => {
    const tech = await signInAs('tech@bluelagoon.test')
    const { thrown } = await settle(loader(routeArgs(pageRequest('/app/schedule', tech))))
    expect(statusOf(thrown)).toBe(403)
    const move = await settle(action(routeArgs(post('/app/schedule', tech, { intent: 'move-visit' }))))
    expect(statusOf(move.thrown)).toBe(403)
  })
})

describe('Schedule: move-visit', () => {
  it('moves one visit to another date and technician', async () => {
    const visit = await openPlanVisit()
    const to = addDays(visit.date, 1)
    const reply = (await action(
      routeArgs(
        post('/app/schedule', dispatcher, {
          intent: 'move-visit',
          visitId: visit.id,
          date: to,
          technicianId: maya,
          scope: 'one',
        }),
      ),
    )) as unknown as Reply
    expect(reply.data.ok).toBe('Visit moved.')
    const row = await visitRow(visit.id)
    expect(localDateAt(row?.scheduledAt as Date, timezone)).toBe(to)
    expect(row?.technicianId).toBe(maya)
    expect(row?.movedAt).not.toBeNull()
    // The board shows it in its new cell.
    const board = await loader(routeArgs(pageRequest(`/app/schedule?week=${mondayOf(to)}`, dispatcher)))
    expect(unpackCells(board.cells).find((item) => item.id === visit.id)).toMatchObject({
      date: to,
      technicianId: maya,
    })
  })

  it('moves a visit to a time as well as a date; an appointment moves with it', async () => {
    const visit = await openPlanVisit(2)
    await db().update(visits).set({ appointmentAt: visit.scheduledAt }).where(eq(visits.id, visit.id))
    const to = addDays(visit.date, 1)
    const reply = (await action(
      routeArgs(
        post('/app/schedule', dispatcher, {
          intent: 'move-visit',
          visitId: visit.id,
          date: to,
          time: '14:30',
          scope: 'one',
        }),
      ),
    )) as unknown as Reply
    expect(reply.data.ok).toBe('Visit moved.')
    const [row] = await db()
      .select({ scheduledAt: visits.scheduledAt, appointmentAt: visits.appointmentAt })
      .from(visits)
      .where(eq(visits.id, visit.id))
    expect(row?.scheduledAt.toISOString()).toBe(instantAt(to, '14:30', timezone).toISOString())
    expect(row?.appointmentAt?.toISOString()).toBe(instantAt(to, '14:30', timezone).toISOString())
    // Nonsense is the field's error.
    const bad = await action(
      routeArgs(
        post('/app/schedule', dispatcher, { intent: 'move-visit', visitId: visit.id, date: to, time: '25:00' }),
      ),
    )
    expect(statusOf(bad)).toBe(400)
    expect((bad as unknown as Reply).data.result?.error?.time).toEqual(['"Time" must be a time, like 9:30 AM.'])
  })

  it('refuses a date in the past with the form error', async () => {
    const visit = await openPlanVisit(1)
    const result = await action(
      routeArgs(
        post('/app/schedule', dispatcher, {
          intent: 'move-visit',
          visitId: visit.id,
          date: addDays(today, -1),
          technicianId: '',
        }),
      ),
    )
    expect(statusOf(result)).toBe(400)
    expect((result as unknown as Reply).data.result?.error?.['']).toEqual(['Choose today or a later date.'])
    expect(localDateAt((await visitRow(visit.id))?.scheduledAt as Date, timezone)).toBe(visit.date)
  })

  it('answers 404 for another company’s visit, and moves nothing', async () => {
    const visit = await openPlanVisit(2)
    const otherOwner = await signInAs('owner@sunsetpools.test')
    const result = await action(
      routeArgs(
        post('/app/schedule', otherOwner, {
          intent: 'move-visit',
          visitId: visit.id,
          date: addDays(visit.date, 1),
          technicianId: '',
        }),
      ),
    )
    expect(statusOf(result)).toBe(404)
    expect(localDateAt((await visitRow(visit.id))?.scheduledAt as Date, timezone)).toBe(visit.date)
  })

  it('moves a visit from its visit page too (office only)', async () => {
    const visit = await openPlanVisit(0, tyler)
    const to = addDays(visit.date, 2)
    const tech = await signInAs('tech@bluelagoon.test')
    const path = `/app/visits/${visit.id}`
    const fields = { intent: 'move-visit', visitId: visit.id, date: to, technicianId: '', scope: 'one' }
    // Tyler's own visit, but moving visits is the office's work.
    const refused = await settle(visitAction(routeArgs(post(path, tech, fields), { visitId: visit.id })))
    expect(statusOf(refused.thrown)).toBe(403)
    const reply = (await visitAction(
      routeArgs(post(path, dispatcher, fields), { visitId: visit.id }),
    )) as unknown as Reply
    expect(reply.data.ok).toBe('Visit moved.')
    const row = await visitRow(visit.id)
    expect(localDateAt(row?.scheduledAt as Date, timezone)).toBe(to)
    expect(row?.technicianId).toBeNull()
  })

  it('follows "This and following visits" from the visit page to the new plan’s visit', async () => {
    const visit = await openPlanVisit(1, tyler)
    const to = addDays(visit.date, 1)
    const path = `/app/visits/${visit.id}`
    const fields = { intent: 'move-visit', visitId: visit.id, date: to, technicianId: maya, scope: 'following' }
    const { thrown } = await settle(visitAction(routeArgs(post(path, dispatcher, fields), { visitId: visit.id })))
    const response = thrown as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Set-Cookie')).toMatch(/^pb-flash=/)
    const movedTo = (response.headers.get('Location') ?? '').replace('/app/visits/', '')
    expect(movedTo).not.toBe(visit.id)
    const row = await visitRow(movedTo)
    expect(localDateAt(row?.scheduledAt as Date, timezone)).toBe(to)
    expect(row?.technicianId).toBe(maya)
  })
})
