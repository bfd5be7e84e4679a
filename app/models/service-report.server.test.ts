// The service report a customer receives when their visit is marked complete: queued with the completion,
// sent once, never when the company turned reports off or the customer has no email, and carrying the
// visit's own readings and photos.
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  checklistItems,
  companies,
  customers,
  emailOutbox,
  jobs,
  profiles,
  serviceReports,
  visitChecks,
} from '~/db/schema'
import { seedDemoData } from '~/demo/seed.server'
import { db } from '~/utils/db.server'
import { deliverDueEmails, type OutgoingMail } from '~/utils/email.server'
import { getObject } from '~/utils/storage.server'
import { findTestCustomer } from '../../tests/helpers/customers'
import { addChemLog } from './chem-log.server'
import { completeJob, createJob } from './job.server'
import { photoObjectKey } from './photo.server'
import { getVisitReport } from './service-report.server'

let blue: string
let dana: { id: string; name: string; address: string }
let techId: string
let photoKeys: { before: string; after: string }

beforeAll(async () => {
  await seedDemoData(db())
  const [company] = await db()
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, 'Blue Lagoon Pool Co.'))
  blue = company?.id ?? ''
  const customer = await findTestCustomer('Dana Whitfield', blue)
  dana = { id: customer.id, name: customer.customerName, address: customer.address }
  const [tech] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.email, 'tech@bluelagoon.test'))
  techId = tech?.id ?? ''
  // The seed stored a before and an after photo on one of Dana's visits; new visits reuse those files.
  const [withPhotos] = await db()
    .select({ before: jobs.beforeUrl, after: jobs.afterUrl })
    .from(jobs)
    .where(and(eq(jobs.customerId, dana.id), isNotNull(jobs.beforeUrl), isNotNull(jobs.afterUrl)))
    .limit(1)
  if (!withPhotos?.before || !withPhotos.after) throw new Error('no seeded photos')
  photoKeys = { before: withPhotos.before, after: withPhotos.after }
})

beforeEach(async () => {
  // Earlier tests' emails are delivered (and forgotten) so each test reads only its own.
  await deliverDueEmails({ transport: { send: async () => {} } })
  await db()
    .update(companies)
    .set({ serviceReportsEnabled: true, itemiseChemicals: true })
    .where(eq(companies.id, blue))
})

async function visitForDana({ photos = true } = {}) {
  const job = await createJob({
    companyId: blue,
    customerId: dana.id,
    customerName: dana.name,
    address: dana.address,
    scheduledAt: new Date(),
    technicianId: techId,
  })
  if (!job) throw new Error('job not created')
  if (photos)
    await db().update(jobs).set({ beforeUrl: photoKeys.before, afterUrl: photoKeys.after }).where(eq(jobs.id, job.id))
  return job.id
}

/** Ticks the company's checklist items with these labels on the visit, as the technician's phone does. */
async function tick(jobId: string, labels: string[]) {
  const items = await db()
    .select({ id: checklistItems.id, label: checklistItems.label })
    .from(checklistItems)
    .where(and(eq(checklistItems.companyId, blue), inArray(checklistItems.label, labels)))
  expect(items).toHaveLength(labels.length)
  await db()
    .insert(visitChecks)
    .values(items.map((item) => ({ companyId: blue, jobId, itemId: item.id, label: item.label })))
}

async function deliver() {
  const sent: OutgoingMail[] = []
  await deliverDueEmails({ transport: { send: async (mail) => void sent.push(mail) } })
  return sent
}

describe('completing a visit', () => {
  it('emails the customer a report with the visit’s readings, their status and its photos, once', async () => {
    const jobId = await visitForDana()
    await addChemLog({ companyId: blue, jobId, reading: { ph: 7.9, chlorinePpm: 0.5, alkalinity: 70 } })
    await tick(jobId, ['Brush walls', 'Vacuum pool'])
    await db()
      .update(jobs)
      .set({ customerNote: 'Your pump is noisy; we will look next week.' })
      .where(eq(jobs.id, jobId))

    expect(await completeJob({ companyId: blue, jobId })).toBe(true)
    expect(await completeJob({ companyId: blue, jobId })).toBe(false)
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
    expect(mail?.text).toContain(`http://localhost:3999/customer/${dana.id}/visits/${jobId}`)
    // The photos are the visit's own thumbnails, inline.
    const before = await getObject(photoObjectKey(photoKeys.before, 'thumb'))
    const after = await getObject(photoObjectKey(photoKeys.after, 'thumb'))
    expect(mail?.attachments.map((a) => a.cid)).toEqual(['before-photo', 'after-photo'])
    expect(mail?.attachments[0]?.content.equals(before?.bytes ?? Buffer.alloc(0))).toBe(true)
    expect(mail?.attachments[1]?.content.equals(after?.bytes ?? Buffer.alloc(0))).toBe(true)
    expect(mail?.html).toContain('src="cid:before-photo"')
    expect(mail?.html).toContain('src="cid:after-photo"')
    // Another attempt to queue it (a second server, a retry) finds the report already claimed.
    expect(await db().select().from(serviceReports).where(eq(serviceReports.jobId, jobId))).toHaveLength(1)
  })

  it('sends nothing when the company turned reports off', async () => {
    await db().update(companies).set({ serviceReportsEnabled: false }).where(eq(companies.id, blue))
    const jobId = await visitForDana()
    expect(await completeJob({ companyId: blue, jobId })).toBe(true)
    expect(await deliver()).toEqual([])
    expect(await db().select().from(serviceReports).where(eq(serviceReports.jobId, jobId))).toEqual([])
  })

  it('sends nothing to a customer without an email, and still completes the job', async () => {
    const noEmail = await findTestCustomer('Tom Okafor', blue)
    const job = await createJob({
      companyId: blue,
      customerId: noEmail.id,
      customerName: noEmail.customerName,
      address: noEmail.address,
      scheduledAt: new Date(),
      technicianId: null,
    })
    expect(await completeJob({ companyId: blue, jobId: job?.id ?? '' })).toBe(true)
    expect(await deliver()).toEqual([])
  })

  it('sends the report without a photo deleted since it was queued', async () => {
    const jobId = await visitForDana({ photos: false })
    await db().update(jobs).set({ beforeUrl: 'job-photos/gone/before-missing' }).where(eq(jobs.id, jobId))
    await completeJob({ companyId: blue, jobId })
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
    const jobId = await visitForDana()
    expect(await getVisitReport({ companyId: blue, jobId })).toBeNull()
    await completeJob({ companyId: blue, jobId })
    expect(await getVisitReport({ companyId: blue, jobId })).not.toBeNull()
    const [sunset] = await db()
      .select({ id: companies.id })
      .from(companies)
      .where(eq(companies.name, 'Sunset Pool Care'))
    expect(await getVisitReport({ companyId: sunset?.id ?? '', jobId })).toBeNull()
    const [other] = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.companyId, blue), eq(customers.customerName, 'Tom Okafor')))
    expect(await getVisitReport({ companyId: blue, jobId, customerId: other?.id ?? '' })).toBeNull()
    expect(await getVisitReport({ companyId: blue, jobId, customerId: dana.id })).not.toBeNull()
  })

  it('leaves chemicals out when the company does not itemise them', async () => {
    const jobId = await visitForDana()
    await completeJob({ companyId: blue, jobId })
    expect((await getVisitReport({ companyId: blue, jobId }))?.chemicals).toEqual([])
    await db().update(companies).set({ itemiseChemicals: false }).where(eq(companies.id, blue))
    expect((await getVisitReport({ companyId: blue, jobId }))?.chemicals).toBeNull()
  })
})
