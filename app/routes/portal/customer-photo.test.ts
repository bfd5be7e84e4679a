import { and, eq, isNotNull, isNull, ne } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, jobs } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { pageRequest, settle, signInAs } from '../../../tests/helpers/session'
import { loader as portalLoader } from './customer'
import { loader } from './customer-photo'

type Params = { customerId: string; jobId: string; kind: string }
const call = (request: Request, params: Params) => ({ request, params, context: {} }) as never

let danaId: string
let marcoId: string
let danaJob: string
let danaBareJob: string
let marcoJob: string
let neighbourJob: string
const cookies: Record<string, string> = {}

async function cookieOf(email: string) {
  cookies[email] ??= await signInAs(email)
  return cookies[email]
}

/** Requests `/customer/{customerId}/photos/{jobId}/{kind}{query}` as `email` (or anonymously). */
async function fetchPhoto(email: string | null, params: Params, query = '') {
  const cookie = email ? await cookieOf(email) : undefined
  const path = `/customer/${params.customerId}/photos/${params.jobId}/${params.kind}${query}`
  return settle(loader(call(pageRequest(path, cookie), params)))
}

async function expectNotFound(email: string | null, params: Params) {
  const { thrown, returned } = await fetchPhoto(email, params)
  expect(returned, `${email} ${JSON.stringify(params)}`).toBeUndefined()
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as Response).status).toBe(404)
}

async function photographedJob(customerId: string) {
  const [job] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.customerId, customerId), isNotNull(jobs.beforeUrl), isNotNull(jobs.afterUrl)))
    .limit(1)
  if (!job) throw new Error('no photographed job')
  return job.id
}

beforeAll(async () => {
  await seedDemoData(db())
  const rows = await db().select({ id: customers.id, name: customers.customerName }).from(customers)
  danaId = rows.find((r) => r.name === 'Dana Whitfield')?.id ?? ''
  marcoId = rows.find((r) => r.name === 'Marco Ruiz')?.id ?? ''
  danaJob = await photographedJob(danaId)
  marcoJob = await photographedJob(marcoId)
  const [bare] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.customerId, danaId), isNull(jobs.beforeUrl), isNull(jobs.afterUrl)))
    .limit(1)
  danaBareJob = bare?.id ?? ''
  const [blue] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  const [neighbour] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.companyId, blue?.id ?? ''), ne(jobs.customerId, danaId), isNotNull(jobs.beforeUrl)))
    .limit(1)
  neighbourJob = neighbour?.id ?? ''
})

describe('GET /customer/:customerId/photos/:jobId/:kind', () => {
  it('serves Dana the photos her portal links to, privately cached and never sniffed', async () => {
    const cookie = await cookieOf('customer@bluelagoon.test')
    const page = await portalLoader({
      request: pageRequest(`/customer/${danaId}`, cookie),
      params: { customerId: danaId },
      context: {},
    } as never)
    const photo = page.gallery[0]
    if (!photo) throw new Error('the gallery is empty')
    const [, jobId, kind] = /\/photos\/([^/]+)\/(before|after)\?/.exec(photo.full) ?? []
    const params = { customerId: danaId, jobId: jobId ?? '', kind: kind ?? '' }
    const full = (await fetchPhoto('customer@bluelagoon.test', params, photo.full.slice(photo.full.indexOf('?'))))
      .returned as Response
    const thumb = (await fetchPhoto('customer@bluelagoon.test', params, photo.thumb.slice(photo.thumb.indexOf('?'))))
      .returned as Response
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

  it('serves both photos of a visit to Dana and to a dispatcher previewing her portal', async () => {
    for (const email of ['customer@bluelagoon.test', 'dispatch@bluelagoon.test']) {
      for (const kind of ['before', 'after']) {
        const { returned } = await fetchPhoto(email, { customerId: danaId, jobId: danaJob, kind })
        expect((returned as Response).status).toBe(200)
      }
    }
  })

  it("answers 404 to the other company's customer and owner", async () => {
    for (const email of ['customer@sunsetpools.test', 'owner@sunsetpools.test']) {
      await expectNotFound(email, { customerId: danaId, jobId: danaJob, kind: 'before' })
      // Their own company's id for the customer changes nothing.
      await expectNotFound(email, { customerId: marcoId, jobId: danaJob, kind: 'after' })
    }
  })

  it("answers 404 to Dana for Marco's portal, and for her id paired with another customer's job", async () => {
    const cases: Params[] = [
      { customerId: marcoId, jobId: marcoJob, kind: 'before' },
      { customerId: danaId, jobId: marcoJob, kind: 'before' },
      { customerId: danaId, jobId: neighbourJob, kind: 'before' },
      { customerId: danaId, jobId: neighbourJob, kind: 'after' },
    ]
    for (const params of cases) await expectNotFound('customer@bluelagoon.test', params)
  })

  it('answers 404 to a technician and a platform admin: neither may see a portal', async () => {
    for (const email of ['tech@bluelagoon.test', 'admin@poolbud.test']) {
      await expectNotFound(email, { customerId: danaId, jobId: danaJob, kind: 'before' })
    }
  })

  it('answers 404 for a bad kind, a bad id and a visit without that photo', async () => {
    const cases: Params[] = [
      { customerId: danaId, jobId: danaJob, kind: 'during' },
      { customerId: danaId, jobId: danaJob, kind: '..%2F..%2Fetc' },
      { customerId: danaId, jobId: 'not-a-job', kind: 'before' },
      { customerId: 'not-a-customer', jobId: danaJob, kind: 'before' },
      { customerId: danaId, jobId: danaBareJob, kind: 'before' },
    ]
    for (const params of cases) await expectNotFound('customer@bluelagoon.test', params)
  })

  it('sends visitors who are not signed in to log in', async () => {
    const { thrown } = await fetchPhoto(null, { customerId: danaId, jobId: danaJob, kind: 'before' })
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toMatch(/^\/login\?redirectTo=/)
  })
})
