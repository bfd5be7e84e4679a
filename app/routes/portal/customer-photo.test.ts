import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, visitPhotos, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { pageRequest, routeArgs, settle } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { loader as portalLoader } from './customer'
import { loader } from './customer-photo'

type Params = { customerId: string; visitId: string; photoId: string }
type Visit = { visitId: string; photoIds: string[] }

let danaId: string
let marcoId: string
let danaVisit: Visit
let danaOpenVisit: string
let marcoVisit: Visit
let neighborVisit: Visit
const cookies: Record<string, string> = {}

async function cookieOf(email: string) {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

/** Requests `/customer/{customerId}/photos/{visitId}/{photoId}{query}` as `email` (or anonymously). */
async function fetchPhoto(email: string | null, params: Params, query = '') {
  const cookie = email ? await cookieOf(email) : undefined
  const path = `/customer/${params.customerId}/photos/${params.visitId}/${params.photoId}${query}`
  return settle(loader(routeArgs(pageRequest(path, cookie), params)))
}

async function expectNotFound(email: string | null, params: Params) {
  const { thrown, returned } = await fetchPhoto(email, params)
  expect(returned, `${email} ${JSON.stringify(params)}`).toBeUndefined()
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as Response).status).toBe(404)
}

/** A visit of `customerId`'s (or, with `other`, of another customer of Blue Lagoon) with its photos. */
async function photographedVisit(customerId: string, other = false) {
  const [visit] = await db()
    .select({ id: visits.id })
    .from(visits)
    .innerJoin(companies, eq(companies.id, visits.companyId))
    .where(
      and(
        other ? ne(visits.customerId, customerId) : eq(visits.customerId, customerId),
        other ? eq(companies.name, 'Blue Lagoon Pool Co.') : undefined,
        sql`exists (select 1 from "visit_photos" where "visit_photos"."visit_id" = "visits"."id")`,
      ),
    )
    .limit(1)
  if (!visit) throw new Error('no photographed visit')
  const photos = await db()
    .select({ id: visitPhotos.id })
    .from(visitPhotos)
    .where(eq(visitPhotos.visitId, visit.id))
    .orderBy(asc(visitPhotos.createdAt))
  return { visitId: visit.id, photoIds: photos.map((photo) => photo.id) }
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: customers.id, name: customers.customerName }).from(customers)
  danaId = rows.find((r) => r.name === 'Dana Whitfield')?.id ?? ''
  marcoId = rows.find((r) => r.name === 'Marco Ruiz')?.id ?? ''
  danaVisit = await photographedVisit(danaId)
  marcoVisit = await photographedVisit(marcoId)
  neighborVisit = await photographedVisit(danaId, true)
  const [open] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.customerId, danaId), isNull(visits.completedAt)))
    .limit(1)
  danaOpenVisit = open?.id ?? ''
})

const danaPhoto = (index = 0): Params => ({
  customerId: danaId,
  visitId: danaVisit.visitId,
  photoId: danaVisit.photoIds[index] ?? '',
})

describe('GET /customer/:customerId/photos/:visitId/:photoId', () => {
  it('serves Dana the photos her portal links to, privately cached and never sniffed', async () => {
    const cookie = await cookieOf('customer@bluelagoon.test')
    const page = await portalLoader({
      request: pageRequest(`/customer/${danaId}`, cookie),
      params: { customerId: danaId },
      context: {},
    } as never)
    const photo = page.gallery[0]
    if (!photo) throw new Error('the gallery is empty')
    const [, visitId, photoId] = /\/photos\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/.exec(photo.full) ?? []
    expect(photo.thumb).toBe(`${photo.full}?size=thumb`)
    const params = { customerId: danaId, visitId: visitId ?? '', photoId: photoId ?? '' }
    const full = (await fetchPhoto('customer@bluelagoon.test', params)).returned as Response
    const thumb = (await fetchPhoto('customer@bluelagoon.test', params, '?size=thumb')).returned as Response
    for (const response of [full, thumb]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/jpeg')
      expect(response.headers.get('Cache-Control')).toBe('private, max-age=3600')
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    }
    const fullMeta = await sharp(Buffer.from(await full.arrayBuffer())).metadata()
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()
    expect(fullMeta.format).toBe('jpeg')
    expect(thumbMeta.width ?? 0).toBeLessThanOrEqual(400)
    expect(fullMeta.width ?? 0).toBeGreaterThan(thumbMeta.width ?? 0)
  })

  it('serves every photo of a visit to Dana and to a dispatcher previewing her portal', async () => {
    expect(danaVisit.photoIds).toHaveLength(2)
    for (const email of ['customer@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      for (const index of [0, 1]) {
        const { returned } = await fetchPhoto(email, danaPhoto(index))
        expect((returned as Response).status).toBe(200)
      }
    }
  })

  it("answers 404 to the other company's customer and owner", async () => {
    for (const email of ['customer@sunsetpools.test', 'owner@sunsetpools.test']) {
      await expectNotFound(email, danaPhoto())
      // Their own company's id for the customer changes nothing.
      await expectNotFound(email, { ...danaPhoto(1), customerId: marcoId })
    }
  })

  it("answers 404 to Dana for Marco's portal, and for her id paired with another customer's visit", async () => {
    const marcoPhoto = marcoVisit.photoIds[0] ?? ''
    const neighborPhoto = neighborVisit.photoIds[0] ?? ''
    const cases: Params[] = [
      { customerId: marcoId, visitId: marcoVisit.visitId, photoId: marcoPhoto },
      { customerId: danaId, visitId: marcoVisit.visitId, photoId: marcoPhoto },
      { customerId: danaId, visitId: neighborVisit.visitId, photoId: neighborPhoto },
      // Her own visit, with another customer's photo id.
      { customerId: danaId, visitId: danaVisit.visitId, photoId: neighborPhoto },
    ]
    for (const params of cases) await expectNotFound('customer@bluelagoon.test', params)
  })

  it('answers 404 to a technician and a platform admin: neither may see a portal', async () => {
    for (const email of ['tech@bluelagoon.test', 'admin@poolbud.test']) {
      await expectNotFound(email, danaPhoto())
    }
  })

  it('answers 404 for ids that are not ids, and a photo asked under another of her visits', async () => {
    const cases: Params[] = [
      { ...danaPhoto(), photoId: 'before' },
      { ...danaPhoto(), photoId: '..%2F..%2Fetc' },
      { ...danaPhoto(), visitId: 'not-a-visit' },
      { ...danaPhoto(), customerId: 'not-a-customer' },
      { ...danaPhoto(), visitId: danaOpenVisit },
    ]
    for (const params of cases) await expectNotFound('customer@bluelagoon.test', params)
  })

  it('sends visitors who are not signed in to log in', async () => {
    const { thrown } = await fetchPhoto(null, danaPhoto())
    expect(thrown).toBeInstanceOf(Response)
    expect(thrown).toHaveRedirect(/^\/login\?redirectTo=/)
  })
})
