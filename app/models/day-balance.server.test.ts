// "Balance the day" and "Cover this day" (docs/routing.md "Balancing", decision 045) on a day of this file's own:
// the preview never lengthens the total, Apply gives each visit its new technician and place once per preview, Undo
// restores the exact assignment and order, a day changed since the preview is refused, finished visits never move.
import { and, eq, inArray } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, profiles, visits } from '~/db/schema'
import { addDays, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { useDemoData } from '../../tests/helpers/test-database'
import { visitAt } from '../../tests/helpers/visits'
import { ALREADY_APPLIED, applyBalance, DAY_CHANGED, undoBalance } from './day-balance.server'
import { previewBalance } from './day-balance-preview.server'
import { listDayStops } from './day-stops.server'

const ZONE = 'America/New_York'
let blue: string
let sunset: string
let tyler: string
let maya: string
let owner: string
let date: string

/** North of Tampa and south-west of it: two clusters a technician each would drive far less. */
const NORTH: [number, number][] = [
  [28.06, -82.45],
  [28.07, -82.44],
  [28.05, -82.46],
]
const SOUTH: [number, number][] = [
  [27.84, -82.7],
  [27.83, -82.71],
  [27.85, -82.69],
]

/** A visit of Blue Lagoon's on this test's day. */
const visitOn = (name: string, position: [number, number] | undefined, technicianId: string, hour: number) =>
  visitAt({ companyId: blue, name, position: position as [number, number], technicianId, date, hour, zone: ZONE })

/** Each technician's open visits in route order, and their stored positions. */
async function snapshot() {
  const result: Record<string, string[]> = {}
  for (const technicianId of [tyler, maya]) {
    const stops = await listDayStops({ companyId: blue, timezone: ZONE, technicianId, date })
    result[technicianId] = stops.filter((stop) => stop.state === 'open').map((stop) => stop.id)
  }
  const ids = Object.values(result).flat()
  const rows = await db()
    .select({ id: visits.id, position: visits.routePosition, movedAt: visits.movedAt })
    .from(visits)
    .where(inArray(visits.id, ids))
  const stored = Object.fromEntries(rows.map((row) => [row.id, [row.position, row.movedAt?.toISOString() ?? null]]))
  return { result, stored }
}

const preview = async (kind: 'balance' | 'cover' = 'balance', coveredTechnicianId?: string) => {
  const answer = await previewBalance({ companyId: blue, timezone: ZONE, date, kind, coveredTechnicianId })
  if (!answer.ok) throw new Error(answer.message)
  return answer.preview
}

const apply = (shown: Awaited<ReturnType<typeof preview>>, companyId = blue) =>
  applyBalance({ companyId, timezone: ZONE, userId: owner, ...shown })

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((row) => row.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((row) => row.name === 'Sunset Pool Care')?.id ?? ''
  const people = await db()
    .select({ id: profiles.id, email: profiles.email })
    .from(profiles)
    .where(eq(profiles.companyId, blue))
  const byEmail = (email: string) => people.find((person) => person.email === email)?.id ?? ''
  tyler = byEmail('tech@bluelagoon.test')
  maya = byEmail('tech2@bluelagoon.test')
  owner = byEmail('owner@bluelagoon.test')
  // A day of this file's own, far past the demo's generated visits.
  date = addDays(localDateAt(new Date(), ZONE), 400)
  // Crosswise: each technician drives to both clusters.
  await visitOn('North One', NORTH[0], tyler, 8)
  await visitOn('South One', SOUTH[0], tyler, 9)
  await visitOn('North Two', NORTH[1], tyler, 10)
  await visitOn('South Two', SOUTH[1], maya, 8)
  await visitOn('North Three', NORTH[2], maya, 9)
  await visitOn('South Three', SOUTH[2], maya, 10)
})

describe('Balance the day', () => {
  it('previews moves that shorten the total, applies once, and Undo restores the exact assignment and order', async () => {
    const before = await snapshot()
    const shown = await preview()
    expect(shown.technicians.map((technician) => technician.id).sort()).toEqual([tyler, maya].sort())
    expect(shown.afterMeters).toBeLessThan(shown.beforeMeters)
    expect(shown.moves.length).toBeGreaterThan(0)
    // Every open visit once, in someone's route.
    expect(shown.after.flatMap(([, ids]) => ids).sort()).toEqual(Object.values(before.result).flat().sort())

    const applied = await apply(shown)
    expect(applied.ok).toBe(true)
    const after = await snapshot()
    expect(after.result[tyler]).toEqual(shown.after.find(([id]) => id === tyler)?.[1])
    expect(after.result[maya]).toEqual(shown.after.find(([id]) => id === maya)?.[1])
    const again = await apply(shown)
    expect(again).toMatchObject({ ok: false, message: ALREADY_APPLIED })
    expect(await snapshot()).toEqual(after)
    // A preview of the balanced day has nothing left to gain.
    expect((await preview()).afterMeters).toBeCloseTo((await preview()).beforeMeters)

    // Another company cannot undo it.
    expect(await undoBalance({ companyId: sunset, userId: owner, balanceId: shown.balanceId })).toMatchObject({
      ok: false,
      code: 'not-found',
    })
    const undone = await undoBalance({ companyId: blue, userId: owner, balanceId: shown.balanceId })
    expect(undone.ok).toBe(true)
    expect(await snapshot()).toEqual(before)
    expect(await undoBalance({ companyId: blue, userId: owner, balanceId: shown.balanceId })).toMatchObject({
      ok: false,
      message: 'Already undone.',
    })
  })

  it('refuses a preview when a visit moved since, and never moves a finished visit', async () => {
    const shown = await preview()
    const [first] = shown.before.find(([id]) => id === tyler)?.[1] ?? []
    if (!first) throw new Error('no visit')
    await db().update(visits).set({ technicianId: maya }).where(eq(visits.id, first))
    expect(await apply(shown)).toMatchObject({ ok: false, message: DAY_CHANGED })
    await db().update(visits).set({ technicianId: tyler }).where(eq(visits.id, first))

    await db().update(visits).set({ completedAt: new Date() }).where(eq(visits.id, first))
    const next = await preview()
    expect(next.after.flatMap(([, ids]) => ids)).not.toContain(first)
    expect((await apply(next)).ok).toBe(true)
    const [done] = await db()
      .select({ technicianId: visits.technicianId })
      .from(visits)
      .where(and(eq(visits.companyId, blue), eq(visits.id, first)))
    expect(done?.technicianId).toBe(tyler)
    expect((await undoBalance({ companyId: blue, userId: owner, balanceId: next.balanceId })).ok).toBe(true)
    await db().update(visits).set({ completedAt: null }).where(eq(visits.id, first))
  })
})

describe('Cover this day', () => {
  it("spreads every one of Tyler's open stops over the others, and Undo puts them back", async () => {
    const before = await snapshot()
    const shown = await preview('cover', tyler)
    expect(shown.after.find(([id]) => id === tyler)?.[1]).toEqual([])
    expect(shown.unplaced).toEqual([])
    expect(shown.moves.every((move) => move.from === 'Tyler Brooks')).toBe(true)
    expect(shown.moves.length).toBe(before.result[tyler]?.length)
    expect((await apply(shown)).ok).toBe(true)
    expect((await snapshot()).result[tyler]).toEqual([])
    expect((await undoBalance({ companyId: blue, userId: owner, balanceId: shown.balanceId })).ok).toBe(true)
    expect(await snapshot()).toEqual(before)
  })
})
