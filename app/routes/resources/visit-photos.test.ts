import fs from 'node:fs'
import path from 'node:path'
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { profiles, user, visitPhotos, visits } from '~/db/schema'
import { FIELD_OWNER_HEADER } from '~/field/changes'
import { MAX_UPLOAD_REQUEST_BYTES, PHOTO_MESSAGES } from '~/models/photo.server'
import { FIELD_MESSAGES } from '~/models/visit-work.server'
import { loader as visitPageLoader } from '~/routes/app/visit'
import { db } from '~/utils/db.server'
import { takeFlash } from '~/utils/flash.server'
import { answerOf, pageRequest, routeArgs, settle, TEST_ORIGIN } from '../../../tests/helpers/requests'
import { signInAs } from '../../../tests/helpers/session'
import { useDemoData } from '../../../tests/helpers/test-database'
import { action as photoAction, loader as photoLoader } from './visit-photo'
import { action as uploadAction } from './visit-photos'

let tech: string
let techCookie: string
let officeCookie: string
let adminCookie: string
let sunsetOwnerCookie: string
/** A completed visit of the technician's with the demo's before and after photos. */
let photographed: { visitId: string; photoIds: string[] }
/** The same, of their teammate's. */
let teammates: { visitId: string; photoIds: string[] }

const uploads = () => path.join(process.env.DATA_DIR as string, 'uploads')

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

async function jpegFile(name = 'pool.jpg') {
  return new File([await jpeg()], name, { type: 'image/jpeg' })
}

async function photographedVisitOf(technicianId: string) {
  const [visit] = await db()
    .select({ visitId: visits.id })
    .from(visits)
    .where(
      and(
        eq(visits.technicianId, technicianId),
        isNotNull(visits.completedAt),
        sql`exists (select 1 from "visit_photos" where "visit_photos"."visit_id" = "visits"."id")`,
      ),
    )
    .limit(1)
  if (!visit) throw new Error('no photographed visit')
  const photos = await db()
    .select({ id: visitPhotos.id })
    .from(visitPhotos)
    .where(eq(visitPhotos.visitId, visit.visitId))
    .orderBy(asc(visitPhotos.createdAt))
  return { visitId: visit.visitId, photoIds: photos.map((photo) => photo.id) }
}

/** An open visit of the technician's without photos, not used by another test. */
async function openVisitOf(technicianId: string) {
  const [row] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(
      and(
        eq(visits.technicianId, technicianId),
        isNull(visits.completedAt),
        isNull(visits.canceledAt),
        sql`"visits"."address" not like '%(route test)'`,
        sql`not exists (select 1 from "visit_photos" where "visit_photos"."visit_id" = "visits"."id")`,
      ),
    )
    .limit(1)
  if (!row) throw new Error('no open visit')
  await db()
    .update(visits)
    .set({ address: `${row.id} (route test)` })
    .where(eq(visits.id, row.id))
  return row.id
}

async function rowsOf(visitId: string) {
  return db()
    .select({ id: visitPhotos.id, label: visitPhotos.label })
    .from(visitPhotos)
    .where(eq(visitPhotos.visitId, visitId))
    .orderBy(asc(visitPhotos.createdAt), asc(visitPhotos.id))
}

function uploadRequest(
  visitId: string,
  {
    cookie,
    file,
    label = 'before',
    clientKey,
    json = true,
    headers = {},
  }: {
    cookie?: string
    file?: File
    label?: string
    clientKey?: string
    json?: boolean
    headers?: Record<string, string>
  },
) {
  const form = new FormData()
  form.append('label', label)
  if (clientKey) form.append('clientKey', clientKey)
  if (file) form.append('photo', file)
  return new Request(`${TEST_ORIGIN}/app/visits/${visitId}/photos`, {
    method: 'POST',
    body: form,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(json ? { Accept: 'application/json' } : { Accept: 'text/html,application/xhtml+xml' }),
      ...headers,
    },
  })
}

async function upload(visitId: string, options: Parameters<typeof uploadRequest>[1]) {
  // The route's answer, returned or thrown (a redirect, the 401 a script is told).
  return (await answerOf(uploadAction(routeArgs(uploadRequest(visitId, options), { visitId })))) as Response
}

/** Where a plain form's redirect goes, and the message it leaves there (shown once). */
async function flashOf(response: Response) {
  const cookie = (response.headers.get('Set-Cookie') ?? '').split(';')[0] ?? ''
  const { flash } = await takeFlash(new Request(TEST_ORIGIN, { headers: { cookie } }))
  return { status: response.status, location: response.headers.get('Location'), flash }
}

function photoRequest(visitId: string, photoId: string, cookie?: string, query = '') {
  return pageRequest(`/app/visits/${visitId}/photos/${photoId}${query}`, cookie)
}

function removeRequest(visitId: string, photoId: string, cookie: string, json = true) {
  return new Request(`${TEST_ORIGIN}/app/visits/${visitId}/photos/${photoId}`, {
    method: json ? 'DELETE' : 'POST',
    body: json ? undefined : new URLSearchParams({ intent: 'remove' }),
    headers: {
      cookie,
      ...(json ? { Accept: 'application/json' } : { 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
  })
}

async function remove(visitId: string, photoId: string, cookie: string, json = true) {
  return (await answerOf(
    photoAction(routeArgs(removeRequest(visitId, photoId, cookie, json), { visitId, photoId })),
  )) as Response
}

function expectNotFound(thrown: unknown) {
  expect(thrown).toBeInstanceOf(Response)
  expect((thrown as Response).status).toBe(404)
}

beforeAll(async () => {
  await useDemoData()
  tech = await profileId('tech@bluelagoon.test')
  photographed = await photographedVisitOf(tech)
  teammates = await photographedVisitOf(await profileId('tech2@bluelagoon.test'))
  techCookie = await signInAs('tech@bluelagoon.test')
  officeCookie = await signInAs('dispatch@bluelagoon.test')
  adminCookie = await signInAs('admin@poolbud.test')
  sunsetOwnerCookie = await signInAs('owner@sunsetpools.test')
})

describe('GET /app/visits/:visitId/photos/:photoId', () => {
  it("serves a technician their own visit's photos, privately cached and never sniffed", async () => {
    const { visitId, photoIds } = photographed
    expect(photoIds).toHaveLength(2)
    for (const photoId of photoIds) {
      const response = (await photoLoader(
        routeArgs(photoRequest(visitId, photoId, techCookie), { visitId, photoId }),
      )) as Response
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/jpeg')
      expect(response.headers.get('Cache-Control')).toBe('private, max-age=3600')
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      expect(meta.format).toBe('jpeg')
      expect(meta.exif).toBeUndefined()
    }
  })

  it('serves the thumbnail with ?size=thumb, and lets a platform admin look', async () => {
    const { visitId, photoIds } = photographed
    const photoId = photoIds[0] ?? ''
    const full = (await photoLoader(
      routeArgs(photoRequest(visitId, photoId, techCookie), { visitId, photoId }),
    )) as Response
    const thumb = (await photoLoader(
      routeArgs(photoRequest(visitId, photoId, techCookie, '?size=thumb'), { visitId, photoId }),
    )) as Response
    const fullWidth = (await sharp(Buffer.from(await full.arrayBuffer())).metadata()).width ?? 0
    const thumbWidth = (await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width ?? 0
    expect(thumbWidth).toBeLessThanOrEqual(400)
    expect(fullWidth).toBeGreaterThan(thumbWidth)
    const asAdmin = (await photoLoader(
      routeArgs(photoRequest(visitId, photoId, adminCookie), { visitId, photoId }),
    )) as Response
    expect(asAdmin.status).toBe(200)
  })

  it("answers 404 for a teammate's photo, a photo of another visit, and ids that are not ids", async () => {
    const own = photographed.visitId
    const theirs = teammates.photoIds[0] ?? ''
    for (const [visitId, photoId] of [
      [teammates.visitId, theirs],
      [own, theirs],
      [own, 'before'],
      [own, '..%2F..%2Fetc'],
      ['not-a-visit', photographed.photoIds[0] ?? ''],
    ] as const) {
      const { thrown } = await settle(
        photoLoader(routeArgs(photoRequest(visitId, photoId, techCookie), { visitId, photoId })),
      )
      expectNotFound(thrown)
    }
  })

  it("answers 404 to another company's owner, and sends visitors to log in", async () => {
    const { visitId } = photographed
    const photoId = photographed.photoIds[0] ?? ''
    const { thrown } = await settle(
      photoLoader(routeArgs(photoRequest(visitId, photoId, sunsetOwnerCookie), { visitId, photoId })),
    )
    expectNotFound(thrown)
    const anonymous = await settle(photoLoader(routeArgs(photoRequest(visitId, photoId), { visitId, photoId })))
    expect(anonymous.thrown).toHaveRedirect(/^\/login\?redirectTo=/)
  })
})

describe('POST /app/visits/:visitId/photos (the phone, JSON)', () => {
  it('stores a labeled photo and answers where it is; the same clientKey again is the same photo', async () => {
    const visitId = await openVisitOf(tech)
    const clientKey = crypto.randomUUID()
    const response = await upload(visitId, { cookie: techCookie, file: await jpegFile(), label: 'after', clientKey })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { ok: true; photo: { id: string; url: string; thumbUrl: string } }
    const id = body.photo.id
    expect(body).toEqual({
      ok: true,
      photo: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        label: 'after',
        url: `/app/visits/${visitId}/photos/${id}`,
        thumbUrl: `/app/visits/${visitId}/photos/${id}?size=thumb`,
      },
    })
    // The URL serves it, and the visit page lists it.
    const served = (await photoLoader(
      routeArgs(pageRequest(body.photo.url, techCookie), { visitId, photoId: id }),
    )) as Response
    expect(served.status).toBe(200)
    const page = await visitPageLoader(routeArgs(pageRequest(`/app/visits/${visitId}`, techCookie), { visitId }))
    expect(page.photos).toEqual([body.photo])

    // The queue sending it again after a lost answer.
    const again = await upload(visitId, { cookie: techCookie, file: await jpegFile(), label: 'after', clientKey })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(body)
    expect(await rowsOf(visitId)).toEqual([{ id, label: 'after' }])
  })

  it('refuses, for good, a file that is not an image, a form without a photo and an unknown label', async () => {
    const visitId = await openVisitOf(tech)
    const cases = [
      { file: new File(['just some notes'], 'notes.jpg', { type: 'image/jpeg' }), message: PHOTO_MESSAGES.notImage },
      { file: undefined, message: PHOTO_MESSAGES.noFile },
      { file: await jpegFile(), label: 'during', message: PHOTO_MESSAGES.badLabel },
    ]
    for (const { file, label, message } of cases) {
      const response = await upload(visitId, { cookie: techCookie, file, label })
      expect(response.status, message).toBe(400)
      expect(await response.json()).toEqual({ ok: false, refused: true, code: 'invalid', message })
    }
    expect(await rowsOf(visitId)).toEqual([])
  })

  it("refuses a photo for a visit given to a teammate with the reason (409), and another company's with 404", async () => {
    const teammateResponse = await upload(teammates.visitId, { cookie: techCookie, file: await jpegFile() })
    expect(teammateResponse.status).toBe(409)
    expect(await teammateResponse.json()).toEqual({
      ok: false,
      refused: true,
      code: 'conflict',
      message: FIELD_MESSAGES.reassigned,
    })
    expect(await rowsOf(teammates.visitId)).toHaveLength(teammates.photoIds.length)

    const otherCompany = await upload(photographed.visitId, { cookie: sunsetOwnerCookie, file: await jpegFile() })
    expect(otherCompany.status).toBe(404)
    expect(await otherCompany.json()).toMatchObject({ ok: false, refused: true, code: 'not-found' })
    const plain = await upload(photographed.visitId, { cookie: sunsetOwnerCookie, file: await jpegFile(), json: false })
    expect(plain.status).toBe(404)
    expect(await rowsOf(photographed.visitId)).toHaveLength(photographed.photoIds.length)
  })

  it('refuses a photo for a completed visit (409)', async () => {
    const response = await upload(photographed.visitId, { cookie: techCookie, file: await jpegFile() })
    expect(response.status).toBe(409)
    expect(await response.json()).toEqual({
      ok: false,
      refused: true,
      code: 'conflict',
      message: FIELD_MESSAGES.completed,
    })
  })

  it('refuses a declared Content-Length over the limit with 413 without reading the body', async () => {
    const visitId = await openVisitOf(tech)
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
    const request = new Request(`${TEST_ORIGIN}/app/visits/${visitId}/photos`, {
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
    const response = (await uploadAction(routeArgs(request, { visitId }))) as Response
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      ok: false,
      refused: true,
      code: 'too-large',
      message: 'Photos must be 15 MB or smaller.',
    })
    expect(read).toBe(false)
  })

  it('stops reading an upload without Content-Length once it passes the limit', async () => {
    const visitId = await openVisitOf(tech)
    let sent = 0
    const chunk = new Uint8Array(1024 * 1024)
    const body = new ReadableStream({
      pull(controller) {
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const request = new Request(`${TEST_ORIGIN}/app/visits/${visitId}/photos`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie: techCookie, Accept: 'application/json', 'Content-Type': 'multipart/form-data; boundary=x' },
    } as RequestInit)
    const response = (await uploadAction(routeArgs(request, { visitId }))) as Response
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(MAX_UPLOAD_REQUEST_BYTES + 4 * chunk.byteLength)
  })

  it('keeps nothing when the upload is cut off mid-way, and does not call it a refusal (the queue sends again)', async () => {
    const visitId = await openVisitOf(tech)
    const filesBefore = listFiles(uploads())
    // A genuine multipart upload of a real JPEG, of which only the first half ever arrives.
    const form = new FormData()
    form.append('label', 'before')
    form.append('clientKey', crypto.randomUUID())
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
    const request = new Request(`${TEST_ORIGIN}/app/visits/${visitId}/photos`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { cookie: techCookie, Accept: 'application/json', 'Content-Type': contentType },
    } as RequestInit)
    const { returned, thrown } = await settle(uploadAction(routeArgs(request, { visitId })))
    expect(thrown).toBeUndefined()
    const response = returned as Response
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, message: PHOTO_MESSAGES.interrupted })
    expect(await rowsOf(visitId)).toEqual([])
    expect(listFiles(uploads())).toEqual(filesBefore)
  })

  it('tells a script whose session ended that it is signed out (401), and the queue keeps the photo', async () => {
    const response = await upload(photographed.visitId, { file: await jpegFile() })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ ok: false, signedOut: true })
  })

  it('never stores a photo the phone recorded as another person’s (a shared phone): it waits for them', async () => {
    const visitId = await openVisitOf(tech)
    const [tyler] = await db().select({ id: user.id }).from(user).where(eq(user.email, 'tech@bluelagoon.test'))
    const his = { file: await jpegFile(), label: 'after', clientKey: crypto.randomUUID() }
    const headers = { [FIELD_OWNER_HEADER]: tyler?.id ?? '' }
    const response = await upload(visitId, { ...his, cookie: officeCookie, headers })
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ ok: false, otherPerson: true })
    expect(await rowsOf(visitId)).toEqual([])
    // Tyler, signed in again, sends it.
    expect((await upload(visitId, { ...his, cookie: techCookie, headers })).status).toBe(200)
    expect(await rowsOf(visitId)).toHaveLength(1)
  })
})

describe('POST /app/visits/:visitId/photos (a plain form, no JavaScript)', () => {
  it('redirects back to the visit, the outcome shown there once', async () => {
    const visitId = await openVisitOf(tech)
    const saved = await upload(visitId, { cookie: techCookie, file: await jpegFile(), json: false })
    expect(await flashOf(saved)).toMatchObject({
      status: 303,
      location: `/app/visits/${visitId}#photos`,
      flash: { tone: 'success', text: 'Photo uploaded.' },
    })
    expect(await rowsOf(visitId)).toHaveLength(1)

    const refused = await upload(visitId, {
      cookie: techCookie,
      file: new File(['hello'], 'x.jpg', { type: 'image/jpeg' }),
      json: false,
    })
    expect(await flashOf(refused)).toMatchObject({
      status: 303,
      location: `/app/visits/${visitId}#photos`,
      flash: { tone: 'error', text: PHOTO_MESSAGES.notImage },
    })
  })

  it('tells the reason a visit no longer takes the photo, as the phone is told', async () => {
    const refused = await upload(teammates.visitId, { cookie: techCookie, file: await jpegFile(), json: false })
    expect(await flashOf(refused)).toMatchObject({
      status: 303,
      location: `/app/visits/${teammates.visitId}#photos`,
      flash: { tone: 'error', text: FIELD_MESSAGES.reassigned },
    })
  })

  it('sends a signed-out plain form to log in (only a script is answered 401)', async () => {
    const response = await upload(photographed.visitId, { file: await jpegFile(), json: false })
    expect(response).toHaveRedirect(/^\/login\?redirectTo=/)
  })
})

describe('removing a photo', () => {
  it('lets the technician remove a photo of their open visit (DELETE), after which it is gone', async () => {
    const visitId = await openVisitOf(tech)
    const uploaded = (await (await upload(visitId, { cookie: techCookie, file: await jpegFile() })).json()) as {
      photo: { id: string }
    }
    const photoId = uploaded.photo.id
    const response = await remove(visitId, photoId, techCookie)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(await rowsOf(visitId)).toEqual([])
    const { thrown } = await settle(
      photoLoader(routeArgs(photoRequest(visitId, photoId, techCookie), { visitId, photoId })),
    )
    expectNotFound(thrown)
    // Removing it again (another tab) finds nothing.
    expect((await remove(visitId, photoId, techCookie)).status).toBe(404)
  })

  it('works as a plain form (intent=remove) and redirects back', async () => {
    const visitId = await openVisitOf(tech)
    const uploaded = (await (await upload(visitId, { cookie: techCookie, file: await jpegFile() })).json()) as {
      photo: { id: string }
    }
    const response = await remove(visitId, uploaded.photo.id, techCookie, false)
    expect(await flashOf(response)).toMatchObject({
      status: 303,
      location: `/app/visits/${visitId}#photos`,
      flash: { tone: 'success', text: 'Photo removed.' },
    })
    expect(await rowsOf(visitId)).toEqual([])
  })

  it('answers 404 to a post that does not ask to remove (another intent, or a body that is no form), removing nothing', async () => {
    const visitId = await openVisitOf(tech)
    const uploaded = (await (await upload(visitId, { cookie: techCookie, file: await jpegFile() })).json()) as {
      photo: { id: string }
    }
    const params = { visitId, photoId: uploaded.photo.id }
    const url = `${TEST_ORIGIN}/app/visits/${visitId}/photos/${uploaded.photo.id}`
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'intent=rename'],
      ['application/json', JSON.stringify({ intent: 'remove' })],
    ]) {
      const request = new Request(url, {
        method: 'POST',
        body,
        headers: { cookie: techCookie, 'Content-Type': contentType as string },
      })
      expect(((await answerOf(photoAction(routeArgs(request, params)))) as Response).status, contentType).toBe(404)
    }
    expect(await rowsOf(visitId)).toHaveLength(1)
  })

  it("keeps a completed visit's photos from its technician and from another company; the office may remove one", async () => {
    const { visitId, photoIds } = await photographedVisitOf(tech)
    const photoId = photoIds[1] ?? ''
    const asTech = await remove(visitId, photoId, techCookie)
    expect(asTech.status).toBe(409)
    expect(await asTech.json()).toEqual({
      ok: false,
      refused: true,
      code: 'conflict',
      message: FIELD_MESSAGES.completed,
    })
    expect((await remove(visitId, photoId, sunsetOwnerCookie)).status).toBe(404)
    expect(await rowsOf(visitId)).toHaveLength(photoIds.length)
    expect((await remove(visitId, photoId, officeCookie)).status).toBe(200)
    expect((await rowsOf(visitId)).map((row) => row.id)).toEqual(photoIds.filter((id) => id !== photoId))
  })
})
