import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, visits } from '~/db/schema'
import { ASSIGN_MESSAGES } from '~/features/visits/assign-visit-schema'
import { CREATE_VISIT_MESSAGES } from '~/features/visits/create-visit-schema'
import { getDispatchCounts } from '~/models/dashboard-counts.server'
import { listTodaysRoutes } from '~/models/dispatch-home.server'
import { addServiceLocation } from '~/models/service-location.server'
import { action as dashboardAction, loader as dashboardLoader } from '~/routes/app/dashboard'
import { db } from '~/utils/db.server'
import { UNKNOWN_INTENT } from '~/utils/result'
import { addTestCustomer, findTestCustomer } from '../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'

const post = (cookie: string, fields: Record<string, string>) => formRequest('/app', fields, cookie)

/** The body and status of an action's `data(…)` reply. */
function reply(result: unknown) {
  const value = result as {
    data: { ok: string | null; error: string | null; visitId?: string; result?: { error?: unknown } }
    init?: { status?: number }
  }
  return { ...value.data, status: value.init?.status ?? 200 }
}

let blue: string
let dispatcher: string
let dana: { id: string; customerName: string; address: string; locationId: string }
let techId: string

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  dana = await findTestCustomer('Dana Whitfield')
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
  dispatcher = await signInAs('dispatch@bluelagoon.test')
})

type BoardPage = {
  unassigned: Array<{ id: string }>
  recent: Array<{ to: string }>
  counts: { unassigned: number }
  unassignedPage: { page: number; pageCount: number; first: number; last: number; total: number }
}

async function boardPage(page: number | string) {
  return (await dashboardLoader(routeArgs(pageRequest(`/app?unassigned=${page}`, dispatcher)))) as BoardPage
}

/** The ids on every page of the unassigned list, in order. */
async function allUnassignedPages() {
  const first = await boardPage(1)
  const ids = first.unassigned.map((visit) => visit.id)
  for (let page = 2; page <= first.unassignedPage.pageCount; page++) {
    ids.push(...(await boardPage(page)).unassigned.map((visit) => visit.id))
  }
  return ids
}

describe('create visit', () => {
  it("answers each missing field with the spec's message", async () => {
    const base = {
      intent: 'create-visit',
      customerName: dana.customerName,
      address: dana.address,
      scheduledAt: '2026-12-01T09:00',
    }
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...base, customerId: '' }, 'customerId', 'Select a customer for this visit.'],
      [{ ...base, customerId: dana.id, customerName: '   ' }, 'customerName', CREATE_VISIT_MESSAGES.required],
      [{ ...base, customerId: dana.id, address: '' }, 'address', CREATE_VISIT_MESSAGES.required],
      [{ ...base, customerId: dana.id, scheduledAt: '' }, 'scheduledAt', CREATE_VISIT_MESSAGES.required],
    ]
    for (const [fields, field, message] of cases) {
      const result = reply(await dashboardAction(routeArgs(post(dispatcher, fields))))
      expect(result.error).toBe(message)
      expect(result.status).toBe(400)
      // The form shows it at its field.
      expect(result.result?.error).toEqual({ [field]: [message] })
    }
  })

  it('creates the visit in the company timezone and lists it as unassigned', async () => {
    const result = reply(
      await dashboardAction(
        routeArgs(
          post(dispatcher, {
            intent: 'create-visit',
            customerId: dana.id,
            customerName: dana.customerName,
            address: dana.address,
            scheduledAt: '2026-12-01T09:00',
          }),
        ),
      ),
    )
    expect(result.ok).toBe('Visit created.')
    const [visit] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, result.visitId ?? ''))
    // 09:00 in New York in December is 14:00 UTC.
    expect(visit?.scheduledAt.toISOString()).toBe('2026-12-01T14:00:00.000Z')
    expect(visit?.technicianId).toBeNull()
    const page = await boardPage(1)
    expect(page.recent[0]?.to).toBe(`/app/visits/${result.visitId}`)
    // The unassigned list comes in pages of 10, earliest first: the new visit is on one of them, exactly once.
    const everyPage = await allUnassignedPages()
    expect(everyPage.filter((id) => id === result.visitId)).toHaveLength(1)
  })

  it('books the visit at the location the picker offered, and refuses a location of another customer', async () => {
    const landlord = await addTestCustomer(blue, { customerName: 'Lana Landlord', address: '1 First St, Tampa, FL' })
    const second = await addServiceLocation({
      companyId: blue,
      customerId: landlord.id,
      input: { street: '2 Second St', city: 'Tampa', state: 'FL', dogOnSite: false },
    })
    if (!second.ok) throw new Error(second.message)
    const fields = {
      intent: 'create-visit',
      customerId: landlord.id,
      customerName: landlord.customerName,
      address: '2 Second St, Tampa, FL',
      scheduledAt: '2026-12-02T09:00',
    }
    const booked = reply(
      await dashboardAction(routeArgs(post(dispatcher, { ...fields, locationId: second.locationId }))),
    )
    expect(booked.ok).toBe('Visit created.')
    const [visit] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, booked.visitId ?? ''))
    expect(visit?.locationId).toBe(second.locationId)
    const refused = reply(
      await dashboardAction(routeArgs(post(dispatcher, { ...fields, locationId: dana.locationId }))),
    )
    expect(refused.ok).toBeNull()
    expect(refused.status).toBe(400)
  })

  it('without a choice from the list (no JavaScript), books the one customer the typed name finds', async () => {
    const fields = {
      intent: 'create-visit',
      customerId: '',
      customerName: dana.customerName,
      address: dana.address,
      scheduledAt: '2026-12-03T09:00',
    }
    const booked = reply(
      await dashboardAction(routeArgs(post(dispatcher, { ...fields, customerQuery: 'dana whitfield' }))),
    )
    expect(booked.ok).toBe('Visit created.')
    const [visit] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, booked.visitId ?? ''))
    expect(visit?.customerId).toBe(dana.id)
    // Text that finds several customers (or none) chooses nobody.
    for (const customerQuery of ['a', 'nobody-like-this']) {
      const refused = reply(await dashboardAction(routeArgs(post(dispatcher, { ...fields, customerQuery }))))
      expect(refused).toMatchObject({ status: 400, error: 'Select a customer for this visit.' })
    }
  })

  it('pages the unassigned list: 10 per page, no overlap, every unassigned visit once, the total counted', async () => {
    const first = await boardPage(1)
    expect(first.unassigned.length).toBe(Math.min(10, first.counts.unassigned))
    const ids = await allUnassignedPages()
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(first.counts.unassigned)
    expect(first.unassignedPage).toMatchObject({ page: 1, first: 1, total: first.counts.unassigned })
    // A page number that is not one falls back to the first page.
    expect((await boardPage('abc')).unassignedPage.page).toBe(1)
  })

  it("refuses another company's customer and technician", async () => {
    const [sunsetCustomer] = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.customerName, 'Marco Ruiz'))
    const [sunsetTech] = await db()
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.email, 'tech@sunsetpools.test'))
    const base = { intent: 'create-visit', customerName: 'X', address: 'Y', scheduledAt: '2026-12-01T09:00' }
    for (const fields of [
      { ...base, customerId: sunsetCustomer?.id ?? '' },
      { ...base, customerId: dana.id, technicianId: sunsetTech?.id ?? '' },
    ]) {
      const result = reply(await dashboardAction(routeArgs(post(dispatcher, fields))))
      expect(result.error).toBe('Unable to create visit.')
    }
  })

  it('is refused to technicians', async () => {
    const tech = await signInAs('tech@bluelagoon.test')
    await expect(
      dashboardAction(routeArgs(post(tech, { intent: 'create-visit', customerId: dana.id }))),
    ).rejects.toMatchObject({ init: { status: 403 } })
  })
})

describe('assign from the unassigned list', () => {
  it('assigns a technician and reschedules', async () => {
    const [open] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, blue), isNull(visits.technicianId), isNull(visits.completedAt)))
      .limit(1)
    const result = reply(
      await dashboardAction(
        routeArgs(
          post(dispatcher, {
            intent: 'assign',
            visitId: open?.id ?? '',
            technicianId: techId,
            scheduledAt: '2026-12-02T13:30',
          }),
        ),
      ),
    )
    expect(result.ok).toBe('Assigned.')
    const [visit] = await db()
      .select()
      .from(visits)
      .where(eq(visits.id, open?.id ?? ''))
    expect(visit?.technicianId).toBe(techId)
    expect(visit?.scheduledAt.toISOString()).toBe('2026-12-02T18:30:00.000Z')
  })

  it("cannot touch another company's visit", async () => {
    const sunsetOwner = await signInAs('owner@sunsetpools.test')
    const [open] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, blue), isNull(visits.completedAt)))
      .limit(1)
    const result = reply(
      await dashboardAction(
        routeArgs(post(sunsetOwner, { intent: 'assign', visitId: open?.id ?? '', scheduledAt: '2026-12-02T13:30' })),
      ),
    )
    expect(result.error).toBe('Unable to save changes to this visit.')
  })

  it('answers a post naming no visit (or something else than a visit id) with the 400 "Unknown action."', async () => {
    const posts: Record<string, string>[] = [
      { intent: 'assign' },
      { intent: 'assign', visitId: 'not-a-visit' },
      { intent: 'launch' },
    ]
    for (const fields of posts) {
      await expect(
        dashboardAction(routeArgs(post(dispatcher, { ...fields, scheduledAt: '2026-12-02T13:30' }))),
      ).rejects.toMatchObject({ data: UNKNOWN_INTENT, init: { status: 400 } })
    }
  })

  it('asks for a date and time, and tells the second of two edits that the visit changed', async () => {
    const { unassigned } = (await dashboardLoader(routeArgs(pageRequest('/app', dispatcher)))) as {
      unassigned: Array<{ id: string; version: string }>
    }
    const row = unassigned[0]
    const noTime = reply(
      await dashboardAction(routeArgs(post(dispatcher, { intent: 'assign', visitId: row?.id ?? '' }))),
    )
    expect(noTime).toMatchObject({ status: 400, visitId: row?.id, error: ASSIGN_MESSAGES.schedule })
    const fields = { intent: 'assign', visitId: row?.id ?? '', version: row?.version ?? '' }
    const first = reply(
      await dashboardAction(routeArgs(post(dispatcher, { ...fields, scheduledAt: '2026-12-07T08:00' }))),
    )
    expect(first).toMatchObject({ status: 200, ok: 'Rescheduled.' })
    const second = reply(
      await dashboardAction(routeArgs(post(dispatcher, { ...fields, scheduledAt: '2026-12-08T08:00' }))),
    )
    expect(second).toMatchObject({ status: 409, error: ASSIGN_MESSAGES.conflict })
  })
})

describe('counts and today', () => {
  it('are computed over the whole company, past any list limit', async () => {
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Big Pools', timezone: 'America/New_York' })
      .returning()
    const companyId = company?.id ?? ''
    const customer = await addTestCustomer(companyId, { customerName: 'Big Customer', address: '1 Main St' })
    const now = new Date('2026-11-22T17:00:00Z') // noon in New York
    const rows = Array.from({ length: 260 }, (_, i) => ({
      companyId,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: 'Big Customer',
      address: '1 Main St',
      // 130 in the past (12 of them earlier today: not overdue yet), 130 in the future, none assigned. Noon on Sunday
      // the 22nd: this week (from Monday the 16th) holds the 130 past ones and the 11 later today.
      scheduledAt: new Date(now.getTime() + (i < 130 ? -(i + 1) : i - 129) * 3_600_000),
    }))
    await db().insert(visits).values(rows)
    const counts = await getDispatchCounts({ companyId, timezone: 'America/New_York', now })
    expect(counts).toEqual({ unassigned: 260, unassignedThisWeek: 141, today: 23, overdue: 118, skippedThisWeek: 0 })
  })

  it("count only open visits as today's visits: not a completed, skipped or canceled one", async () => {
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Done Pools', timezone: 'America/New_York' })
      .returning()
    const companyId = company?.id ?? ''
    const customer = await addTestCustomer(companyId, { customerName: 'Del Done', address: '3 Main St' })
    const now = new Date('2026-11-25T17:00:00Z') // noon in New York
    const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000)
    const visit = { companyId, customerId: customer.id, locationId: customer.locationId, customerName: 'Del Done' }
    await db()
      .insert(visits)
      .values([
        { ...visit, address: '3 Main St', scheduledAt: at(-2) },
        { ...visit, address: '3 Main St', scheduledAt: at(2) },
        { ...visit, address: '3 Main St', scheduledAt: at(-3), completedAt: at(-2) },
        { ...visit, address: '3 Main St', scheduledAt: at(1), canceledAt: now, skipReason: 'Weather' },
        { ...visit, address: '3 Main St', scheduledAt: at(3), canceledAt: now },
      ])
    const counts = await getDispatchCounts({ companyId, timezone: 'America/New_York', now })
    // The open visit two hours ago is earlier today: late, but not overdue (decision 049).
    expect(counts).toEqual({ unassigned: 2, unassignedThisWeek: 2, today: 2, overdue: 0, skippedThisWeek: 1 })
  })

  it("follow the company's midnight, not UTC's", async () => {
    const [company] = await db()
      .insert(companies)
      .values({ name: 'Late Pools', timezone: 'America/New_York' })
      .returning()
    const companyId = company?.id ?? ''
    const customer = await addTestCustomer(companyId, { customerName: 'Night Owl', address: '2 Main St' })
    const base = {
      companyId,
      customerId: customer.id,
      locationId: customer.locationId,
      customerName: 'Night Owl',
      address: '2 Main St',
    }
    // 23:30 on Nov 21 in New York is 04:30 UTC on Nov 22.
    await db()
      .insert(visits)
      .values([
        { ...base, scheduledAt: new Date('2026-11-22T04:30:00Z') },
        { ...base, scheduledAt: new Date('2026-11-22T05:30:00Z') },
      ])
    const lateEvening = new Date('2026-11-22T04:00:00Z') // 23:00 Nov 21 in New York
    const routes = await listTodaysRoutes({ companyId, timezone: 'America/New_York', now: lateEvening })
    expect(routes).toEqual([{ technicianId: null, technicianName: null, done: 0, total: 1 }])
    const counts = await getDispatchCounts({ companyId, timezone: 'America/New_York', now: lateEvening })
    expect(counts.today).toBe(1)
  })
})
