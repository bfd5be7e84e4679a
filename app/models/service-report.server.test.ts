// The service report a customer receives when their visit is marked complete: queued with the completion,
// sent once, never when the company turned reports off or the customer has no email, and carrying the
// visit's own readings and photos.
import { and, asc, eq, inArray } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  checklistItems,
  companies,
  customers,
  emailOutbox,
  profiles,
  serviceReports,
  visitChecks,
  visitPhotos,
  visits,
} from '~/db/schema'
import type { PhotoLabel } from '~/db/schema/visit-work'
import type { OutgoingMail } from '~/outbox/email-transport.server'
import { deliverDueEmails } from '~/outbox/worker.server'
import { db } from '~/utils/db.server'
import { getObject } from '~/utils/storage.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { useDemoData } from '../../tests/helpers/test-database'
import { addChemLog } from './chem-log.server'
import { photoObjectKey } from './photo.server'
import { getVisitReport } from './service-report.server'
import { completeVisit, createVisit } from './visit-changes.server'

let blue: string
let dana: { id: string; name: string; address: string }
let techId: string
let photoKeys: { before: string; after: string }

beforeAll(async () => {
  await useDemoData()
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const customer = await findTestCustomer('Dana Whitfield', blue)
  dana = { id: customer.id, name: customer.customerName, address: customer.address }
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
  // The seed stored a before and an after photo on each of Dana's visits; new visits reuse those files.
  const [seeded] = await db()
    .select({ visitId: visitPhotos.visitId })
    .from(visitPhotos)
    .innerJoin(visits, eq(visits.id, visitPhotos.visitId))
    .where(eq(visits.customerId, dana.id))
    .limit(1)
  const keys = await db()
    .select({ label: visitPhotos.label, key: visitPhotos.storageKey })
    .from(visitPhotos)
    .where(eq(visitPhotos.visitId, seeded?.visitId ?? ''))
  const before = keys.find((k) => k.label === 'before')?.key
  const after = keys.find((k) => k.label === 'after')?.key
  if (!before || !after) throw new Error('no seeded photos')
  photoKeys = { before, after }
})

beforeEach(async () => {
  // Earlier tests' emails are delivered (and forgotten) so each test reads only its own.
  await deliverDueEmails({ transport: { send: async () => {} } })
  await db()
    .update(companies)
    .set({ serviceReportsEnabled: true, itemizeChemicals: true })
    .where(eq(companies.id, blue))
})

/** A visit of Dana's with photos labeled `photos` (in that order), each on the seeded before or after files. */
async function visitForDana({ photos = ['before', 'after'] as PhotoLabel[] } = {}) {
  const visit = await createVisit({
    companyId: blue,
    customerId: dana.id,
    customerName: dana.name,
    address: dana.address,
    scheduledAt: new Date(),
    technicianId: techId,
  })
  if (!visit) throw new Error('visit not created')
  const taken = Date.now()
  for (const [index, label] of photos.entries()) {
    await db()
      .insert(visitPhotos)
      .values({
        companyId: blue,
        visitId: visit.id,
        label,
        storageKey: index % 2 === 0 ? photoKeys.before : photoKeys.after,
        createdAt: new Date(taken + index * 1000),
      })
  }
  return visit.id
}

/** Ticks the company's checklist items with these labels on the visit, as the technician's phone does. */
async function tick(visitId: string, labels: string[]) {
  const items = await db()
    .select({ id: checklistItems.id, label: checklistItems.label })
    .from(checklistItems)
    .where(and(eq(checklistItems.companyId, blue), inArray(checklistItems.label, labels)))
  expect(items).toHaveLength(labels.length)
  await db()
    .insert(visitChecks)
    .values(items.map((item) => ({ companyId: blue, visitId, itemId: item.id, label: item.label })))
}

async function deliver() {
  const sent: OutgoingMail[] = []
  await deliverDueEmails({ transport: { send: async (mail) => void sent.push(mail) } })
  return sent
}

describe('completing a visit', () => {
  it('emails the customer a report with the visit’s readings, their status and its photos, once', async () => {
    const visitId = await visitForDana()
    await addChemLog({ companyId: blue, visitId, reading: { ph: 7.9, chlorinePpm: 0.5, alkalinity: 70 } })
    await tick(visitId, ['Brush walls', 'Vacuum pool'])
    await db()
      .update(visits)
      .set({ customerNote: 'Your pump is noisy; we will look next week.' })
      .where(eq(visits.id, visitId))

    expect(await completeVisit({ companyId: blue, visitId })).toEqual({ ok: true })
    expect(await completeVisit({ companyId: blue, visitId })).toMatchObject({ ok: false, code: 'conflict' })
    const sent = await deliver()

    expect(sent).toHaveLength(1)
    const [mail] = sent
    expect(mail?.to).toBe('customer@bluelagoon.test')
    expect(mail?.subject).toMatch(/^Service report: Blue Lagoon Pool Co\., /)
    expect(mail?.text).toContain('pH 7.9 · chlorine 0.5 ppm · alkalinity 70 ppm')
    expect(mail?.text).toContain('pH high, chlorine low')
    // Exactly the items ticked, never the whole checklist by assumption; and the note for the customer.
    expect(mail?.text).toContain('✓ Brush walls')
    expect(mail?.text).toContain('✓ Vacuum pool')
    expect(mail?.text).not.toContain('Skim surface')
    expect(mail?.text).toContain('Your pump is noisy; we will look next week.')
    expect(mail?.text).toContain(`http://localhost:3999/customer/${dana.id}/visits/${visitId}`)
    // The photos are the visit's own thumbnails, inline.
    const before = await getObject(photoObjectKey(photoKeys.before, 'thumb'))
    const after = await getObject(photoObjectKey(photoKeys.after, 'thumb'))
    expect(mail?.attachments.map((a) => a.cid)).toEqual(['photo-1', 'photo-2'])
    expect(mail?.attachments[0]?.content.equals(before?.bytes ?? Buffer.alloc(0))).toBe(true)
    expect(mail?.attachments[1]?.content.equals(after?.bytes ?? Buffer.alloc(0))).toBe(true)
    expect(mail?.html).toMatch(/src="cid:photo-1"[^>]*alt="Before photo"|alt="Before photo"[^>]*src="cid:photo-1"/)
    expect(mail?.html).toMatch(/src="cid:photo-2"[^>]*alt="After photo"|alt="After photo"[^>]*src="cid:photo-2"/)
    expect(mail?.text).not.toContain('more photo')
    // Another attempt to queue it (a second server, a retry) finds the report already claimed.
    expect(await db().select().from(serviceReports).where(eq(serviceReports.visitId, visitId))).toHaveLength(1)
  })

  it('sends nothing when the company turned reports off', async () => {
    await db().update(companies).set({ serviceReportsEnabled: false }).where(eq(companies.id, blue))
    const visitId = await visitForDana()
    expect(await completeVisit({ companyId: blue, visitId })).toEqual({ ok: true })
    expect(await deliver()).toEqual([])
    expect(await db().select().from(serviceReports).where(eq(serviceReports.visitId, visitId))).toEqual([])
  })

  it('sends nothing to a customer without an email, and still completes the visit', async () => {
    const noEmail = await findTestCustomer('Tom Okafor', blue)
    const visit = await createVisit({
      companyId: blue,
      customerId: noEmail.id,
      customerName: noEmail.customerName,
      address: noEmail.address,
      scheduledAt: new Date(),
      technicianId: null,
    })
    expect(await completeVisit({ companyId: blue, visitId: visit?.id ?? '' })).toEqual({ ok: true })
    expect(await deliver()).toEqual([])
  })

  it('attaches the thumbnails of the first six photos, labeled, and points to the portal for the rest', async () => {
    const labels: PhotoLabel[] = ['before', 'before', 'other', 'after', 'after', 'other', 'after', 'after']
    const visitId = await visitForDana({ photos: labels })
    await completeVisit({ companyId: blue, visitId })
    const [mail] = await deliver()
    expect(mail?.attachments.map((a) => a.cid)).toEqual([
      'photo-1',
      'photo-2',
      'photo-3',
      'photo-4',
      'photo-5',
      'photo-6',
    ])
    expect(mail?.attachments.map((a) => a.filename)).toEqual([
      'before-1.jpg',
      'before-2.jpg',
      'other-3.jpg',
      'after-4.jpg',
      'after-5.jpg',
      'other-6.jpg',
    ])
    expect(mail?.html).toContain('alt="Other photo"')
    expect(mail?.text).toContain('2 more photos are in your portal.')
    // The portal's report has all eight, in the order taken.
    const report = await getVisitReport({ companyId: blue, visitId, customerId: dana.id })
    expect(report?.photos.map((photo) => photo.label)).toEqual(labels)
    const ids = await db()
      .select({ id: visitPhotos.id })
      .from(visitPhotos)
      .where(eq(visitPhotos.visitId, visitId))
      .orderBy(asc(visitPhotos.createdAt))
    expect(report?.photos.map((photo) => photo.id)).toEqual(ids.map((row) => row.id))
  })

  it('sends the report without a photo deleted since it was queued', async () => {
    const visitId = await visitForDana({ photos: [] })
    await db()
      .insert(visitPhotos)
      .values({ companyId: blue, visitId, label: 'before', storageKey: 'visit-photos/gone/before-missing' })
    await completeVisit({ companyId: blue, visitId })
    const [mail] = await deliver()
    expect(mail?.attachments).toEqual([])
    const [row] = await db()
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(eq(emailOutbox.to, 'customer@bluelagoon.test'))
      .orderBy(emailOutbox.createdAt)
    expect(row?.status).toBe('sent')
  })
})

describe('getVisitReport', () => {
  it('is null for an open visit, another company or another customer', async () => {
    const visitId = await visitForDana()
    expect(await getVisitReport({ companyId: blue, visitId })).toBeNull()
    await completeVisit({ companyId: blue, visitId })
    expect(await getVisitReport({ companyId: blue, visitId })).not.toBeNull()
    const [sunset] = await db()
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.name, 'Sunset Pool Care'))
    expect(await getVisitReport({ companyId: sunset?.id ?? '', visitId })).toBeNull()
    const [other] = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.companyId, blue), eq(customers.customerName, 'Tom Okafor')))
    expect(await getVisitReport({ companyId: blue, visitId, customerId: other?.id ?? '' })).toBeNull()
    expect(await getVisitReport({ companyId: blue, visitId, customerId: dana.id })).not.toBeNull()
  })

  it('leaves chemicals out when the company does not itemize them', async () => {
    const visitId = await visitForDana()
    await completeVisit({ companyId: blue, visitId })
    expect((await getVisitReport({ companyId: blue, visitId }))?.chemicals).toEqual([])
    await db().update(companies).set({ itemizeChemicals: false }).where(eq(companies.id, blue))
    expect((await getVisitReport({ companyId: blue, visitId }))?.chemicals).toBeNull()
  })
})
