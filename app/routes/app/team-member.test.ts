// Team → technician (/app/team/:memberId): who may open it (owners and admins of the technician's company; another
// company's member or an office member is a 404, a technician or dispatcher the 403 card), what it saves (cents from
// dollars, hours, pay fields of the chosen type only), and how its addresses are placed (ZIP center offline, marked
// approximate; the geocoder's answer when one is configured; an address nothing can place is refused at its field).
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles } from '~/db/schema'
import { placeAddress, updateTechnicianProfile, zipInAddress } from '~/models/technician-profile.server'
import { db } from '~/utils/db.server'
import { failure, success } from '~/utils/result'
import { formRequest, pageRequest, routeArgs, SAME_ORIGIN, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action, loader } from './team-member'

const post = (cookie: string, memberId: string, fields: Record<string, string>) =>
  formRequest(`/app/team/${memberId}`, { intent: 'save-technician', ...fields }, cookie, SAME_ORIGIN)

type Reply = { ok: boolean; message: string; result?: { error?: Record<string, string[] | null> } }
async function reply(promise: unknown) {
  const { returned, thrown } = await settle(promise as Promise<unknown>)
  const value = (returned ?? thrown) as { data?: Reply; init?: { status?: number } | null; status?: number }
  return { status: value.init?.status ?? value.status ?? 200, body: value.data as Reply }
}

async function profileByEmail(email: string) {
  const [row] = await db().select().from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row
}

let owner: string
let admin: string
let tyler: string
let companyId: string

beforeAll(async () => {
  await useDemoData()
  ;[owner, admin] = await Promise.all([signInAs('owner@bluelagoon.test'), signInAs('office@bluelagoon.test')])
  const profile = await profileByEmail('tech@bluelagoon.test')
  tyler = profile.id
  companyId = profile.companyId as string
})

describe('who may open Team → technician', () => {
  it('shows an owner and an admin the technician, with the company address as the blank start', async () => {
    for (const cookie of [owner, admin]) {
      const page = await loader(routeArgs(pageRequest(`/app/team/${tyler}`, cookie), { memberId: tyler }))
      expect(page).toMatchObject({ name: 'Tyler Brooks', email: 'tech@bluelagoon.test' })
      expect(page.companyAddress).toMatch(/Tampa, FL/)
    }
  })

  it("answers 404 for another company's technician and for an office member, before anything is saved", async () => {
    const sunsetTech = (await profileByEmail('tech@sunsetpools.test')).id
    const dispatcher = (await profileByEmail('dispatch@bluelagoon.test')).id
    for (const id of [sunsetTech, dispatcher, 'nobody']) {
      expect((await reply(loader(routeArgs(pageRequest(`/app/team/${id}`, owner), { memberId: id })))).status).toBe(404)
      expect((await reply(action(routeArgs(post(owner, id, { hourlyCost: '1' }), { memberId: id })))).status).toBe(404)
    }
    expect((await profileByEmail('tech@sunsetpools.test')).hourlyCostCents).toBe(2800)
    // And the other way round: Sunset's owner cannot open Tyler.
    const sunsetOwner = await signInAs('owner@sunsetpools.test')
    expect(
      (await reply(loader(routeArgs(pageRequest(`/app/team/${tyler}`, sunsetOwner), { memberId: tyler })))).status,
    ).toBe(404)
  })

  it('turns a technician and a dispatcher away with the 403 card', async () => {
    for (const email of ['tech@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      const cookie = await signInAs(email)
      expect(
        (await reply(loader(routeArgs(pageRequest(`/app/team/${tyler}`, cookie), { memberId: tyler })))).status,
      ).toBe(403)
      expect(
        (await reply(action(routeArgs(post(cookie, tyler, { hourlyCost: '1' }), { memberId: tyler })))).status,
      ).toBe(403)
    }
  })
})

describe('saving a technician', () => {
  it('saves cents from dollars, hours, and the chosen pay type only; the start address at its ZIP center', async () => {
    const saved = await reply(
      action(
        routeArgs(
          post(owner, tyler, {
            startAddress: '100 N Osceola Ave, Clearwater, FL 33755',
            endAddress: '',
            workStarts: '07:30',
            workEnds: '16:00',
            hourlyCost: '$27.35',
            payType: 'per-stop',
            hourlyRate: '22',
            perStopRate: '18.5',
            skippedVisitExtra: '5',
          }),
          { memberId: tyler },
        ),
      ),
    )
    expect(saved).toMatchObject({ status: 200, body: { ok: true } })
    const stored = await profileByEmail('tech@bluelagoon.test')
    expect(stored).toMatchObject({
      startAddress: '100 N Osceola Ave, Clearwater, FL 33755',
      startApproximate: true,
      endAddress: null,
      endLat: null,
      workStarts: '07:30:00',
      workEnds: '16:00:00',
      hourlyCostCents: 2735,
      payType: 'per-stop',
      // An hourly rate does not belong to a per-stop technician.
      hourlyRateCents: null,
      perStopRateCents: 1850,
      skippedVisitExtraCents: 500,
    })
    expect(stored.startLat).toBeCloseTo(27.97, 1)
    expect(stored.startLng).toBeCloseTo(-82.8, 1)
    const page = await loader(routeArgs(pageRequest(`/app/team/${tyler}`, owner), { memberId: tyler }))
    expect(page.values).toMatchObject({ hourlyCost: '27.35', perStopRate: '18.50', workStarts: '07:30' })
    expect(page.start).toEqual({
      address: '100 N Osceola Ave, Clearwater, FL 33755',
      approximate: true,
      placed: true,
    })
  })

  it('refuses bad input at its field and saves nothing', async () => {
    const before = await profileByEmail('tech@bluelagoon.test')
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ hourlyCost: '-5' }, 'hourlyCost', /Enter an amount in dollars/],
      [{ hourlyCost: '12.345' }, 'hourlyCost', /Enter an amount in dollars/],
      [{ workStarts: '17:00', workEnds: '08:00' }, 'workEnds', /after “Starts”/],
      [{ workStarts: '25:00' }, 'workStarts', /Enter a time/],
      [{ payType: 'hourly' }, 'hourlyRate', /Enter the hourly rate/],
      [{ payType: 'per-stop' }, 'perStopRate', /Enter the rate per completed visit/],
      [{ startAddress: 'Somewhere without a ZIP' }, 'startAddress', /could not be placed on the map/],
    ]
    for (const [fields, field, message] of cases) {
      const refused = await reply(action(routeArgs(post(owner, tyler, fields), { memberId: tyler })))
      expect(refused.status, field).toBe(400)
      expect(refused.body.result?.error?.[field]?.[0], field).toMatch(message)
    }
    expect(await profileByEmail('tech@bluelagoon.test')).toEqual(before)
  })

  it('keeps money at zero and up in the database itself', async () => {
    await expect(db().update(profiles).set({ hourlyCostCents: -1 }).where(eq(profiles.id, tyler))).rejects.toThrow()
    await expect(db().update(profiles).set({ perStopRateCents: -1 }).where(eq(profiles.id, tyler))).rejects.toThrow()
  })
})

describe('placing a technician address', () => {
  it('uses the geocoder when one is configured, its ZIP center when the geocoder cannot find it', async () => {
    const found = async () => success({ place: { lat: 27.9512345678, lng: -82.4598765432, label: 'Found' } })
    expect(await placeAddress('1 Exact St, Tampa, FL 33602', found)).toEqual({
      lat: 27.951235,
      lng: -82.459877,
      approximate: false,
    })
    const missing = async () => failure('not-found', 'No match')
    expect(await placeAddress('1 Lost St, Tampa, FL 33602', missing)).toMatchObject({ approximate: true })
    expect(await placeAddress('1 Lost St', missing)).toBeNull()
    expect(await placeAddress(null, missing)).toEqual({ lat: null, lng: null, approximate: false })
    expect(zipInAddress('PO Box 12345, Tampa, FL 33602-1234')).toBe('33602')
  })

  it('saves the geocoded position, and leaves an unchanged address where it was', async () => {
    let asked = 0
    const geocode = async () => {
      asked += 1
      return success({ place: { lat: 28.01, lng: -82.5, label: 'Yard' } })
    }
    const update = {
      startAddress: '5 Yard Rd, Tampa, FL 33614',
      endAddress: null,
      workStarts: null,
      workEnds: null,
      hourlyCostCents: 2650,
      hourlyRateCents: null,
      perStopRateCents: null,
      skippedVisitExtraCents: null,
    }
    expect(await updateTechnicianProfile(companyId, tyler, update, geocode)).toEqual({ ok: true })
    expect(await updateTechnicianProfile(companyId, tyler, update, geocode)).toEqual({ ok: true })
    expect(asked).toBe(1)
    expect(await profileByEmail('tech@bluelagoon.test')).toMatchObject({
      startLat: 28.01,
      startLng: -82.5,
      startApproximate: false,
      payType: null,
      perStopRateCents: null,
    })
  })
})
