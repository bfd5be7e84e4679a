// "Edit plan", "Pause plan" and "Resume now" (issue 38 item 3, docs/decisions/048-…): future untouched visits follow,
// completed ones never change, a change that removes visits is only counted until confirmed, running a change twice
// (or two at once) leaves one visit per date, and a new rate goes through the plan's rate history.
import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, planRateChanges, profiles, servicePlans, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { editServicePlan, pauseServicePlan, resumeServicePlan } from './plan-edits.server'
import { rateInForceSql } from './plan-rate.server'
import { createServicePlan } from './service-plan.server'
import { completeVisit } from './visit-changes.server'

let blue: string
let sunset: string
let tyler: string
let maya: string
// A Tuesday; the plans are weekly on Monday from 2026-10-01, so 8 visits from 2026-10-26 to 2026-12-14.
const NOW = new Date('2026-10-20T14:00:00Z')

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  const techs = await db().select({ id: profiles.id, email: profiles.email }).from(profiles)
  tyler = techs.find((t) => t.email === 'tech@bluelagoon.test')?.id ?? ''
  maya = techs.find((t) => t.email === 'tech2@bluelagoon.test')?.id ?? ''
})

let counter = 0
async function newPlan() {
  counter += 1
  const { locationId } = await addTestCustomer(blue, {
    customerName: `Plan Edit ${counter}`,
    address: `${counter} Edit St, Tampa, FL 33606`,
  })
  const created = await createServicePlan(
    { companyId: blue, locationId, now: NOW },
    { frequencyWeeks: '1', weekday: '1', technicianId: tyler, startsOn: '2026-10-01', rate: '85' },
  )
  if (!created.ok) throw new Error(created.message)
  return { locationId, planId: created.planId }
}

async function visitsAt(locationId: string) {
  const plans = await db()
    .select({ id: servicePlans.id })
    .from(servicePlans)
    .where(eq(servicePlans.locationId, locationId))
  return db()
    .select({
      id: visits.id,
      occurrenceDate: visits.occurrenceDate,
      technicianId: visits.technicianId,
      completedAt: visits.completedAt,
      canceledAt: visits.canceledAt,
    })
    .from(visits)
    .where(
      and(
        eq(visits.companyId, blue),
        inArray(
          visits.planId,
          plans.map((plan) => plan.id),
        ),
      ),
    )
    .orderBy(visits.occurrenceDate)
}

const edit = (fields: Record<string, string>) => ({
  frequencyWeeks: '1',
  weekday: '1',
  technicianId: tyler,
  serviceWindow: 'flexible' as const,
  rate: '85',
  from: '2026-11-09',
  ...fields,
})

describe('Edit plan', () => {
  it('moves future untouched visits to the new day and technician, keeps the completed one, asks before removing', async () => {
    const { locationId, planId } = await newPlan()
    const before = await visitsAt(locationId)
    const done = before.find((visit) => visit.occurrenceDate === '2026-11-16')
    if (!done) throw new Error('no visit')
    await completeVisit({ companyId: blue, visitId: done.id, now: NOW })
    const input = edit({ weekday: '3', technicianId: maya, frequencyWeeks: '2' })
    // Unconfirmed: counted, nothing written.
    const asked = await editServicePlan({ companyId: blue, planId, input, now: NOW })
    expect(asked).toMatchObject({ ok: true, applied: false })
    expect(asked.ok && asked.removed).toBeGreaterThan(0)
    expect(await visitsAt(locationId)).toEqual(before.map((v) => (v.id === done.id ? expect.anything() : v)))
    const saved = await editServicePlan({ companyId: blue, planId, input: { ...input, confirmed: 'yes' }, now: NOW })
    expect(saved).toMatchObject({ ok: true, applied: true })
    const after = await visitsAt(locationId)
    const completed = after.find((visit) => visit.id === done.id)
    expect(completed).toMatchObject({ occurrenceDate: '2026-11-16', technicianId: tyler })
    expect(completed?.completedAt).not.toBeNull()
    const open = after.filter((visit) => !visit.completedAt && !visit.canceledAt)
    for (const visit of open) {
      const date = visit.occurrenceDate ?? ''
      if (date < '2026-11-09') expect(visit.technicianId).toBe(tyler)
      else {
        expect(visit.technicianId).toBe(maya)
        expect(new Date(`${date}T12:00:00Z`).getUTCDay()).toBe(3)
      }
    }
    expect(new Set(after.map((v) => v.occurrenceDate)).size).toBe(after.length)
    // The same edit again changes nothing: the old plan ended, so it is refused, and no visit is added.
    await editServicePlan({ companyId: blue, planId, input: { ...input, confirmed: 'yes' }, now: NOW })
    expect(await visitsAt(locationId)).toEqual(after)
  })

  it('puts a new rate in the rate history from the date: the month before bills the old rate', async () => {
    const { locationId, planId } = await newPlan()
    const before = await visitsAt(locationId)
    const saved = await editServicePlan({
      companyId: blue,
      planId,
      input: edit({ rate: '95', from: '2026-11-01' }),
      now: NOW,
    })
    expect(saved).toMatchObject({ ok: true, applied: true, removed: 0, added: 0 })
    // Only the rate changed: the same visits, the same plan.
    expect(await visitsAt(locationId)).toEqual(before)
    const [plan] = await db()
      .select({
        rate: servicePlans.rateCents,
        october: rateInForceSql(servicePlans, '2026-10-01'),
        november: rateInForceSql(servicePlans, '2026-11-01'),
      })
      .from(servicePlans)
      // Joined so drizzle writes the plan's columns with their table: in a one-table select it leaves them bare, and
      // inside rateInForceSql's subquery "id" would name the rate change's own id (no change ever matched).
      .innerJoin(companies, eq(companies.id, servicePlans.companyId))
      .where(eq(servicePlans.id, planId))
    expect(plan).toEqual({ rate: 9500, october: 8500, november: 9500 })
    const history = await db().select().from(planRateChanges).where(eq(planRateChanges.planId, planId))
    expect(history).toMatchObject([{ effectiveOn: '2026-11-01', fromRateCents: 8500, toRateCents: 9500 }])
  })

  it('refuses another company’s plan as not found', async () => {
    const { planId } = await newPlan()
    expect(
      await editServicePlan({ companyId: sunset, planId, input: edit({ weekday: '2', technicianId: '' }), now: NOW }),
    ).toMatchObject({
      ok: false,
      code: 'not-found',
    })
  })
})

describe('Pause plan and Resume now', () => {
  it('removes the open visits in between (after asking), resumes on its date, and twice at once is once', async () => {
    const { locationId, planId } = await newPlan()
    const input = { from: '2026-11-02', resumeOn: '2026-11-30' }
    const asked = await pauseServicePlan({ companyId: blue, planId, input, now: NOW })
    expect(asked).toMatchObject({ ok: true, applied: false, removed: 4 })
    const both = await Promise.all([
      pauseServicePlan({ companyId: blue, planId, input: { ...input, confirmed: 'yes' }, now: NOW }),
      pauseServicePlan({ companyId: blue, planId, input: { ...input, confirmed: 'yes' }, now: NOW }),
    ])
    expect(both.filter((result) => result.ok && result.applied)).toHaveLength(1)
    const dates = (await visitsAt(locationId)).map((visit) => visit.occurrenceDate)
    expect(dates).toEqual(['2026-10-26', '2026-11-30', '2026-12-07', '2026-12-14'])
    const plans = await db().select().from(servicePlans).where(eq(servicePlans.locationId, locationId))
    const paused = plans.find((plan) => plan.pausedFrom !== null)
    expect(paused).toMatchObject({ pausedFrom: '2026-11-02', startsOn: '2026-11-30' })

    const resumed = await resumeServicePlan({ companyId: blue, planId: paused?.id ?? '', now: NOW })
    expect(resumed).toMatchObject({ ok: true, added: 4 })
    const again = await resumeServicePlan({ companyId: blue, planId: paused?.id ?? '', now: NOW })
    expect(again).toMatchObject({ ok: false, code: 'conflict' })
    const all = (await visitsAt(locationId)).map((visit) => visit.occurrenceDate)
    expect(all).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
      '2026-12-07',
      '2026-12-14',
    ])
  })
})
