import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { companies, customers, jobs, profiles, user } from '~/db/schema'
import { DEMO_PHOTO_JOBS_PER_COMPANY, seedDemoData, seedDemoPhotos } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import {
  getPhotoForViewer,
  MAX_PHOTO_BYTES,
  PHOTO_MESSAGES,
  photoObjectKey,
  photoUrl,
  sanitiseFileName,
  savePhoto,
} from './photo.server'

const uploads = () => path.join(process.env.DATA_DIR as string, 'uploads')
const fileOf = (key: string, size: 'full' | 'thumb' = 'full') => path.join(uploads(), photoObjectKey(key, size))

let blue: string
let sunset: string
let tech: string
let tech2: string

async function idOf(email: string) {
  const [row] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email))
  if (!row) throw new Error(`no profile ${email}`)
  return row.id
}

/** A job of `companyId` with no photos yet (open jobs get none from the demo), optionally `technicianId`'s. */
async function jobWithoutPhotos(companyId: string, technicianId?: string) {
  const filters = [
    eq(jobs.companyId, companyId),
    isNull(jobs.completedAt),
    isNull(jobs.beforeUrl),
    isNull(jobs.afterUrl),
  ]
  if (technicianId) filters.push(eq(jobs.technicianId, technicianId))
  const [row] = await db()
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(...filters))
    .limit(1)
  if (!row) throw new Error('no job without photos')
  // Mark it as used so the next call returns a different job.
  await db()
    .update(jobs)
    .set({ address: `${row.id} (photo test)` })
    .where(eq(jobs.id, row.id))
  return row.id
}

async function photoKeys(jobId: string) {
  const [row] = await db().select({ before: jobs.beforeUrl, after: jobs.afterUrl }).from(jobs).where(eq(jobs.id, jobId))
  return row
}

function filesOfJob(jobId: string) {
  const folder = path.join(uploads(), jobId)
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

function jpeg(width: number, height: number, colour = '#2a7fbf') {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer()
}

beforeAll(async () => {
  await seedDemoData(db())
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  tech = await idOf('tech@bluelagoon.test')
  tech2 = await idOf('tech2@bluelagoon.test')
})

describe('savePhoto', () => {
  it('stores a JPEG as a web-size image and a thumbnail, and points the job at its key', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const result = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: 'IMG_2041.JPG',
      bytes: await jpeg(3000, 2000),
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.key).toMatch(new RegExp(`^${jobId}/before-\\d{13}-img-2041-[0-9a-f]{16}$`))
    expect(await photoKeys(jobId)).toEqual({ before: result.key, after: null })

    const full = await sharp(fs.readFileSync(fileOf(result.key))).metadata()
    expect(full).toMatchObject({ format: 'jpeg', width: 1600, height: 1067 })
    const thumb = await sharp(fs.readFileSync(fileOf(result.key, 'thumb'))).metadata()
    expect(thumb).toMatchObject({ format: 'jpeg', width: 400, height: 267 })
  })

  it('stores a PNG (transparency and all) as JPEG without enlarging a small image', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const png = await sharp({
      create: { width: 500, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer()
    const result = await savePhoto({ companyId: blue, jobId, kind: 'after', fileName: 'pool.png', bytes: png })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const full = sharp(fs.readFileSync(fileOf(result.key)))
    expect(await full.metadata()).toMatchObject({ format: 'jpeg', width: 500, height: 300, hasAlpha: false })
    // Transparent areas become white, not black.
    const { dominant } = await full.stats()
    expect(dominant).toEqual({ r: 248, g: 248, b: 248 })
    expect(await photoKeys(jobId)).toEqual({ before: null, after: result.key })
  })

  it('refuses a text file renamed .jpg, and writes nothing', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const result = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: 'holiday.jpg',
      bytes: Buffer.from('This is not a photo, just some text pretending to be one.\n'.repeat(50)),
    })
    expect(result).toEqual({ ok: false, message: 'Choose an image file (JPEG, PNG, WebP or HEIC).' })
    expect(filesOfJob(jobId)).toEqual([])
    expect(await photoKeys(jobId)).toEqual({ before: null, after: null })
  })

  it('refuses an SVG, which is an image sharp can read but not one we accept', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    )
    const result = await savePhoto({ companyId: blue, jobId, kind: 'before', fileName: 'x.jpg', bytes: svg })
    expect(result).toEqual({ ok: false, message: PHOTO_MESSAGES.notImage })
  })

  it('refuses a truncated JPEG', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const whole = await jpeg(1200, 900)
    const result = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: 'cut.jpg',
      bytes: whole.subarray(0, Math.floor(whole.length / 2)),
    })
    expect(result).toEqual({ ok: false, message: PHOTO_MESSAGES.notImage })
    expect(filesOfJob(jobId)).toEqual([])
  })

  it('refuses anything over 15 MB before looking at it', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const big = Buffer.alloc(16 * 1024 * 1024, 0xff)
    const result = await savePhoto({ companyId: blue, jobId, kind: 'before', fileName: 'big.jpg', bytes: big })
    expect(result).toEqual({ ok: false, message: 'Photos must be 15 MB or smaller.' })
    expect(MAX_PHOTO_BYTES).toBe(15 * 1024 * 1024)
    expect(filesOfJob(jobId)).toEqual([])
  })

  it('refuses a decompression bomb: a small file of 10000 × 10000 pixels', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const bomb = pngBomb(10_000, 10_000)
    // It really is a 100-megapixel image that sharp can read.
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 10_000 })
    expect(bomb.length).toBeLessThan(MAX_PHOTO_BYTES)
    const result = await savePhoto({ companyId: blue, jobId, kind: 'before', fileName: 'bomb.png', bytes: bomb })
    expect(result).toEqual({ ok: false, message: PHOTO_MESSAGES.tooManyPixels })
    expect(filesOfJob(jobId)).toEqual([])
  })

  it('keeps a path-traversal file name inside the uploads folder', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const result = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: '../../etc/passwd.jpg',
      bytes: await jpeg(64, 64),
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.key).toMatch(new RegExp(`^${jobId}/before-\\d{13}-passwd-[0-9a-f]{16}$`))
    const file = fileOf(result.key)
    expect(path.resolve(file).startsWith(`${path.resolve(uploads())}${path.sep}`)).toBe(true)
    expect(fs.existsSync(file)).toBe(true)
    expect(fs.existsSync(path.join(process.env.DATA_DIR as string, 'etc'))).toBe(false)
    expect(sanitiseFileName('..\\..\\Windows\\system32.ini')).toBe('system32')
    expect(sanitiseFileName('....jpg')).toBe('photo')
  })

  it('strips EXIF (GPS included) and turns the picture upright first', async () => {
    const jobId = await jobWithoutPhotos(blue)
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

    const result = await savePhoto({ companyId: blue, jobId, kind: 'after', fileName: 'gps.jpg', bytes: withGps })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    for (const size of ['full', 'thumb'] as const) {
      const bytes = fs.readFileSync(fileOf(result.key, size))
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

  it('replacing a photo deletes the old files', async () => {
    const jobId = await jobWithoutPhotos(blue)
    const first = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: 'a.jpg',
      bytes: await jpeg(64, 64),
    })
    const after = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'after',
      fileName: 'c.jpg',
      bytes: await jpeg(64, 64),
    })
    if (!first.ok || !after.ok) throw new Error('upload failed')
    expect(fs.existsSync(fileOf(first.key))).toBe(true)
    const second = await savePhoto({
      companyId: blue,
      jobId,
      kind: 'before',
      fileName: 'b.jpg',
      bytes: await jpeg(64, 64, '#ff0000'),
    })
    if (!second.ok) throw new Error('upload failed')
    expect(second.key).not.toBe(first.key)
    expect(fs.existsSync(fileOf(first.key))).toBe(false)
    expect(fs.existsSync(fileOf(first.key, 'thumb'))).toBe(false)
    expect(await photoKeys(jobId)).toEqual({ before: second.key, after: after.key })
    // Only the current before and after photos are left, each with its thumbnail; the other kind is untouched.
    expect(filesOfJob(jobId)).toEqual(
      [
        photoObjectKey(second.key, 'full'),
        photoObjectKey(second.key, 'thumb'),
        photoObjectKey(after.key, 'full'),
        photoObjectKey(after.key, 'thumb'),
      ]
        .map((key) => key.split('/')[1])
        .sort(),
    )
  })

  it("refuses another company's job, and a job id that is not one", async () => {
    const jobId = await jobWithoutPhotos(blue)
    const bytes = await jpeg(64, 64)
    expect(await savePhoto({ companyId: sunset, jobId, kind: 'before', fileName: 'x.jpg', bytes })).toEqual({
      ok: false,
      message: 'Job not found.',
    })
    expect(filesOfJob(jobId)).toEqual([])
    expect(await photoKeys(jobId)).toEqual({ before: null, after: null })
    expect(await savePhoto({ companyId: blue, jobId: '../etc', kind: 'before', fileName: 'x.jpg', bytes })).toEqual({
      ok: false,
      message: 'Job not found.',
    })
  })
})

describe('getPhotoForViewer', () => {
  it("gives a technician their own job's photo, and nobody else's", async () => {
    const own = await jobWithoutPhotos(blue, tech)
    const teammates = await jobWithoutPhotos(blue, tech2)
    for (const jobId of [own, teammates]) {
      const saved = await savePhoto({
        companyId: blue,
        jobId,
        kind: 'before',
        fileName: 'p.jpg',
        bytes: await jpeg(2000, 1000),
      })
      expect(saved.ok).toBe(true)
    }
    const asTech = { id: tech, role: 'tech', companyId: blue }
    const full = await getPhotoForViewer(asTech, own, 'before', 'full')
    expect(full?.contentType).toBe('image/jpeg')
    expect((await sharp(full?.bytes).metadata()).width).toBe(1600)
    const thumb = await getPhotoForViewer(asTech, own, 'before', 'thumb')
    expect((await sharp(thumb?.bytes).metadata()).width).toBe(400)

    expect(await getPhotoForViewer(asTech, teammates, 'before')).toBeNull()
    expect(await getPhotoForViewer(asTech, own, 'after')).toBeNull()
    expect(await getPhotoForViewer(asTech, own, 'sideways')).toBeNull()
    expect(
      await getPhotoForViewer({ id: 'x', role: 'dispatcher', companyId: blue }, teammates, 'before'),
    ).not.toBeNull()
    expect(await getPhotoForViewer({ id: 'x', role: 'owner', companyId: sunset }, own, 'before')).toBeNull()
  })

  it('builds the authorised URL with a cache-busting version from the key', () => {
    const jobId = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b'
    expect(photoUrl(jobId, 'after', null)).toBeNull()
    expect(photoUrl(jobId, 'after', `${jobId}/after-1700000000000-pool-0123456789abcdef`)).toBe(
      `/app/jobs/${jobId}/photos/after?v=0123456789abcdef`,
    )
  })
})

describe('demo photos', () => {
  it('give recent completed jobs and every visit of Dana Whitfield a before and an after photo', async () => {
    const photographed = await db()
      .select({ id: jobs.id, companyId: jobs.companyId, before: jobs.beforeUrl, after: jobs.afterUrl })
      .from(jobs)
      .where(isNotNull(jobs.beforeUrl))
    for (const companyId of [blue, sunset]) {
      expect(photographed.filter((j) => j.companyId === companyId).length).toBeGreaterThanOrEqual(
        DEMO_PHOTO_JOBS_PER_COMPANY,
      )
    }
    const danaVisits = await db()
      .select({ before: jobs.beforeUrl, after: jobs.afterUrl })
      .from(jobs)
      .innerJoin(customers, eq(customers.id, jobs.customerId))
      .innerJoin(user, eq(user.id, customers.portalUserId))
      .where(and(eq(user.email, 'customer@bluelagoon.test'), isNotNull(jobs.completedAt)))
    expect(danaVisits.length).toBeGreaterThan(3)
    for (const visit of danaVisits) {
      expect(visit.before).toMatch(/^[0-9a-f-]{36}\/before-\d{13}-demo-before-[0-9a-f]{16}$/)
      expect(visit.after).toMatch(/^[0-9a-f-]{36}\/after-\d{13}-demo-after-[0-9a-f]{16}$/)
    }
    const sample = photographed.find((j) => j.before?.includes('-demo-before-'))
    if (!sample?.before || !sample.after) throw new Error('no demo photo')
    for (const key of [sample.before, sample.after]) {
      for (const size of ['full', 'thumb'] as const) {
        const meta = await sharp(fs.readFileSync(fileOf(key, size))).metadata()
        expect(meta.format).toBe('jpeg')
        expect(meta.exif).toBeUndefined()
      }
    }
    // The before picture is the green one, the after picture the blue one.
    const before = await sharp(fs.readFileSync(fileOf(sample.before))).stats()
    const after = await sharp(fs.readFileSync(fileOf(sample.after))).stats()
    const [bR, bG, bB] = before.channels.map((c) => c.mean)
    const [, , aB] = after.channels.map((c) => c.mean)
    expect(bG ?? 0).toBeGreaterThan(bB ?? 0)
    expect(aB ?? 0).toBeGreaterThan(bB ?? 0)
    expect(bR).toBeDefined()
  })

  it('adds nothing when run again', async () => {
    const before = await db().select({ id: jobs.id, key: jobs.beforeUrl }).from(jobs).where(isNotNull(jobs.beforeUrl))
    expect(await seedDemoPhotos(db())).toBe(0)
    const again = await db().select({ id: jobs.id, key: jobs.beforeUrl }).from(jobs).where(isNotNull(jobs.beforeUrl))
    expect(again).toEqual(before)
  })
})
