import { and, eq, isNull } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, visits } from '~/db/schema'
import { completeVisit } from '~/models/visit-changes.server'
import { loader as eventsLoader } from '~/routes/resources/events'
import { pageRequest, routeArgs } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { db } from './db.server'
import { type CompanyEvent, publishCompanyEvent, subscribeToCompany } from './events.server'

let blue: string
let sunset: string

/** Resolves with the next event of `companyId`, or 'timeout' (NOTIFY is asynchronous). */
function nextEvent(companyId: string, ms = 3000) {
  return new Promise<CompanyEvent | 'timeout'>((resolve) => {
    let unsubscribe = () => {}
    const timer = setTimeout(() => {
      unsubscribe()
      resolve('timeout')
    }, ms)
    subscribeToCompany(companyId, (event) => {
      clearTimeout(timer)
      unsubscribe()
      resolve(event)
    }).then((off) => {
      unsubscribe = off
    })
  })
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select().from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
})

describe('live updates', () => {
  it("reach the visit's company, and only that company", async () => {
    const [open] = await db()
      .select({ id: visits.id })
      .from(visits)
      .where(and(eq(visits.companyId, blue), isNull(visits.completedAt)))
      .limit(1)
    // Subscribe first so the listener is in place before the change.
    await subscribeToCompany(blue, () => {})
    const forBlue = nextEvent(blue)
    const forSunset = nextEvent(sunset, 1500)
    await new Promise((r) => setTimeout(r, 50))
    await completeVisit({ companyId: blue, visitId: open?.id ?? '' })
    expect(await forBlue).toEqual({ companyId: blue, type: 'visit.completed', visitId: open?.id })
    expect(await forSunset).toBe('timeout')
  })

  it('stream to a signed-in member as Server-Sent Events', async () => {
    const cookie = await signInAs('dispatch@bluelagoon.test')
    const controller = new AbortController()
    const request = new Request(pageRequest('/app/events', cookie), { signal: controller.signal })
    const response = (await eventsLoader(routeArgs(request))) as Response
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reader = response.body?.getReader()
    if (!reader) throw new Error('no body')
    const decoder = new TextDecoder()
    let text = decoder.decode((await reader.read()).value)
    expect(text).toContain(': connected')
    await publishCompanyEvent({ companyId: blue, type: 'reading.saved', visitId: 'j1' })
    await publishCompanyEvent({ companyId: sunset, type: 'reading.saved', visitId: 'other' })
    text = decoder.decode((await reader.read()).value)
    expect(text).toBe('event: change\ndata: {"type":"reading.saved","visitId":"j1"}\n\n')
    controller.abort()
  })

  it('are refused to anonymous visitors and customers', async () => {
    await expect(eventsLoader(routeArgs(pageRequest('/app/events')))).rejects.toMatchObject({
      status: 302,
    })
    const customer = await signInAs('customer@bluelagoon.test')
    await expect(eventsLoader(routeArgs(pageRequest('/app/events', customer)))).rejects.toMatchObject({
      init: { status: 403 },
    })
  })
})
