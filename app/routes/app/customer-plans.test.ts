// "Add service plan" and "End plan" on the customer record (docs/product.md "Schedule"), through the route's loader and
// action.
import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, servicePlans, visits } from '~/db/schema'
import { addDays } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { addTestCustomer, type TestCustomer } from '../../../tests/helpers/customers'
import { formRequest, pageRequest, routeArgs, settle, statusOf, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './customer'

const post = (cookie: string, customerId: string, fields: Record<string, string>) =>
  formRequest(`/app/customers/${customerId}`, fields, cookie)

type RecordPage = Awaited<ReturnType<typeof loader>>

async function record(cookie: string, customerId: string, search = '') {
  return (await loader(
    routeArgs(pageRequest(`/app/customers/${customerId}${search}`, cookie), { customerId }),
  )) as RecordPage
}

/** The flash message a redirect carries, read back through the cookie's own parser. */
async function flashOf(response: Response) {
  const { takeFlash } = await import('~/utils/flash.server')
  const cookie = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  const { flash } = await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie } }))
  return flash?.text
}

/** Runs an action that should save and redirect back to the record; returns its message. */
async function saves(cookie: string, customerId: string, fields: Record<string, string>) {
  const { thrown, returned } = await settle(action(routeArgs(post(cookie, customerId, fields), { customerId })))
  expect(returned).toBeUndefined()
  const response = thrown as Response
  expect(response).toHaveRedirect(`/app/customers/${customerId}`)
  return flashOf(response)
}

function reply(result: unknown) {
  const value = result as {
    data: { message?: string | null; result?: { error?: Record<string, string[] | null> } }
    init?: { status?: number }
  }
  return { status: value.init?.status ?? 200, errors: value.data.result?.error ?? {} }
}

let dispatcher: string
let companyId: string
let customer: TestCustomer
let today: string
let techId: string

const weekly = () => ({
  intent: 'add-plan',
  targetId: customer.locationId,
  frequencyWeeks: '1',
  weekday: '3',
  technicianId: techId,
  startsOn: today,
  endsOn: '',
  serviceWindow: 'morning',
  rate: '85.50',
  rateType: 'per-visit',
})

beforeAll(async () => {
  await useDemoData()
  dispatcher = await signInAs('dispatch@bluelagoon.test')
  const [tech] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
  companyId = tech?.companyId ?? ''
  customer = await addTestCustomer(companyId, { customerName: 'Plan Person', address: '7 Plan St, Tampa, FL 33606' })
  today = (await record(dispatcher, customer.id)).today
})

describe('Add service plan', () => {
  it('opens from the location and lists the technicians', async () => {
    const page = await record(dispatcher, customer.id, `?add=plan:${customer.locationId}`)
    expect(page.open.add).toBe(`plan:${customer.locationId}`)
    expect(page.technicians.map((t) => t.id)).toContain(techId)
    expect(page.locations[0]?.plans).toEqual([])
  })

  it('adds a weekly plan with its 8 visits and says so', async () => {
    expect(await saves(dispatcher, customer.id, weekly())).toBe('Service plan added. 8 visits scheduled.')
    const [plan] = await db().select().from(servicePlans).where(eq(servicePlans.locationId, customer.locationId))
    expect(plan).toMatchObject({ frequencyWeeks: 1, weekday: 3, technicianId: techId, rateCents: 8550 })
    const visitList = await db()
      .select()
      .from(visits)
      .where(and(eq(visits.planId, plan?.id ?? ''), isNull(visits.canceledAt)))
    expect(visitList).toHaveLength(8)
    expect(visitList.every((visit) => visit.technicianId === techId)).toBe(true)
    const page = await record(dispatcher, customer.id)
    expect(page.locations[0]?.plans).toEqual([
      expect.objectContaining({ current: true, summary: expect.stringContaining('$85.50 per visit') }),
    ])
    expect(page.upcomingVisits.length).toBeGreaterThanOrEqual(8)
  })

  it('answers bad input next to the fields', async () => {
    const { returned } = await settle(
      action(
        routeArgs(
          post(dispatcher, customer.id, {
            ...weekly(),
            frequencyWeeks: '5',
            weekday: '0',
            startsOn: 'soon',
            rate: 'lots',
          }),
          { customerId: customer.id },
        ),
      ),
    )
    const { status: code, errors } = reply(returned)
    expect(code).toBe(400)
    expect(errors.frequencyWeeks).toEqual(['Choose a "Frequency".'])
    expect(errors.weekday).toEqual(['Choose a "Day".'])
    expect(errors.startsOn).toEqual(['"Starts on" must be a date.'])
    expect(errors.rate).toEqual(['Enter the "Rate" in dollars, like 85 or 85.50.'])
  })

  it('refuses an end before the start, and a technician of another company', async () => {
    const early = reply(
      (
        await settle(
          action(
            routeArgs(post(dispatcher, customer.id, { ...weekly(), endsOn: addDays(today, -1) }), {
              customerId: customer.id,
            }),
          ),
        )
      ).returned,
    )
    expect(early.status).toBe(400)
    expect(early.errors.endsOn).toEqual(['"Ends on" cannot be before "Starts on".'])
    const [stranger] = await db().select().from(profiles).where(eq(profiles.email, 'owner@sunsetpools.test'))
    const foreign = reply(
      (
        await settle(
          action(
            routeArgs(post(dispatcher, customer.id, { ...weekly(), technicianId: stranger?.id ?? '' }), {
              customerId: customer.id,
            }),
          ),
        )
      ).returned,
    )
    expect(foreign.status).toBe(400)
    expect(foreign.errors['']).toEqual(['Choose one of your technicians.'])
  })

  it("is a 404 for another company's location, and for another company's owner", async () => {
    const [sunsetOwner] = await db().select().from(profiles).where(eq(profiles.email, 'owner@sunsetpools.test'))
    const theirs = await addTestCustomer(sunsetOwner?.companyId ?? '', {
      customerName: 'Not Ours',
      address: '9 Far Rd',
    })
    const { thrown } = await settle(
      action(
        routeArgs(post(dispatcher, customer.id, { ...weekly(), targetId: theirs.locationId }), {
          customerId: customer.id,
        }),
      ),
    )
    expect(statusOf(thrown)).toBe(404)
    const otherOwner = await signInAs('owner@sunsetpools.test')
    expect(
      statusOf(
        (await settle(action(routeArgs(post(otherOwner, customer.id, weekly()), { customerId: customer.id })))).thrown,
      ),
    ).toBe(404)
    expect(await db().select().from(servicePlans).where(eq(servicePlans.locationId, theirs.locationId))).toEqual([])
  })

  it('is refused to a technician', async () => {
    const tech = await signInAs('tech@bluelagoon.test')
    const { thrown } = await settle(action(routeArgs(post(tech, customer.id, weekly()), { customerId: customer.id })))
    expect(statusOf(thrown)).toBe(403)
  })
})

describe('End plan', () => {
  it('ends the plan: untouched visits after the date go, a skipped one stays', async () => {
    const [plan] = await db().select().from(servicePlans).where(eq(servicePlans.locationId, customer.locationId))
    const planId = plan?.id ?? ''
    const visitList = await db().select().from(visits).where(eq(visits.planId, planId)).orderBy(visits.occurrenceDate)
    const last = visitList.at(-1)
    await db()
      .update(visits)
      .set({ canceledAt: new Date(), skipReason: 'Weather' })
      .where(eq(visits.id, last?.id ?? ''))
    const page = await record(dispatcher, customer.id, `?edit=end-plan:${planId}`)
    expect(page.open.edit).toBe(`end-plan:${planId}`)
    expect(await saves(dispatcher, customer.id, { intent: 'end-plan', targetId: planId, endsOn: today })).toBe(
      'Service plan ended.',
    )
    const [ended] = await db().select().from(servicePlans).where(eq(servicePlans.id, planId))
    expect(ended?.endsOn).toBe(today)
    const left = await db().select().from(visits).where(eq(visits.planId, planId))
    expect(left.every((visit) => (visit.occurrenceDate ?? '') <= today || visit.id === last?.id)).toBe(true)
    expect(left.some((visit) => visit.id === last?.id)).toBe(true)
    const after = await record(dispatcher, customer.id)
    expect(after.locations[0]?.plans[0]).toMatchObject({ current: true })
    expect(after.visitHistory.rows.find((row) => row.id === last?.id)?.status).toBe('Skipped')
  })

  it('wants a date, and is a 404 for a plan that is not there', async () => {
    const { returned } = await settle(
      action(
        routeArgs(post(dispatcher, customer.id, { intent: 'end-plan', targetId: '', endsOn: '' }), {
          customerId: customer.id,
        }),
      ),
    )
    expect(reply(returned).status).toBe(400)
    const { thrown } = await settle(
      action(
        routeArgs(
          post(dispatcher, customer.id, {
            intent: 'end-plan',
            targetId: '00000000-0000-4000-8000-000000000000',
            endsOn: today,
          }),
          { customerId: customer.id },
        ),
      ),
    )
    expect(statusOf(thrown)).toBe(404)
  })
})
