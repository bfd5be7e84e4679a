// "On my way" and the road server (docs/routing.md "No network call in a transaction"): the drive to the stop is
// measured before the visit's transaction, so a slow road server holds no lock and — on the embedded database's one
// connection — no other write of the company waits for it.
import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { companies, emailOutbox, profiles, serviceLocations, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { type LocalServer, sendJson, startLocalServer } from '../../tests/helpers/local-http-server'
import { useDemoData } from '../../tests/helpers/test-database'
import type { Actor } from './profile.server'
import { createVisit } from './visit-changes.server'
import { applyFieldChange } from './visit-work.server'

const ROAD_DELAY_MS = 2000
// The road server's answer for two points (the stop before, or the company's start, and the stop): 9.1 km, 12 min.
const TABLE = {
  code: 'Ok',
  distances: [
    [0, 9120],
    [9120, 0],
  ],
  durations: [
    [0, 720],
    [720, 0],
  ],
}

let blue: string
let tech: Actor
let server: LocalServer | undefined
let answeredAt: number | null = null

async function visitAt(customerName: string, scheduledAt: Date) {
  const customer = await findTestCustomer(customerName, blue)
  // Coordinates of its own, so the leg is measured whatever the demo's positions are.
  await db()
    .update(serviceLocations)
    .set({ lat: 26.1901, lng: -80.0965 })
    .where(and(eq(serviceLocations.companyId, blue), eq(serviceLocations.id, customer.locationId)))
  const visit = await createVisit({
    companyId: blue,
    customerId: customer.id,
    customerName: customer.customerName,
    address: customer.address,
    scheduledAt,
    technicianId: tech.id,
  })
  if (!visit) throw new Error('no visit')
  return visit.id
}

beforeAll(async () => {
  await useDemoData()
  const [company] = await db().select().from(companies).where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  // The truck leaves the shop: a start with coordinates, so the first stop of the day has a leg too.
  await db()
    .update(companies)
    .set({ startAddress: '1 Shop Way', startLat: 26.1224, startLng: -80.1373 })
    .where(eq(companies.id, blue))
  const [profile] = await db().select().from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  tech = { id: profile?.id ?? '', role: 'tech', companyId: blue }
})

afterEach(async () => {
  await server?.close()
  server = undefined
  vi.unstubAllEnvs()
})

afterAll(async () => {
  await server?.close()
})

const change = (visitId: string, body: Parameters<typeof applyFieldChange>[1]['change']) => ({
  key: crypto.randomUUID(),
  visitId,
  madeAt: new Date().toISOString(),
  change: body,
})

describe('"On my way" with a slow road server', () => {
  it('measures the drive before the visit’s transaction: another write of the company does not wait for the road', async () => {
    server = await startLocalServer((_, response) => {
      setTimeout(() => {
        answeredAt = Date.now()
        sendJson(response, 200, TABLE)
      }, ROAD_DELAY_MS)
    })
    vi.stubEnv('OSRM_URL', server.url)
    // The stop before (with coordinates) a minute earlier, so the leg has both ends.
    const otherVisit = await visitAt('Dana Whitfield', new Date(Date.now() - 60_000))
    const onMyWayVisit = await visitAt('Dana Whitfield', new Date())

    const tapped = Date.now()
    const onMyWay = applyFieldChange(tech, change(onMyWayVisit, { type: 'on-my-way' }))
    // The road server has the question and holds its answer.
    await vi.waitUntil(() => (server?.requests.length ?? 0) > 0, { timeout: 5000 })
    expect(server.requests[0]?.url.pathname).toMatch(/^\/table\/v1\/driving\//)

    const note = await applyFieldChange(
      tech,
      change(otherVisit, { type: 'note', audience: 'office', text: 'Gate code 4411' }),
    )
    const noteDoneAt = Date.now()
    expect(note).toEqual({ ok: true })
    // Written while the road server was still thinking, not after it answered.
    expect(answeredAt).toBeNull()
    expect(noteDoneAt - tapped).toBeLessThan(ROAD_DELAY_MS)

    expect(await onMyWay).toEqual({ ok: true })
    expect(answeredAt).not.toBeNull()
    const [written] = await db()
      .select({ officeNote: visits.officeNote, onMyWayAt: visits.onMyWayAt })
      .from(visits)
      .where(eq(visits.id, otherVisit))
    expect(written?.officeNote).toBe('Gate code 4411')
    // The customer's notice carries the estimate from the measured drive (12 minutes on the road).
    const notices = await db()
      .select({ kind: emailOutbox.kind, text: emailOutbox.text })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.noticeSubject, onMyWayVisit), eq(emailOutbox.noticeEvent, 'on-my-way')))
    expect(notices.length).toBeGreaterThan(0)
    const [visit] = await db().select({ onMyWayAt: visits.onMyWayAt }).from(visits).where(eq(visits.id, onMyWayVisit))
    expect(visit?.onMyWayAt).not.toBeNull()
  }, 15_000)

  it('measures nothing for a visit the transaction refuses: another technician’s', async () => {
    server = await startLocalServer((_, response) => sendJson(response, 200, TABLE))
    vi.stubEnv('OSRM_URL', server.url)
    const visitId = await visitAt('Dana Whitfield', new Date())
    const [other] = await db().select().from(profiles).where(eq(profiles.email, 'tech2@bluelagoon.test'))
    const otherTech: Actor = { id: other?.id ?? '', role: 'tech', companyId: blue }
    const refused = await applyFieldChange(otherTech, change(visitId, { type: 'on-my-way' }))
    expect(refused).toMatchObject({ ok: false, code: 'conflict' })
    expect(server.requests).toHaveLength(0)
  })
})
