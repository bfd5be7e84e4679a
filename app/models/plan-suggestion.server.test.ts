// "Suggest a day and technician" (docs/routing.md "Suggesting a day", decision 053) on days of this file's own, far
// past the demo's generated visits: the technician whose route already passes the new pool comes first at +0 min
// with that day's stop count; the plan's frequency decides which later days count; a location without a position
// says so; and through the page's loader, the office asks, a technician cannot, and another company's location (or
// another customer's) is a 404.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, serviceLocations } from '~/db/schema'
import { loader } from '~/routes/app/plan-suggest'
import { addDays, instantAt, isoWeekday, type LocalDate, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { pageRequest, settle } from '../../tests/helpers/requests'
import { signInAs } from '../../tests/helpers/session'
import { useDemoData } from '../../tests/helpers/test-database'
import { createCustomerWithLocation } from './customer-changes.server'
import { suggestPlanDays } from './plan-suggestion.server'
import { createVisit } from './visit-changes.server'

const ZONE = 'America/New_York'
let blue: string
let tyler: string
let maya: string
let date: LocalDate
/** A new pool on Tyler's way (between his first two stops), and another customer's location. */
let pool: { customerId: string; locationId: string }
let unplaced: { customerId: string; locationId: string }

/** Tyler drives east along latitude 28.05; Maya works far south. */
const TYLER = [
  [28.05, -82.5],
  [28.05, -82.4],
  [28.05, -82.3],
]
const MAYA = [
  [27.3, -82.5],
  [27.31, -82.51],
]

async function locationAt(name: string, at: number[] | null) {
  const added = await createCustomerWithLocation(blue, {
    customerName: `${name} ${crypto.randomUUID().slice(0, 6)}`,
    location: { street: `1 ${name} St`, postalCode: '33606', dogOnSite: false },
  })
  if (!added.ok) throw new Error(added.message)
  await db()
    .update(serviceLocations)
    .set(at ? { lat: at[0], lng: at[1], positionSource: 'manual' } : { lat: null, lng: null, positionSource: null })
    .where(eq(serviceLocations.id, added.locationId))
  return { customerId: added.customerId, locationId: added.locationId }
}

async function visitAt(name: string, at: number[], technicianId: string, day: LocalDate, hour: number) {
  const place = await locationAt(name, at)
  const visit = await createVisit({
    companyId: blue,
    ...place,
    scheduledAt: instantAt(day, `${String(hour).padStart(2, '0')}:00`, ZONE),
    technicianId,
  })
  if (!visit) throw new Error('no visit')
}

const suggest = async (frequencyWeeks: 1 | 2, locationId = pool.locationId, customerId = pool.customerId) => {
  const answer = await suggestPlanDays({
    companyId: blue,
    timezone: ZONE,
    customerId,
    locationId,
    frequencyWeeks,
    startsOn: date,
  })
  if (!answer.ok) throw new Error(answer.message)
  return answer.result
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((row) => row.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  const people = await db().select({ id: profiles.id, email: profiles.email }).from(profiles)
  tyler = people.find((person) => person.email === 'tech@bluelagoon.test')?.id ?? ''
  maya = people.find((person) => person.email === 'tech2@bluelagoon.test')?.id ?? ''
  // A day of this file's own, far past the demo's visits; Tyler's route on it and two weeks later (not one week).
  date = addDays(localDateAt(new Date(), ZONE), 500)
  for (const day of [date, addDays(date, 14)]) {
    for (const [index, at] of TYLER.entries()) await visitAt('Tyler Stop', at, tyler, day, 8 + index)
    for (const [index, at] of MAYA.entries()) await visitAt('Maya Stop', at, maya, day, 8 + index)
  }
  pool = await locationAt('New Pool', [28.05, -82.45])
  unplaced = await locationAt('No Position', null)
})

describe('Suggest a day and technician', () => {
  it("puts the technician whose route passes the pool first, at +0 min, with that day's stop count", async () => {
    const result = await suggest(2)
    expect(result.state).toBe('ready')
    expect(result.suggestions.length).toBeGreaterThan(0)
    expect(result.suggestions.length).toBeLessThanOrEqual(5)
    expect(result.suggestions[0]).toMatchObject({
      weekday: isoWeekday(date),
      technicianId: tyler,
      extraMinutes: 0,
      stops: 3,
      nextDate: date,
    })
    const minutes = result.suggestions.map((row) => row.extraMinutes)
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b))
    // Maya's same day (far south) costs more than Tyler's.
    const mayaThatDay = result.suggestions.find((row) => row.technicianId === maya && row.weekday === isoWeekday(date))
    if (mayaThatDay) expect(mayaThatDay.extraMinutes).toBeGreaterThan(0)
  })

  it("looks at the plan's own next occurrences: weekly counts the empty week between", async () => {
    const weekly = await suggest(1)
    const tylerWeekly = weekly.suggestions.find((row) => row.technicianId === tyler && row.weekday === isoWeekday(date))
    // Weekly: the next two weeks' routes, one of them empty, so the pool is no longer free on that day.
    expect(tylerWeekly?.extraMinutes ?? Number.POSITIVE_INFINITY).toBeGreaterThan(0)
  })

  it('says a location without a map position has none', async () => {
    const result = await suggest(1, unplaced.locationId, unplaced.customerId)
    expect(result).toMatchObject({ state: 'no-position', suggestions: [] })
  })

  it("is not found for another customer's location", async () => {
    const answer = await suggestPlanDays({
      companyId: blue,
      timezone: ZONE,
      customerId: unplaced.customerId,
      locationId: pool.locationId,
      frequencyWeeks: 1,
    })
    expect(answer.ok).toBe(false)
  })
})

describe('the suggestion page', () => {
  const call = async (email: string, path: string) => {
    const cookie = await signInAs(email)
    const request = pageRequest(path, cookie)
    const customerId = path.split('/')[3] as string
    const locationId = path.split('/')[5] as string
    return settle(
      loader({
        request,
        params: { customerId, locationId },
        context: {} as never,
        unstable_pattern: '',
      } as unknown as Parameters<typeof loader>[0]),
    )
  }
  const path = () =>
    `/app/customers/${pool.customerId}/locations/${pool.locationId}/suggest?frequencyWeeks=2&startsOn=${date}`
  const statusOf = (value: unknown) => (value as { init?: { status?: number } } | undefined)?.init?.status ?? 200

  it('answers the office with the ranked pairs', async () => {
    const { returned } = await call('dispatch@bluelagoon.test', path())
    expect(statusOf(returned)).toBe(200)
    const body = (
      returned as { data: { answer: { ok: boolean; result?: { suggestions: { technicianId: string }[] } } } }
    ).data
    expect(body.answer.result?.suggestions[0]?.technicianId).toBe(tyler)
  })

  it("is a 404 for another company's owner and another customer's address", async () => {
    const other = await call('owner@sunsetpools.test', path())
    expect(statusOf(other.returned)).toBe(404)
    expect(JSON.stringify(other.returned)).not.toContain(tyler)
    const mixed = await call(
      'owner@bluelagoon.test',
      `/app/customers/${unplaced.customerId}/locations/${pool.locationId}/suggest`,
    )
    expect(statusOf(mixed.returned)).toBe(404)
  })

  it('refuses a technician', async () => {
    const { thrown } = await call('tech@bluelagoon.test', path())
    expect(statusOf(thrown)).toBe(403)
  })
})
