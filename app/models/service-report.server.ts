// The service report: what was done on one visit, for the customer. The same data feeds the email sent when the
// visit is marked complete and the visit's page in the portal, so the two always agree.
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { EmailAttachment } from '~/db/schema'
import { chemLogs, companies, customers, jobChemicalAdditions, jobs, profiles, serviceReports } from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { visitReportPath } from '~/utils/portal-paths'
import { summariseReading } from '~/water/summary'
import { type PoolProfile, poolProfileOf } from '~/water/targets'
import { firstBodyOfWaterOf } from './body-of-water.server'
import { listVisitChecks } from './checklist.server'
import { readingColumns } from './chem-log.server'
import { customerEmailBrand } from './company-brand'
import { getEmailCompany } from './company-brand.server'
import { listVisitPhotos, photoObjectKey } from './photo.server'
import { PHOTO_LABEL_NAMES } from './visit-photo'

/** Readings listed in one report: a visit rarely has more than two (before and after dosing). */
const REPORT_READINGS_LIMIT = 10
/** Chemical additions listed in one report. */
const REPORT_CHEMICALS_LIMIT = 30
/** Photo thumbnails attached to the email (the portal's report shows every photo). */
export const EMAIL_PHOTOS_LIMIT = 6

type Executor = Pick<Database, 'select' | 'insert'>

/**
 * One completed visit of `companyId` as its report shows it, or null when there is no such completed job
 * (optionally: of `customerId`). Pass the transaction that completed the job to see its own write.
 */
export async function getVisitReport(
  { companyId, jobId, customerId }: { companyId: string; jobId: string; customerId?: string },
  executor: Executor = db(),
) {
  if (!isUuid(companyId) || !isUuid(jobId) || (customerId !== undefined && !isUuid(customerId))) return null
  const filters = [eq(jobs.companyId, companyId), eq(jobs.id, jobId)]
  if (customerId) filters.push(eq(jobs.customerId, customerId))
  // Readings are judged against the first body of water at the visit's location.
  const firstBody = firstBodyOfWaterOf({ companyId: jobs.companyId, id: jobs.locationId })
  const [headerRows, readings, chemicals, checks, photos] = await Promise.all([
    executor
      .select({
        jobId: jobs.id,
        customerId: jobs.customerId,
        customerName: customers.customerName,
        customerEmail: customers.email,
        address: jobs.address,
        scheduledAt: jobs.scheduledAt,
        completedAt: jobs.completedAt,
        customerNote: jobs.customerNote,
        technicianName: profiles.fullName,
        companyName: companies.name,
        timezone: companies.timezone,
        reportsEnabled: companies.serviceReportsEnabled,
        itemiseChemicals: companies.itemiseChemicals,
        poolVolumeGallons: firstBody.poolVolumeGallons,
        poolSurface: firstBody.poolSurface,
        poolSanitiser: firstBody.poolSanitiser,
        poolIndoor: firstBody.poolIndoor,
      })
      .from(jobs)
      .innerJoin(companies, eq(companies.id, jobs.companyId))
      .innerJoin(customers, and(eq(customers.companyId, jobs.companyId), eq(customers.id, jobs.customerId)))
      // The technician is joined within the job's company: a name never crosses companies.
      .leftJoin(profiles, and(eq(profiles.id, jobs.technicianId), eq(profiles.companyId, jobs.companyId)))
      .leftJoinLateral(firstBody, sql`true`)
      .where(and(...filters))
      .limit(1),
    executor
      .select(readingColumns)
      .from(chemLogs)
      .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.jobId, jobId)))
      .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
      .limit(REPORT_READINGS_LIMIT),
    executor
      .select({
        product: jobChemicalAdditions.product,
        quantity: jobChemicalAdditions.quantity,
        unit: jobChemicalAdditions.unit,
      })
      .from(jobChemicalAdditions)
      .where(and(eq(jobChemicalAdditions.companyId, companyId), eq(jobChemicalAdditions.jobId, jobId)))
      .orderBy(asc(jobChemicalAdditions.addedAt), asc(jobChemicalAdditions.id))
      .limit(REPORT_CHEMICALS_LIMIT),
    listVisitChecks({ companyId, jobId }, executor),
    listVisitPhotos({ companyId, jobId }, executor),
  ])
  const header = headerRows[0]
  if (!header?.completedAt) return null
  const pool: PoolProfile = poolProfileOf(header)
  return {
    jobId: header.jobId,
    customerId: header.customerId,
    customerName: header.customerName,
    customerEmail: header.customerEmail,
    address: header.address,
    scheduledAt: header.scheduledAt,
    completedAt: header.completedAt,
    technicianName: header.technicianName,
    companyName: header.companyName,
    timezone: header.timezone,
    reportsEnabled: header.reportsEnabled,
    // Exactly the items the technician ticked, as they were labelled then (never "all done" by assumption).
    checklist: checks.map((check) => check.label),
    customerNote: header.customerNote,
    readings: readings.map((reading) => ({ ...reading, summary: summariseReading(reading, pool) })),
    // Null (not empty) when the company does not itemise chemicals: the report then says nothing about them.
    chemicals: header.itemiseChemicals ? chemicals : null,
    // Every photo, labelled, in the order taken. Storage keys stay on the server: callers turn them into URLs.
    photos,
  }
}

export type VisitReport = NonNullable<Awaited<ReturnType<typeof getVisitReport>>>

/**
 * Queues the visit's report for the customer, inside the transaction that completed the job. The
 * service_reports row is the "sent once" rule: a second completion, a retry or another server finds it there
 * and queues nothing. Nothing is queued when the company turned reports off or the customer has no email.
 * Returns the address it was queued for, or null.
 */
export async function queueServiceReport(
  { companyId, jobId }: { companyId: string; jobId: string },
  executor: Executor,
) {
  const report = await getVisitReport({ companyId, jobId }, executor)
  if (!report?.reportsEnabled || !report.customerEmail) return null
  const claimed = await executor
    .insert(serviceReports)
    .values({ companyId, jobId, sentTo: report.customerEmail })
    .onConflictDoNothing()
    .returning({ jobId: serviceReports.jobId })
  if (claimed.length === 0) return null
  // Thumbnails keep the email small; the portal's report has every photo full size.
  const attached = report.photos.slice(0, EMAIL_PHOTOS_LIMIT).map((photo, index) => ({
    label: photo.label,
    attachment: {
      cid: `photo-${index + 1}`,
      filename: `${photo.label}-${index + 1}.jpg`,
      storageKey: photoObjectKey(photo.storageKey, 'thumb'),
      contentType: 'image/jpeg',
    } satisfies EmailAttachment,
  }))
  const company = await getEmailCompany(companyId, executor)
  const sender = customerEmailBrand({
    name: report.companyName,
    email: company?.email ?? null,
    logoKey: company?.logoKey ?? null,
  })
  const props = {
    report,
    photos: attached.map(({ label, attachment }) => ({
      labelName: PHOTO_LABEL_NAMES[label],
      src: `cid:${attachment.cid}`,
    })),
    morePhotos: report.photos.length - attached.length,
    portalUrl: `${env().APP_URL}${visitReportPath(report.customerId, report.jobId)}`,
    brand: sender.brand,
  }
  await sendEmail(
    {
      to: report.customerEmail,
      companyId,
      // The "Visit completed" notice by email is this report: in the customer's Messages, and once per visit.
      customerId: report.customerId,
      notice: { event: 'visit-completed', subject: jobId },
      template: 'service-report',
      props,
      fromName: sender.fromName,
      replyTo: sender.replyTo,
      attachments: [...(sender.attachments ?? []), ...attached.map(({ attachment }) => attachment)],
    },
    executor,
  )
  return report.customerEmail
}
