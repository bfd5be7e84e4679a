import fs from 'node:fs'
import path from 'node:path'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { PHOTO_ERROR_MESSAGES } from '~/components/job-photos'
import { companies, jobs, profiles } from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { MAX_UPLOAD_REQUEST_BYTES, PHOTO_MESSAGES, savePhoto } from '~/models/photo.server'
import { loader as jobPageLoader } from '~/routes/app/job'
import { db } from '~/utils/db.server'
import { pageRequest, settle, signInAs, TEST_ORIGIN } from '../../../tests/helpers/session'
import { action, loader } from './job-photo'

type Args = { request: Request; params: Record<string, string>; context: unknown }
const args = (request: Request, params: Record<string, string>) => ({ request, params, context: {} }) as Args as never

let blue: string
let ownJob: string
let teammatesJob: string
let bareJob: string
let techCookie: string
let sunsetOwnerCookie: string

async function profileId(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row.id
}

/** Every file under `dir` (none when it does not exist yet). */
function listFiles(dir: string) {
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : []
}

function jpeg(width = 1200, height = 900) {
  return sharp({ create: { width, height, channels: 3, background: '#1f8fcf' } })
    .jpeg()
    .toBuffer()
}

/** A job of the technician's with a before and an after photo (the demo's, or one uploaded here). */
async function photographedJobOf(technicianId: string) {
  const [withPhotos] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.technicianId, technicianId), isNotNull(jobs.beforeUrl), isNotNull(jobs.afterUrl)))
    .limit(1)
  if (withPhotos) return withPhotos.id
  const [job] = await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.technicianId, technicianId)).limit(1)
  if (!job) throw new Error('technician has no job')
  for (const kind of ['before', 'after'] as const) {
    await savePhoto({ companyId: blue, jobId: job.id, kind, fileName: `${kind}.jpg`, bytes: await jpeg() })
  }
  return job.id
}

function photoRequest(jobId: string, kind: string, cookie?: string, query = '') {
  return pageRequest(`/app/jobs/${jobId}/photos/${kind}${query}`, cookie)
}

function uploadRequest(
  jobId: string,
  kind: string,
  {
    cookie,
    file,
    json = true,
    headers = {},
  }: { cookie?: string; file?: File; json?: boolean; headers?: Record<string, string> },
) {
  const form = new FormData()
  if (file) form.append('photo', file)
  return new Request(`${TEST_ORIGIN}/app/jobs/${jobId}/photos/${kind}`, {
    method: 'POST',
    body: form,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(json ? { Accept: 'application/json' } : { Accept: 'text/html,application/xhtml+xml' }),
      ...headers,
    },
  })
}

async function jpegFile(name = 'pool.jpg') {
  return new File([await jpeg()], name, { type: 'image/jpeg' })
}

function expectNotFound(thrown: unknown) {
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as Response).status).toBe(404)
}

beforeAll(async () => {
  await seedDemoData(db())
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  ownJob = await photographedJobOf(await profileId('tech@bluelagoon.test'))
  teammatesJob = await photographedJobOf(await profileId('tech2@bluelagoon.test'))
  const [bare] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.technicianId, await profileId('tech@bluelagoon.test')),
        isNull(jobs.beforeUrl),
        isNull(jobs.afterUrl),
      ),
    )
    .limit(1)
  bareJob = bare?.id ?? ''
  techCookie = await signInAs('tech@bluelagoon.test')
  sunsetOwnerCookie = await signInAs('owner@sunsetpools.test')
})

describe('GET /app/jobs/:jobId/photos/:kind', () => {
  it("serves a technician their own job's photo, privately cached and never sniffed", async () => {
    for (const kind of ['before', 'after']) {
      const response = (await loader(args(photoRequest(ownJob, kind, techCookie), { jobId: ownJob, kind }))) as Response
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/jpeg')
      expect(response.headers.get('Cache-Control')).toBe('private, max-age=3600')
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      expect(meta.format).toBe('jpeg')
      expect(meta.exif).toBeUndefined()
    }
  })

  it('serves the thumbnail with ?size=thumb', async () => {
    const full = (await loader(
      args(photoRequest(ownJob, 'after', techCookie), { jobId: ownJob, kind: 'after' }),
    )) as Response
    const thumb = (await loader(
      args(photoRequest(ownJob, 'after', techCookie, '?size=thumb&v=1'), { jobId: ownJob, kind: 'after' }),
    )) as Response
    const fullWidth = (await sharp(Buffer.from(await full.arrayBuffer())).metadata()).width ?? 0
    const thumbWidth = (await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width ?? 0
    expect(thumbWidth).toBeLessThanOrEqual(400)
    expect(fullWidth).toBeGreaterThan(thumbWidth)
  })

  it("answers 404 for a teammate's job, a bad kind and a job without that photo", async () => {
    for (const [jobId, kind] of [
      [teammatesJob, 'before'],
      [teammatesJob, 'after'],
      [ownJob, 'during'],
      [ownJob, '..%2F..%2Fetc'],
      [bareJob, 'before'],
      ['not-a-job', 'before'],
    ] as const) {
      const { thrown } = await settle(loader(args(photoRequest(jobId, kind, techCookie), { jobId, kind })))
      expectNotFound(thrown)
    }
  })

  it("answers 404 to another company's owner", async () => {
    const { thrown } = await settle(
      loader(args(photoRequest(ownJob, 'before', sunsetOwnerCookie), { jobId: ownJob, kind: 'before' })),
    )
    expectNotFound(thrown)
  })

  it('sends visitors who are not signed in to log in', async () => {
    const { thrown } = await settle(loader(args(photoRequest(ownJob, 'before'), { jobId: ownJob, kind: 'before' })))
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toMatch(/^\/login\?redirectTo=/)
  })
})

describe('POST /app/jobs/:jobId/photos/:kind', () => {
  it('stores a photo for the technician of the job and answers its URL', async () => {
    const response = (await action(
      args(uploadRequest(bareJob, 'before', { cookie: techCookie, file: await jpegFile() }), {
        jobId: bareJob,
        kind: 'before',
      }),
    )) as Response
    expect(response.status).toBe(200)
    const body = (await response.json()) as { ok: boolean; url: string }
    expect(body).toEqual({
      ok: true,
      url: expect.stringMatching(`^/app/jobs/${bareJob}/photos/before\\?v=[0-9a-f]{16}$`),
    })

    // The URL serves the new photo, and the job page links to the same URL.
    const photo = (await loader(
      args(pageRequest(body.url, techCookie), { jobId: bareJob, kind: 'before' }),
    )) as Response
    expect(photo.status).toBe(200)
    const page = await jobPageLoader(args(pageRequest(`/app/jobs/${bareJob}`, techCookie), { jobId: bareJob }))
    expect(page.photos).toEqual({ before: body.url, after: null })
  })

  it('refuses a file that is not an image with 400 and the message', async () => {
    const text = new File(['just some notes'], 'notes.jpg', { type: 'image/jpeg' })
    const response = (await action(
      args(uploadRequest(bareJob, 'after', { cookie: techCookie, file: text }), { jobId: bareJob, kind: 'after' }),
    )) as Response
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message: 'Choose an image file (JPEG, PNG, WebP or HEIC).' })
  })

  it('refuses a form without a photo', async () => {
    const response = (await action(
      args(uploadRequest(bareJob, 'after', { cookie: techCookie }), { jobId: bareJob, kind: 'after' }),
    )) as Response
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message: 'Choose a photo to upload.' })
  })

  it('refuses a declared Content-Length over the limit with 413 without reading the body', async () => {
    let read = false
    // highWaterMark 0: the stream is pulled only when someone actually reads it.
    const body = new ReadableStream(
      {
        pull(controller) {
          read = true
          controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const request = new Request(`${TEST_ORIGIN}/app/jobs/${bareJob}/photos/after`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        cookie: techCookie,
        Accept: 'application/json',
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(MAX_UPLOAD_REQUEST_BYTES + 1),
      },
    } as RequestInit)
    const response = (await action(args(request, { jobId: bareJob, kind: 'after' }))) as Response
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ ok: false, message: 'Photos must be 15 MB or smaller.' })
    expect(read).toBe(false)
  })

  it('stops reading an upload without Content-Length once it passes the limit', async () => {
    let sent = 0
    const chunk = new Uint8Array(1024 * 1024)
    const body = new ReadableStream({
      pull(controller) {
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const request = new Request(`${TEST_ORIGIN}/app/jobs/${bareJob}/photos/after`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie: techCookie, Accept: 'application/json', 'Content-Type': 'multipart/form-data; boundary=x' },
    } as RequestInit)
    const response = (await action(args(request, { jobId: bareJob, kind: 'after' }))) as Response
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(MAX_UPLOAD_REQUEST_BYTES + 4 * chunk.byteLength)
  })

  it('leaves no half record when the upload is cut off mid-way (the phone lost signal)', async () => {
    const uploads = path.join(process.env.DATA_DIR as string, 'uploads')
    const filesBefore = listFiles(uploads)
    const [before] = await db().select({ key: jobs.afterUrl }).from(jobs).where(eq(jobs.id, bareJob))
    // A genuine multipart upload of a real JPEG, of which only the first half ever arrives.
    const form = new FormData()
    form.append('photo', await jpegFile())
    const encoded = new Request('http://x', { method: 'POST', body: form })
    const contentType = encoded.headers.get('Content-Type') as string
    const bytes = new Uint8Array(await encoded.arrayBuffer())
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice(0, Math.floor(bytes.byteLength / 2)))
        controller.error(new Error('connection reset by peer'))
      },
    })
    const request = new Request(`${TEST_ORIGIN}/app/jobs/${bareJob}/photos/after`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie: techCookie, Accept: 'application/json', 'Content-Type': contentType },
    } as RequestInit)
    const { returned, thrown } = await settle(action(args(request, { jobId: bareJob, kind: 'after' })))
    expect(thrown).toBeUndefined()
    const response = returned as Response
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      ok: false,
      message: 'The upload was interrupted. Check your connection and try again.',
    })
    const [after] = await db().select({ key: jobs.afterUrl }).from(jobs).where(eq(jobs.id, bareJob))
    expect(after?.key).toBe(before?.key)
    expect(listFiles(uploads)).toEqual(filesBefore)
  })

  it("answers 404 to a technician posting to a teammate's job, and changes nothing", async () => {
    const [before] = await db().select({ key: jobs.beforeUrl }).from(jobs).where(eq(jobs.id, teammatesJob))
    const response = (await action(
      args(uploadRequest(teammatesJob, 'before', { cookie: techCookie, file: await jpegFile() }), {
        jobId: teammatesJob,
        kind: 'before',
      }),
    )) as Response
    expect(response.status).toBe(404)
    const [after] = await db().select({ key: jobs.beforeUrl }).from(jobs).where(eq(jobs.id, teammatesJob))
    expect(after?.key).toBe(before?.key)
  })

  it("answers 404 to another company's owner, with or without JavaScript", async () => {
    const [before] = await db().select({ key: jobs.beforeUrl }).from(jobs).where(eq(jobs.id, ownJob))
    for (const json of [true, false]) {
      const response = (await action(
        args(uploadRequest(ownJob, 'before', { cookie: sunsetOwnerCookie, file: await jpegFile(), json }), {
          jobId: ownJob,
          kind: 'before',
        }),
      )) as Response
      expect(response.status).toBe(404)
    }
    const [after] = await db().select({ key: jobs.beforeUrl }).from(jobs).where(eq(jobs.id, ownJob))
    expect(after?.key).toBe(before?.key)
  })

  it('answers 404 for a bad kind', async () => {
    const response = (await action(
      args(uploadRequest(ownJob, 'during', { cookie: techCookie, file: await jpegFile() }), {
        jobId: ownJob,
        kind: 'during',
      }),
    )) as Response
    expect(response.status).toBe(404)
  })

  it('tells a script whose session ended to log in again', async () => {
    const response = (await action(
      args(uploadRequest(ownJob, 'before', { file: await jpegFile() }), { jobId: ownJob, kind: 'before' }),
    )) as Response
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ ok: false })
  })

  it('works as a plain form post: redirects back to the job with the outcome', async () => {
    const saved = (await action(
      args(uploadRequest(ownJob, 'after', { cookie: techCookie, file: await jpegFile(), json: false }), {
        jobId: ownJob,
        kind: 'after',
      }),
    )) as Response
    expect(saved.status).toBe(303)
    expect(saved.headers.get('Location')).toBe(`/app/jobs/${ownJob}?photo=saved`)

    const refused = (await action(
      args(
        uploadRequest(ownJob, 'after', {
          cookie: techCookie,
          file: new File(['hello'], 'x.jpg', { type: 'image/jpeg' }),
          json: false,
        }),
        { jobId: ownJob, kind: 'after' },
      ),
    )) as Response
    expect(refused.status).toBe(303)
    const location = new URL(refused.headers.get('Location') ?? '', TEST_ORIGIN)
    expect(location.pathname).toBe(`/app/jobs/${ownJob}`)
    expect(location.searchParams.get('photoError')).toBe(PHOTO_MESSAGES.notImage)
  })

  it('only ever redirects with messages the job page agrees to show', () => {
    const shown: readonly string[] = PHOTO_ERROR_MESSAGES
    for (const message of [
      PHOTO_MESSAGES.tooLarge,
      PHOTO_MESSAGES.notImage,
      PHOTO_MESSAGES.tooManyPixels,
      PHOTO_MESSAGES.failed,
    ]) {
      expect(shown).toContain(message)
    }
    expect(shown).toContain('Choose a photo to upload.')
  })
})
