import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, profiles, user, visitPhotos, visits } from '~/db/schema'
import { DEMO_PHOTO_VISITS_PER_COMPANY, seedDemoPhotos } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { useDemoData } from '../../tests/helpers/test-database'
import { KEY_REUSED } from './idempotency.server'
import {
  MAX_PHOTO_BYTES,
  MAX_VISIT_PHOTOS,
  PHOTO_MESSAGES,
  photoObjectKey,
  photoUrl,
  sanitizeFileName,
} from './photo.server'
import { deletePhoto, getPhotoForViewer, savePhoto } from './photo-access.server'
import { FIELD_MESSAGES } from './visit-work.server'

const uploads = () => path.join(process.env.DATA_DIR as string, 'uploads')
const fileOf = (key: string, size: 'full' | 'thumb' = 'full') => path.join(uploads(), photoObjectKey(key, size))

/** Visits completed here are dated long ago, so they never count among the demo's newest completed visits. */
const LONG_AGO = new Date('2001-01-01T12:00:00Z')

let blue: string
let sunset: string
let tech: string
let tech2: string
type Member = { id: string; role: 'owner' | 'dispatcher' | 'tech'; companyId: string }
let office: Member
let asTech: Member

async function idOf(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row.id
}

/** An open visit of `companyId` with no photos yet (open visits get none from the demo), optionally `technicianId`'s. */
async function openVisit(companyId: string, technicianId?: string) {
  const filters = [
    eq(visits.companyId, companyId),
    isNull(visits.completedAt),
    isNull(visits.canceledAt),
    sql`${visits.address} not like '%(photo test)'`,
    sql`not exists (select 1 from ${visitPhotos} where ${visitPhotos.visitId} = ${visits.id})`,
    // Never a portal customer's (Dana's, Marco's): "demo photos" below checks every completed visit of theirs has the
    // seed's photos, and these tests complete the visits they take.
    sql`not exists (select 1 from "customers" where "customers"."id" = "visits"."customer_id" and "customers"."portal_user_id" is not null)`,
  ]
  if (technicianId) filters.push(eq(visits.technicianId, technicianId))
  const [row] = await db()
    .select({ id: visits.id })
    .from(visits)
    .where(and(...filters))
    .limit(1)
  if (!row) throw new Error('no open visit without photos')
  // Mark it as used so the next call returns a different visit.
  await db()
    .update(visits)
    .set({ address: `${row.id} (photo test)` })
    .where(eq(visits.id, row.id))
  return row.id
}

async function rowsOf(visitId: string) {
  return db()
    .select({ id: visitPhotos.id, label: visitPhotos.label, key: visitPhotos.storageKey, takenBy: visitPhotos.takenBy })
    .from(visitPhotos)
    .where(eq(visitPhotos.visitId, visitId))
    .orderBy(asc(visitPhotos.createdAt), asc(visitPhotos.id))
}

async function labelsOf(visitId: string) {
  return (await rowsOf(visitId)).map((row) => row.label)
}

async function storageKeyOf(photoId: string) {
  const [row] = await db().select({ key: visitPhotos.storageKey }).from(visitPhotos).where(eq(visitPhotos.id, photoId))
  if (!row) throw new Error('no photo row')
  return row.key
}

function filesOfVisit(visitId: string) {
  const folder = path.join(uploads(), visitId)
  return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []
}

/**
 * A complete, valid black PNG of width × height pixels, one bit each: a few kilobytes that
 * decode to hundreds of megabytes (built by hand; encoding it with sharp takes seconds).
 */
function pngBomb(width: number, height: number) {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(body.length)
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(typed))
    return Buffer.concat([length, typed, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, greyscale, deflate, no filter method, no interlace
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height) // each row: filter byte 0, then zero bits
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function jpeg(width: number, height: number, color = '#2a7fbf') {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer()
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  tech = await idOf('tech@bluelagoon.test')
  tech2 = await idOf('tech2@bluelagoon.test')
  office = { id: await idOf('dispatch@bluelagoon.test'), role: 'dispatcher', companyId: blue }
  asTech = { id: tech, role: 'tech', companyId: blue }
})

describe('savePhoto: the picture', () => {
  it('stores a JPEG as a web-size image and a thumbnail, in a labeled row with who took it', async () => {
    const visitId = await openVisit(blue, tech)
    const result = await savePhoto({
      member: asTech,
      visitId,
      label: 'before',
      fileName: 'IMG_2041.JPG',
      bytes: await jpeg(3000, 2000),
    })
    expect(result).toMatchObject({ ok: true, replayed: false, photo: { label: 'before' } })
    if (!result.ok) return
    const key = await storageKeyOf(result.photo.id)
    expect(key).toMatch(new RegExp(`^${visitId}/before-\\d{13}-img-2041-[0-9a-f]{16}$`))
    expect(await rowsOf(visitId)).toEqual([{ id: result.photo.id, label: 'before', key, takenBy: tech }])

    const full = await sharp(fs.readFileSync(fileOf(key))).metadata()
    expect(full).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 })
    const thumb = await sharp(fs.readFileSync(fileOf(key, 'thumb'))).metadata()
    expect(thumb).toMatchObject({ format: 'jpeg', width: 400, height: 267 })
  })

  it('stores a PNG (transparency and all) as JPEG without enlarging a small image', async () => {
    const visitId = await openVisit(blue)
    const png = await sharp({
      create: { width: 500, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer()
    const result = await savePhoto({ member: office, visitId, label: 'after', fileName: 'pool.png', bytes: png })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const key = await storageKeyOf(result.photo.id)
    const full = sharp(fs.readFileSync(fileOf(key)))
    expect(await full.metadata()).toMatchObject({ format: 'jpeg', width: 500, height: 300, hasAlpha: false })
    // Transparent areas become white, not black.
    const { dominant } = await full.stats()
    expect(dominant).toEqual({ r: 248, g: 248, b: 248 })
    expect(await labelsOf(visitId)).toEqual(['after'])
  })

  it('refuses a text file renamed .jpg, and writes nothing', async () => {
    const visitId = await openVisit(blue)
    const result = await savePhoto({
      member: office,
      visitId,
      label: 'before',
      fileName: 'holiday.jpg',
      bytes: Buffer.from('This is not a photo, just some text pretending to be one.\n'.repeat(50)),
    })
    expect(result).toEqual({ ok: false, code: 'invalid', message: 'Choose an image file (JPEG, PNG, WebP or HEIC).' })
    expect(filesOfVisit(visitId)).toEqual([])
    expect(await labelsOf(visitId)).toEqual([])
  })

  it('refuses an SVG, which is an image sharp can read but not one we accept', async () => {
    const visitId = await openVisit(blue)
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    )
    const result = await savePhoto({ member: office, visitId, label: 'before', fileName: 'x.jpg', bytes: svg })
    expect(result).toEqual({ ok: false, code: 'invalid', message: PHOTO_MESSAGES.notImage })
  })

  it('refuses a truncated JPEG', async () => {
    const visitId = await openVisit(blue)
    const whole = await jpeg(1200, 900)
    const result = await savePhoto({
      member: office,
      visitId,
      label: 'before',
      fileName: 'cut.jpg',
      bytes: whole.subarray(0, Math.floor(whole.length / 2)),
    })
    expect(result).toEqual({ ok: false, code: 'invalid', message: PHOTO_MESSAGES.notImage })
    expect(filesOfVisit(visitId)).toEqual([])
  })

  it('refuses anything over 15 MB before looking at it', async () => {
    const visitId = await openVisit(blue)
    const big = Buffer.alloc(16 * 1024 * 1024, 0xff)
    const result = await savePhoto({ member: office, visitId, label: 'before', fileName: 'big.jpg', bytes: big })
    expect(result).toEqual({ ok: false, code: 'too-large', message: 'Photos must be 15 MB or smaller.' })
    expect(MAX_PHOTO_BYTES).toBe(15 * 1024 * 1024)
    expect(filesOfVisit(visitId)).toEqual([])
  })

  it('refuses a decompression bomb: a small file of 10000 × 10000 pixels', async () => {
    const visitId = await openVisit(blue)
    const bomb = pngBomb(10_000, 10_000)
    // It really is a 100-megapixel image that sharp can read.
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 10_000 })
    expect(bomb.length).toBeLessThan(MAX_PHOTO_BYTES)
    const result = await savePhoto({ member: office, visitId, label: 'before', fileName: 'bomb.png', bytes: bomb })
    expect(result).toEqual({ ok: false, code: 'invalid', message: PHOTO_MESSAGES.tooManyPixels })
    expect(filesOfVisit(visitId)).toEqual([])
  })

  it('keeps a path-traversal file name inside the uploads folder', async () => {
    const visitId = await openVisit(blue)
    const result = await savePhoto({
      member: office,
      visitId,
      label: 'before',
      fileName: '../../etc/passwd.jpg',
      bytes: await jpeg(64, 64),
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const key = await storageKeyOf(result.photo.id)
    expect(key).toMatch(new RegExp(`^${visitId}/before-\\d{13}-passwd-[0-9a-f]{16}$`))
    const file = fileOf(key)
    expect(path.resolve(file).startsWith(`${path.resolve(uploads())}${path.sep}`)).toBe(true)
    expect(fs.existsSync(file)).toBe(true)
    expect(fs.existsSync(path.join(process.env.DATA_DIR as string, 'etc'))).toBe(false)
    expect(sanitizeFileName('..\\..\\Windows\\system32.ini')).toBe('system32')
    expect(sanitizeFileName('....jpg')).toBe('photo')
  })

  it('strips EXIF (GPS included) and turns the picture upright first', async () => {
    const visitId = await openVisit(blue)
    // 800 × 600 pixels stored sideways (orientation 6: show rotated 90°), with a camera and GPS position.
    const withGps = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'TestCam', Model: 'Poolside 1' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '27/1 57/1 1234/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '82/1 27/1 0/1',
        },
      })
      .toBuffer()
    const input = await sharp(withGps).metadata()
    expect(input.exif?.toString('latin1')).toContain('TestCam')
    expect(input.orientation).toBe(6)

    const result = await savePhoto({ member: office, visitId, label: 'after', fileName: 'gps.jpg', bytes: withGps })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const key = await storageKeyOf(result.photo.id)
    for (const size of ['full', 'thumb'] as const) {
      const bytes = fs.readFileSync(fileOf(key, size))
      const meta = await sharp(bytes).metadata()
      expect(meta.exif, size).toBeUndefined()
      expect(meta.xmp, size).toBeUndefined()
      expect(meta.icc, size).toBeUndefined()
      expect(meta.orientation, size).toBeUndefined()
      expect(bytes.includes(Buffer.from('Exif')), size).toBe(false)
      expect(bytes.includes(Buffer.from('TestCam')), size).toBe(false)
      // Upright: the sideways 800 × 600 is now portrait.
      expect((meta.height ?? 0) > (meta.width ?? 0), size).toBe(true)
    }
  })
})

describe('savePhoto: several photos per visit', () => {
  it('keeps every photo of a visit, each with its label, and refuses an unknown label', async () => {
    const visitId = await openVisit(blue)
    for (const label of ['before', 'after', 'other', 'after'] as const) {
      const saved = await savePhoto({
        member: office,
        visitId,
        label,
        fileName: `${label}.jpg`,
        bytes: await jpeg(64, 64),
      })
      expect(saved.ok, label).toBe(true)
    }
    expect(await labelsOf(visitId)).toEqual(['before', 'after', 'other', 'after'])
    expect(filesOfVisit(visitId)).toHaveLength(8)
    const sideways = await savePhoto({
      member: office,
      visitId,
      label: 'sideways',
      fileName: 'x.jpg',
      bytes: await jpeg(64, 64),
    })
    expect(sideways).toEqual({ ok: false, code: 'invalid', message: PHOTO_MESSAGES.badLabel })
    expect(filesOfVisit(visitId)).toHaveLength(8)
  })

  it('stores a photo sent five times with one clientKey once: one row, one set of files, the same answer', async () => {
    const visitId = await openVisit(blue, tech)
    const clientKey = crypto.randomUUID()
    const bytes = await jpeg(200, 150)
    const answers = []
    for (let i = 0; i < 5; i++) {
      answers.push(await savePhoto({ member: asTech, visitId, label: 'before', fileName: 'p.jpg', bytes, clientKey }))
    }
    const first = answers[0]
    if (!first?.ok) throw new Error('first upload failed')
    expect(first.replayed).toBe(false)
    for (const answer of answers.slice(1)) expect(answer).toEqual({ ok: true, photo: first.photo, replayed: true })
    expect(await rowsOf(visitId)).toHaveLength(1)
    const key = await storageKeyOf(first.photo.id)
    expect(filesOfVisit(visitId)).toEqual(
      [photoObjectKey(key, 'full'), photoObjectKey(key, 'thumb')].map((k) => k.split('/')[1]).sort(),
    )
  })

  it('stores five copies arriving at once once, and removes the files the others wrote', async () => {
    const visitId = await openVisit(blue, tech)
    const clientKey = crypto.randomUUID()
    const bytes = await jpeg(300, 200)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        savePhoto({ member: asTech, visitId, label: 'after', fileName: 'p.jpg', bytes, clientKey }),
      ),
    )
    expect(answers.every((answer) => answer.ok)).toBe(true)
    const ids = new Set(answers.map((answer) => (answer.ok ? answer.photo.id : '')))
    expect(ids.size).toBe(1)
    expect(answers.filter((answer) => answer.ok && !answer.replayed)).toHaveLength(1)
    expect(await rowsOf(visitId)).toHaveLength(1)
    expect(filesOfVisit(visitId)).toHaveLength(2)
  })

  it('refuses the same clientKey for another visit', async () => {
    const [first, second] = [await openVisit(blue), await openVisit(blue)]
    const clientKey = crypto.randomUUID()
    const bytes = await jpeg(64, 64)
    expect(
      (await savePhoto({ member: office, visitId: first, label: 'before', fileName: 'a.jpg', bytes, clientKey })).ok,
    ).toBe(true)
    expect(
      await savePhoto({ member: office, visitId: second, label: 'before', fileName: 'a.jpg', bytes, clientKey }),
    ).toEqual({ ok: false, code: 'key-reused', message: KEY_REUSED })
    expect(await rowsOf(second)).toEqual([])
    expect(filesOfVisit(second)).toEqual([])
  })

  it('refuses the same clientKey with another picture, another label or from another user (422), keeping nothing', async () => {
    const visitId = await openVisit(blue)
    const clientKey = crypto.randomUUID()
    const bytes = await jpeg(64, 64)
    const first = await savePhoto({ member: office, visitId, label: 'before', fileName: 'a.jpg', bytes, clientKey })
    expect(first.ok).toBe(true)
    const reused = { ok: false, code: 'key-reused', message: KEY_REUSED }
    const other = await jpeg(64, 64, '#bf2a2a')
    expect(
      await savePhoto({ member: office, visitId, label: 'before', fileName: 'a.jpg', bytes: other, clientKey }),
    ).toEqual(reused)
    expect(await savePhoto({ member: office, visitId, label: 'after', fileName: 'a.jpg', bytes, clientKey })).toEqual(
      reused,
    )
    const admin = { ...office, id: await idOf('owner@bluelagoon.test'), role: 'owner' as const }
    expect(await savePhoto({ member: admin, visitId, label: 'before', fileName: 'a.jpg', bytes, clientKey })).toEqual(
      reused,
    )
    // The true copy still gets the first photo.
    const again = await savePhoto({ member: office, visitId, label: 'before', fileName: 'b.jpg', bytes, clientKey })
    expect(again).toEqual({ ok: true, photo: first.ok ? first.photo : null, replayed: true })
    expect(await rowsOf(visitId)).toHaveLength(1)
    expect(filesOfVisit(visitId)).toHaveLength(2)
  })

  it(`holds at most ${MAX_VISIT_PHOTOS} photos, even when the last ones arrive together`, async () => {
    const visitId = await openVisit(blue)
    // Rows without files stand in for the first 18 photos (decoding 18 pictures proves nothing more).
    await db()
      .insert(visitPhotos)
      .values(
        Array.from({ length: MAX_VISIT_PHOTOS - 2 }, (_, i) => ({
          companyId: blue,
          visitId,
          label: 'other' as const,
          storageKey: `${visitId}/other-placeholder-${i}`,
        })),
      )
    const bytes = await jpeg(64, 64)
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => savePhoto({ member: office, visitId, label: 'after', fileName: 'x.jpg', bytes })),
    )
    expect(answers.filter((answer) => answer.ok)).toHaveLength(2)
    expect(answers.filter((answer) => !answer.ok)).toEqual([
      { ok: false, code: 'conflict', message: PHOTO_MESSAGES.tooMany },
      { ok: false, code: 'conflict', message: PHOTO_MESSAGES.tooMany },
    ])
    expect(PHOTO_MESSAGES.tooMany).toBe('A visit can hold at most 20 photos. Remove one to add another.')
    expect(await rowsOf(visitId)).toHaveLength(MAX_VISIT_PHOTOS)
    // Only the two stored photos left files behind.
    expect(filesOfVisit(visitId)).toHaveLength(4)
  })
})

describe('savePhoto: whose visit', () => {
  it('refuses a photo for a visit the office gave to another technician, with the reason, and keeps nothing', async () => {
    const visitId = await openVisit(blue, tech)
    await db().update(visits).set({ technicianId: tech2 }).where(eq(visits.id, visitId))
    const result = await savePhoto({
      member: asTech,
      visitId,
      label: 'after',
      fileName: 'x.jpg',
      bytes: await jpeg(64, 64),
    })
    expect(result).toEqual({ ok: false, code: 'conflict', message: FIELD_MESSAGES.reassigned })
    expect(await rowsOf(visitId)).toEqual([])
    expect(filesOfVisit(visitId)).toEqual([])
  })

  it('refuses a completed or skipped visit, but answers a replay of a photo it already has', async () => {
    const visitId = await openVisit(blue, tech)
    const clientKey = crypto.randomUUID()
    const bytes = await jpeg(64, 64)
    const first = await savePhoto({ member: asTech, visitId, label: 'after', fileName: 'x.jpg', bytes, clientKey })
    await db().update(visits).set({ completedAt: LONG_AGO }).where(eq(visits.id, visitId))
    expect(await savePhoto({ member: asTech, visitId, label: 'after', fileName: 'y.jpg', bytes })).toEqual({
      ok: false,
      code: 'conflict',
      message: FIELD_MESSAGES.completed,
    })
    if (!first.ok) throw new Error('first upload failed')
    expect(await savePhoto({ member: asTech, visitId, label: 'after', fileName: 'x.jpg', bytes, clientKey })).toEqual({
      ok: true,
      photo: first.photo,
      replayed: true,
    })

    const skipped = await openVisit(blue, tech)
    await db().update(visits).set({ canceledAt: new Date(), skipReason: 'Gate locked' }).where(eq(visits.id, skipped))
    expect(await savePhoto({ member: asTech, visitId: skipped, label: 'before', fileName: 'x.jpg', bytes })).toEqual({
      ok: false,
      code: 'conflict',
      message: 'This visit was skipped: Gate locked.',
    })
    expect(filesOfVisit(skipped)).toEqual([])
  })

  it("answers not found for another company's visit, and a visit id that is not one", async () => {
    const visitId = await openVisit(blue)
    const bytes = await jpeg(64, 64)
    const sunsetOwner: Member = { id: await idOf('owner@sunsetpools.test'), role: 'owner', companyId: sunset }
    const notFound = { ok: false, code: 'not-found', message: PHOTO_MESSAGES.noVisit }
    expect(await savePhoto({ member: sunsetOwner, visitId, label: 'before', fileName: 'x.jpg', bytes })).toEqual({
      ...notFound,
      message: FIELD_MESSAGES.notFound,
    })
    expect(filesOfVisit(visitId)).toEqual([])
    expect(await rowsOf(visitId)).toEqual([])
    expect(await savePhoto({ member: office, visitId: '../etc', label: 'before', fileName: 'x.jpg', bytes })).toEqual(
      notFound,
    )
  })
})

describe('deletePhoto', () => {
  it('lets the technician remove a photo of their open visit: the row, then its files', async () => {
    const visitId = await openVisit(blue, tech)
    const saved = await savePhoto({
      member: asTech,
      visitId,
      label: 'before',
      fileName: 'x.jpg',
      bytes: await jpeg(64, 64),
    })
    if (!saved.ok) throw new Error('upload failed')
    const key = await storageKeyOf(saved.photo.id)
    expect(await deletePhoto({ member: asTech, visitId, photoId: saved.photo.id })).toEqual({ ok: true })
    expect(await rowsOf(visitId)).toEqual([])
    expect(fs.existsSync(fileOf(key))).toBe(false)
    expect(fs.existsSync(fileOf(key, 'thumb'))).toBe(false)
    expect(await deletePhoto({ member: asTech, visitId, photoId: saved.photo.id })).toEqual({
      ok: false,
      code: 'not-found',
      message: PHOTO_MESSAGES.noPhoto,
    })
  })

  it("keeps a completed visit's photos from its technician, lets the office remove one, and no other company", async () => {
    const visitId = await openVisit(blue, tech)
    const saved = await savePhoto({
      member: asTech,
      visitId,
      label: 'after',
      fileName: 'x.jpg',
      bytes: await jpeg(64, 64),
    })
    if (!saved.ok) throw new Error('upload failed')
    await db().update(visits).set({ completedAt: LONG_AGO }).where(eq(visits.id, visitId))
    const photoId = saved.photo.id
    expect(await deletePhoto({ member: asTech, visitId, photoId })).toEqual({
      ok: false,
      code: 'conflict',
      message: FIELD_MESSAGES.completed,
    })
    const sunsetOwner: Member = { id: await idOf('owner@sunsetpools.test'), role: 'owner', companyId: sunset }
    expect(await deletePhoto({ member: sunsetOwner, visitId, photoId })).toMatchObject({ ok: false, code: 'not-found' })
    expect(await rowsOf(visitId)).toHaveLength(1)
    expect(await deletePhoto({ member: office, visitId, photoId })).toEqual({ ok: true })
    expect(await rowsOf(visitId)).toEqual([])
    expect(filesOfVisit(visitId)).toEqual([])
  })
})

describe('getPhotoForViewer', () => {
  it("gives a technician their own visit's photo, and nobody else's", async () => {
    const own = await openVisit(blue, tech)
    const teammates = await openVisit(blue, tech2)
    const ids: Record<string, string> = {}
    for (const [visitId, member] of [
      [own, asTech],
      [teammates, { id: tech2, role: 'tech', companyId: blue }],
    ] as const) {
      const saved = await savePhoto({
        member,
        visitId,
        label: 'before',
        fileName: 'p.jpg',
        bytes: await jpeg(2000, 1000),
      })
      if (!saved.ok) throw new Error('upload failed')
      ids[visitId] = saved.photo.id
    }
    const ownPhoto = ids[own] ?? ''
    const teammatesPhoto = ids[teammates] ?? ''
    const full = await getPhotoForViewer(asTech, own, ownPhoto, 'full')
    expect(full?.contentType).toBe('image/jpeg')
    expect((await sharp(full?.bytes).metadata()).width).toBe(1600)
    const thumb = await getPhotoForViewer(asTech, own, ownPhoto, 'thumb')
    expect((await sharp(thumb?.bytes).metadata()).width).toBe(400)

    expect(await getPhotoForViewer(asTech, teammates, teammatesPhoto)).toBeNull()
    // A photo id of another visit, asked under the technician's own visit.
    expect(await getPhotoForViewer(asTech, own, teammatesPhoto)).toBeNull()
    expect(await getPhotoForViewer(asTech, own, 'before')).toBeNull()
    expect(await getPhotoForViewer(office, teammates, teammatesPhoto)).not.toBeNull()
    expect(await getPhotoForViewer({ id: 'x', role: 'platform_admin', companyId: null }, own, ownPhoto)).not.toBeNull()
    expect(await getPhotoForViewer({ id: 'x', role: 'owner', companyId: sunset }, own, ownPhoto)).toBeNull()
  })

  it('builds the authorized URL from the visit and the photo id', () => {
    const visitId = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b'
    const photoId = '0b7f4a52-7c1e-4d8a-9f3b-2e6d5c4b3a21'
    expect(photoUrl(visitId, photoId)).toBe(`/app/visits/${visitId}/photos/${photoId}`)
    expect(photoUrl(visitId, photoId, 'thumb')).toBe(`/app/visits/${visitId}/photos/${photoId}?size=thumb`)
  })
})

describe('demo photos', () => {
  async function demoRows() {
    return db()
      .select({
        visitId: visitPhotos.visitId,
        companyId: visitPhotos.companyId,
        label: visitPhotos.label,
        key: visitPhotos.storageKey,
      })
      .from(visitPhotos)
      .where(sql`${visitPhotos.storageKey} like '%-demo-%'`)
      .orderBy(asc(visitPhotos.visitId), asc(visitPhotos.createdAt))
  }

  it('give recent completed visits and every visit of Dana Whitfield a before and an after photo', async () => {
    const rows = await demoRows()
    for (const companyId of [blue, sunset]) {
      const visits = new Set(rows.filter((row) => row.companyId === companyId).map((row) => row.visitId))
      expect(visits.size).toBeGreaterThanOrEqual(DEMO_PHOTO_VISITS_PER_COMPANY)
    }
    const danaVisits = await db()
      .select({ id: visits.id })
      .from(visits)
      .innerJoin(customers, eq(customers.id, visits.customerId))
      .innerJoin(user, eq(user.id, customers.portalUserId))
      .where(and(eq(user.email, 'customer@bluelagoon.test'), isNotNull(visits.completedAt)))
    expect(danaVisits.length).toBeGreaterThan(3)
    const ofDana = await db()
      .select({ visitId: visitPhotos.visitId, label: visitPhotos.label, key: visitPhotos.storageKey })
      .from(visitPhotos)
      .where(
        inArray(
          visitPhotos.visitId,
          danaVisits.map((visit) => visit.id),
        ),
      )
      .orderBy(asc(visitPhotos.visitId), asc(visitPhotos.createdAt))
    for (const visit of danaVisits) {
      const photos = ofDana.filter((row) => row.visitId === visit.id)
      expect(photos.map((row) => row.label)).toEqual(['before', 'after'])
      expect(photos[0]?.key).toMatch(/^[0-9a-f-]{36}\/before-\d{13}-demo-before-[0-9a-f]{16}$/)
      expect(photos[1]?.key).toMatch(/^[0-9a-f-]{36}\/after-\d{13}-demo-after-[0-9a-f]{16}$/)
    }
    const sample = ofDana.slice(0, 2)
    const [beforeKey, afterKey] = sample.map((row) => row.key)
    if (!beforeKey || !afterKey) throw new Error('no demo photo')
    for (const key of [beforeKey, afterKey]) {
      for (const size of ['full', 'thumb'] as const) {
        const meta = await sharp(fs.readFileSync(fileOf(key, size))).metadata()
        expect(meta.format).toBe('jpeg')
        expect(meta.exif).toBeUndefined()
      }
    }
    // The before picture is the green one, the after picture the blue one.
    const before = await sharp(fs.readFileSync(fileOf(beforeKey))).stats()
    const after = await sharp(fs.readFileSync(fileOf(afterKey))).stats()
    const [, bG, bB] = before.channels.map((c) => c.mean)
    const [, , aB] = after.channels.map((c) => c.mean)
    expect(bG ?? 0).toBeGreaterThan(bB ?? 0)
    expect(aB ?? 0).toBeGreaterThan(bB ?? 0)
  })

  it('adds nothing when run again', async () => {
    // Other tests of this file complete visits of their own after the seed, and a recent one without photos is the
    // seed's to fill: settle those first, so the run below is a repeat of the one before it, whatever ran earlier.
    await seedDemoPhotos(db())
    const before = await demoRows()
    expect(await seedDemoPhotos(db())).toBe(0)
    expect(await demoRows()).toEqual(before)
  })
})
