import { and, asc, count, desc, eq, gte, isNotNull, isNull, lt, ne, or } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { chemLogs, companies, customers, profiles, visitPhotos, visits } from '~/db/schema'
import { db } from '~/utils/db.server'
import { addTestCustomer, findTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { skipAsOffice } from '../../tests/helpers/visits'
import {
  getPortal,
  getPortalPhoto,
  PORTAL_GALLERY_PHOTOS,
  PORTAL_READINGS_LIMIT,
  PORTAL_VISITS_PER_PAGE,
  portalPhotoUrl,
} from './portal.server'
import { createVisit } from './visit-changes.server'

let blue: string
let sunset: string
let dana: { id: string; portalUserId: string | null }
let marco: { id: string }

async function customerNamed(name: string) {
  const [row] = await db()
    .select({ id: customers.id, portalUserId: customers.portalUserId })
    .from(customers)
    .where(eq(customers.customerName, name))
  if (!row) throw new Error(`no customer ${name}`)
  return row
}

async function visitIdsOf(customerId: string) {
  const rows = await db().select({ id: visits.id }).from(visits).where(eq(visits.customerId, customerId))
  return new Set(rows.map((r) => r.id))
}

async function danaPortal(page = 1, now = new Date()) {
  const portal = await getPortal({ companyId: blue, customerId: dana.id, page, now })
  if (!portal) throw new Error("Dana's portal is missing")
  return portal
}

beforeAll(async () => {
  await useDemoData()
  const rows = await db().select({ id: companies.id, name: companies.name }).from(companies)
  blue = rows.find((c) => c.name === 'Blue Lagoon Pool Co.')?.id ?? ''
  sunset = rows.find((c) => c.name === 'Sunset Pool Care')?.id ?? ''
  dana = await customerNamed('Dana Whitfield')
  marco = await customerNamed('Marco Ruiz')
})

describe("getPortal: Dana Whitfield's demo portal", () => {
  it('shows her header, both completed and scheduled visits, newest scheduled first', async () => {
    // A visit of this morning not yet worked, whatever the hour and weekday the test runs: the demo's own open visits
    // are in the past only on some days.
    const open = await createVisit({
      companyId: blue,
      customerId: dana.id,
      scheduledAt: new Date(Date.now() - 3_600_000),
      technicianId: null,
    })
    if (!open) throw new Error('no visit')
    const portal = await danaPortal()
    expect(portal.customer).toEqual({
      name: 'Dana Whitfield',
      // Her first service location's address; the phone as stored (E.164), which the page formats.
      address: '4107 W San Miguel St, Tampa, FL 33629',
      phone: '+18135550101',
      balanceDueCents: 24000,
      // No card saved for automatic payments in the demo.
      autopayCardLabel: null,
    })
    expect(portal.companyName).toBe('Blue Lagoon Pool Co.')
    const rows = portal.visits.rows
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((v) => v.completedAt !== null)).toBe(true)
    expect(rows.some((v) => v.completedAt === null)).toBe(true)
    const times = rows.map((v) => v.scheduledAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(rows.every((v) => v.address.length > 0)).toBe(true)
    // Assigned visits carry the technician's full name.
    expect(rows.some((v) => typeof v.technicianName === 'string' && v.technicianName.length > 0)).toBe(true)
  })

  it('counts completed and recorded visits in SQL, equal to direct counts over every visit', async () => {
    const portal = await danaPortal()
    const [total] = await db().select({ n: count() }).from(visits).where(eq(visits.customerId, dana.id))
    const [completed] = await db()
      .select({ n: count() })
      .from(visits)
      .where(and(eq(visits.customerId, dana.id), isNotNull(visits.completedAt)))
    expect(portal.counts).toEqual({ total: total?.n, completed: completed?.n })
    expect(portal.counts.completed).toBeGreaterThan(0)
    // The history holds the visits that are due or done; the ones still ahead are the "next visit".
    const [history] = await db()
      .select({ n: count() })
      .from(visits)
      .where(
        and(
          eq(visits.customerId, dana.id),
          or(lt(visits.scheduledAt, new Date()), isNotNull(visits.completedAt), isNotNull(visits.canceledAt)),
        ),
      )
    expect(portal.visits.total).toBe(history?.n)
  })

  it('keeps visits still ahead out of the history, and shows a skipped one with its reason', async () => {
    const ahead = await createVisit({
      companyId: blue,
      customerId: dana.id,
      scheduledAt: new Date(Date.now() + 3 * 86_400_000),
      technicianId: null,
    })
    const skipped = await createVisit({
      companyId: blue,
      customerId: dana.id,
      scheduledAt: new Date(Date.now() - 3_600_000),
      technicianId: null,
    })
    if (!ahead || !skipped) throw new Error('no visits')
    expect((await skipAsOffice({ companyId: blue, visitId: skipped.id, reason: 'Locked gate' })).ok).toBe(true)
    const portal = await danaPortal()
    const ids = portal.visits.rows.map((row) => row.id)
    expect(ids).not.toContain(ahead.id)
    expect(portal.visits.rows.find((row) => row.id === skipped.id)).toMatchObject({ skipReason: 'Locked gate' })
  })

  it('lists the 12 most recent readings across her visits, newest first, with the visit date', async () => {
    const portal = await danaPortal()
    const expected = await db()
      .select({ ph: chemLogs.ph, takenAt: chemLogs.takenAt, visit: visits.scheduledAt })
      .from(chemLogs)
      .innerJoin(visits, eq(visits.id, chemLogs.visitId))
      .where(eq(visits.customerId, dana.id))
      .orderBy(desc(chemLogs.takenAt))
      .limit(PORTAL_READINGS_LIMIT)
    expect(expected).toHaveLength(PORTAL_READINGS_LIMIT)
    expect(portal.readings.map((r) => [r.takenAt.getTime(), r.ph, r.visitScheduledAt.getTime()])).toEqual(
      expected.map((r) => [r.takenAt.getTime(), r.ph, r.visit.getTime()]),
    )
    expect(portal.latestReading).toEqual(portal.readings[0])
  })

  it("shows each visit's latest reading, and none for visits without one", async () => {
    // A second, later reading on one completed visit: the history must show that one.
    const [visit] = await db()
      .select({ id: visits.id, completedAt: visits.completedAt })
      .from(visits)
      .where(and(eq(visits.customerId, dana.id), isNotNull(visits.completedAt)))
      .orderBy(desc(visits.scheduledAt))
      .limit(1)
    if (!visit?.completedAt) throw new Error('Dana has no completed visit')
    await db()
      .insert(chemLogs)
      .values({
        companyId: blue,
        visitId: visit.id,
        ph: 7.8,
        chlorinePpm: 4.5,
        alkalinity: 120,
        takenAt: new Date(visit.completedAt.getTime() + 60_000),
      })
    const portal = await danaPortal()
    const row = portal.visits.rows.find((v) => v.id === visit.id)
    expect(row?.reading).toMatchObject({ ph: 7.8, chlorinePpm: 4.5, alkalinity: 120 })
    expect(portal.latestReading).toMatchObject({ ph: 7.8, chlorinePpm: 4.5, alkalinity: 120 })
    for (const open of portal.visits.rows.filter((v) => v.completedAt === null)) expect(open.reading).toBeNull()
  })

  it("lists each visit's labeled photos in the order taken, and fills the gallery with her newest photos", async () => {
    const portal = await danaPortal()
    const withPhotos = portal.visits.rows.filter((v) => v.photos.length > 0)
    expect(withPhotos.length).toBeGreaterThan(0)
    for (const visit of withPhotos) expect(visit.photos.map((p) => p.label)).toEqual(['before', 'after'])
    const stored = await db()
      .select({ id: visitPhotos.id })
      .from(visitPhotos)
      .where(eq(visitPhotos.visitId, withPhotos[0]?.id ?? ''))
      .orderBy(asc(visitPhotos.createdAt))
    expect(withPhotos[0]?.photos.map((p) => p.id)).toEqual(stored.map((p) => p.id))
    expect(portal.gallery.length).toBeGreaterThan(0)
    expect(portal.gallery.length).toBeLessThanOrEqual(PORTAL_GALLERY_PHOTOS)
    const own = await visitIdsOf(dana.id)
    expect(portal.gallery.every((g) => own.has(g.visitId))).toBe(true)
    const times = portal.gallery.map((g) => g.scheduledAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })

  it('names the earliest open visit from now as the next one, with its technician', async () => {
    const now = new Date()
    const portal = await danaPortal(1, now)
    const [expected] = await db()
      .select({ scheduledAt: visits.scheduledAt, technicianName: profiles.fullName })
      .from(visits)
      .leftJoin(profiles, eq(profiles.id, visits.technicianId))
      .where(and(eq(visits.customerId, dana.id), isNull(visits.completedAt), gte(visits.scheduledAt, now)))
      .orderBy(asc(visits.scheduledAt))
      .limit(1)
    expect(expected).toBeDefined()
    expect(portal.nextVisit?.scheduledAt.getTime()).toBe(expected?.scheduledAt.getTime())
    expect(portal.nextVisit?.technicianName ?? null).toBe(expected?.technicianName ?? null)
    // Far in the future there is nothing left to visit.
    const later = await danaPortal(1, new Date(now.getTime() + 365 * 86_400_000))
    expect(later.nextVisit).toBeNull()
  })

  it('carries no internal field: no company, login or technician ids, emails or storage keys', async () => {
    const portal = await danaPortal()
    const text = JSON.stringify(portal)
    const technicians = await db()
      .select({ id: profiles.id, email: profiles.email })
      .from(profiles)
      .where(eq(profiles.companyId, blue))
    const keys = await db()
      .select({ key: visitPhotos.storageKey })
      .from(visitPhotos)
      .innerJoin(visits, eq(visits.id, visitPhotos.visitId))
      .where(eq(visits.customerId, dana.id))
    const secrets = [
      blue,
      dana.id,
      dana.portalUserId ?? '',
      'customer@bluelagoon.test',
      ...technicians.flatMap((t) => [t.id, t.email ?? '']),
      ...keys.map((k) => k.key),
    ].filter(Boolean)
    expect(keys.length).toBeGreaterThan(0)
    for (const secret of secrets) expect(text).not.toContain(secret)
    expect(text).not.toMatch(/companyId|portalUserId|technicianId|email/i)
  })
})

describe('getPortal: tenancy', () => {
  it("never shows Marco's (or any other customer's) visits in Dana's portal", async () => {
    const portal = await danaPortal()
    const own = await visitIdsOf(dana.id)
    const marcos = await visitIdsOf(marco.id)
    expect(marcos.size).toBeGreaterThan(0)
    const shown = [...portal.visits.rows.map((v) => v.id), ...portal.gallery.map((g) => g.visitId)]
    expect(shown.every((id) => own.has(id) && !marcos.has(id))).toBe(true)
    const marcoRow = await findTestCustomer('Marco Ruiz')
    expect(JSON.stringify(portal)).not.toContain(marcoRow.address)
    expect(JSON.stringify(portal)).not.toContain('Marco')
  })

  it("shows a reading in its visit's customer's portal only, whatever customer an insert or a change says", async () => {
    const [marcoVisit] = await db()
      .select({ id: visits.id, companyId: visits.companyId })
      .from(visits)
      .where(eq(visits.customerId, marco.id))
      .limit(1)
    if (!marcoVisit) throw new Error("no visit of Marco's")
    // The newest reading of all, on Marco's visit (of another company), claiming to be Dana's: the database keeps the
    // visit's customer.
    const [reading] = await db()
      .insert(chemLogs)
      .values({
        companyId: marcoVisit.companyId,
        visitId: marcoVisit.id,
        customerId: dana.id,
        ph: 7.9,
        chlorinePpm: 4.4,
        alkalinity: 99,
      })
      .returning({ id: chemLogs.id, customerId: chemLogs.customerId })
    expect(reading?.customerId).toBe(marco.id)
    await db()
      .update(chemLogs)
      .set({ customerId: dana.id })
      .where(eq(chemLogs.id, reading?.id ?? ''))
    const [changed] = await db()
      .select({ customerId: chemLogs.customerId })
      .from(chemLogs)
      .where(eq(chemLogs.id, reading?.id ?? ''))
    expect(changed?.customerId).toBe(marco.id)
    const portal = await danaPortal()
    expect(portal.readings.map((r) => r.alkalinity)).not.toContain(99)
    expect(portal.readings).toHaveLength(PORTAL_READINGS_LIMIT)
    await db()
      .delete(chemLogs)
      .where(eq(chemLogs.id, reading?.id ?? ''))
  })

  it('finds nothing for a customer id of another company, or in another company', async () => {
    expect(await getPortal({ companyId: blue, customerId: marco.id })).toBeNull()
    expect(await getPortal({ companyId: sunset, customerId: dana.id })).toBeNull()
    expect(await getPortal({ companyId: blue, customerId: 'not-a-uuid' })).toBeNull()
  })
})

describe('getPortal: visit history pages', () => {
  let customerId: string
  let allIds: string[]

  beforeAll(async () => {
    const customer = await addTestCustomer(blue, {
      customerName: 'Paging Test Customer',
      address: '1 Long History Way',
    })
    customerId = customer.id
    const start = Date.UTC(2023, 0, 2, 14)
    // 120 visits, five at a time sharing a time slot, so only the id can keep pages apart.
    const rows = Array.from({ length: 120 }, (_, i) => ({
      companyId: blue,
      customerId,
      locationId: customer.locationId,
      customerName: 'Paging Test Customer',
      address: '1 Long History Way',
      scheduledAt: new Date(start + Math.floor(i / 5) * 7 * 86_400_000),
      completedAt: i < 100 ? new Date(start + Math.floor(i / 5) * 7 * 86_400_000 + 3_600_000) : null,
    }))
    const inserted = await db().insert(visits).values(rows).returning({ id: visits.id })
    allIds = inserted.map((r) => r.id)
  })

  it('shows 20 visits a page; the pages together hold every visit once, newest first', async () => {
    const pages = []
    for (const page of [1, 2, 3, 4, 5, 6]) {
      const portal = await getPortal({ companyId: blue, customerId, page })
      if (!portal) throw new Error('missing portal')
      expect(portal.visits.page).toBe(page)
      expect(portal.visits.pageCount).toBe(6)
      expect(portal.visits.pageSize).toBe(PORTAL_VISITS_PER_PAGE)
      pages.push(portal.visits.rows)
    }
    expect(pages.map((rows) => rows.length)).toEqual([20, 20, 20, 20, 20, 20])
    const ids = pages.flat().map((v) => v.id)
    expect(new Set(ids).size).toBe(120)
    expect(new Set(ids)).toEqual(new Set(allIds))
    const times = pages.flat().map((v) => v.scheduledAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    const first = await getPortal({ companyId: blue, customerId, page: 1 })
    expect(first?.counts).toEqual({ completed: 100, total: 120 })
  })

  it('answers a page past the end with no rows but the true page count', async () => {
    const portal = await getPortal({ companyId: blue, customerId, page: 9 })
    expect(portal?.visits.rows).toEqual([])
    expect(portal?.visits.pageCount).toBe(6)
  })

  it('shows an empty portal for a customer without visits', async () => {
    const fresh = await addTestCustomer(blue, { customerName: 'No Visits Yet', address: '2 Quiet Lane' })
    const portal = await getPortal({ companyId: blue, customerId: fresh.id })
    expect(portal).toMatchObject({
      counts: { completed: 0, total: 0 },
      nextVisit: null,
      latestReading: null,
      readings: [],
      gallery: [],
      visits: { page: 1, pageCount: 1, total: 0, rows: [] },
    })
  })
})

describe('portalPhotoUrl', () => {
  it('points at the portal photo route', () => {
    expect(portalPhotoUrl('c', 'j', 'p')).toBe('/customer/c/photos/j/p')
    expect(portalPhotoUrl('c', 'j', 'p', 'thumb')).toBe('/customer/c/photos/j/p?size=thumb')
  })
})

describe('getPortalPhoto', () => {
  /** A visit of `customerId`'s (or, with `other`, of another Blue Lagoon customer) and its photo ids. */
  async function photographedVisit(customerId: string, other = false) {
    const [row] = await db()
      .select({ visitId: visitPhotos.visitId })
      .from(visitPhotos)
      .innerJoin(visits, eq(visits.id, visitPhotos.visitId))
      .where(
        and(eq(visits.companyId, blue), other ? ne(visits.customerId, customerId) : eq(visits.customerId, customerId)),
      )
      .limit(1)
    if (!row) throw new Error('no photographed visit')
    const photos = await db()
      .select({ id: visitPhotos.id })
      .from(visitPhotos)
      .where(eq(visitPhotos.visitId, row.visitId))
      .orderBy(asc(visitPhotos.createdAt))
    return { visitId: row.visitId, photoIds: photos.map((p) => p.id) }
  }

  it("returns the bytes of Dana's own visit photos, full size and thumbnail", async () => {
    const { visitId, photoIds } = await photographedVisit(dana.id)
    expect(photoIds.length).toBeGreaterThan(1)
    for (const photoId of photoIds) {
      const full = await getPortalPhoto({ companyId: blue, customerId: dana.id, visitId, photoId })
      const thumb = await getPortalPhoto({ companyId: blue, customerId: dana.id, visitId, photoId, size: 'thumb' })
      expect(full?.bytes.byteLength).toBeGreaterThan(0)
      expect(thumb?.bytes.byteLength).toBeGreaterThan(0)
      expect(thumb?.bytes.byteLength).toBeLessThan(full?.bytes.byteLength ?? 0)
    }
  })

  it("returns nothing for another customer's visit paired with Dana's id, or a photo of another visit", async () => {
    const own = await photographedVisit(dana.id)
    const neighbor = await photographedVisit(dana.id, true)
    const ownPhoto = own.photoIds[0] ?? ''
    const theirPhoto = neighbor.photoIds[0] ?? ''
    const cases = [
      { companyId: blue, customerId: dana.id, visitId: neighbor.visitId, photoId: theirPhoto },
      { companyId: blue, customerId: dana.id, visitId: own.visitId, photoId: theirPhoto },
      { companyId: sunset, customerId: dana.id, visitId: own.visitId, photoId: ownPhoto },
      { companyId: blue, customerId: marco.id, visitId: own.visitId, photoId: ownPhoto },
      { companyId: blue, customerId: dana.id, visitId: own.visitId, photoId: 'before' },
      { companyId: blue, customerId: dana.id, visitId: 'not-a-visit', photoId: ownPhoto },
    ]
    for (const args of cases) expect(await getPortalPhoto(args)).toBeNull()
  })
})
