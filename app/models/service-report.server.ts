// The service report: what was done on one visit, for the customer. The same data feeds the email sent when the
// visit is marked complete and the visit's page in the portal, so the two always agree.
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { EmailAttachment } from '~/db/schema'
import { chemLogs, companies, customers, profiles, serviceReports, visitChemicalAdditions, visits } from '~/db/schema'
import { sendEmail } from '~/outbox/email.server'
import { type Database, db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { isUuid } from '~/utils/ids'
import { visitReportPath } from '~/utils/portal-paths'
import { summarizeReading } from '~/water/summary'
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

type Executor = Pick<Database, 'select' | 'insert' | 'execute'>

/**
 * One completed visit of `companyId` as its report shows it, or null when there is no such completed visit
 * (optionally: of `customerId`). Pass the transaction that completed the visit to see its own write.
 */
export async function getVisitReport(
  { companyId, visitId, customerId }: { companyId: string; visitId: string; customerId?: string },
  executor: Executor = db(),
) {
  if (!isUuid(companyId) || !isUuid(visitId) || (customerId !== undefined && !isUuid(customerId))) return null
  const filters = [eq(visits.companyId, companyId), eq(visits.id, visitId)]
  if (customerId) filters.push(eq(visits.customerId, customerId))
  // Readings are judged against the first body of water at the visit's location.
  const firstBody = firstBodyOfWaterOf({ companyId: visits.companyId, id: visits.locationId })
  const [headerRows, readings, chemicals, checks, photos] = await Promise.all([
    executor
      .select({
        visitId: visits.id,
        customerId: visits.customerId,
        customerName: customers.customerName,
        customerEmail: customers.email,
        address: visits.address,
        scheduledAt: visits.scheduledAt,
        completedAt: visits.completedAt,
        customerNote: visits.customerNote,
        technicianName: profiles.fullName,
        companyName: companies.name,
        timezone: companies.timezone,
        reportsEnabled: companies.serviceReportsEnabled,
        itemizeChemicals: companies.itemizeChemicals,
        poolVolumeGallons: firstBody.poolVolumeGallons,
        poolSurface: firstBody.poolSurface,
        poolSanitizer: firstBody.poolSanitizer,
        poolIndoor: firstBody.poolIndoor,
      })
      .from(visits)
      .innerJoin(companies, eq(companies.id, visits.companyId))
      .innerJoin(customers, and(eq(customers.companyId, visits.companyId), eq(customers.id, visits.customerId)))
      // The technician is joined within the visit's company: a name never crosses companies.
      .leftJoin(profiles, and(eq(profiles.id, visits.technicianId), eq(profiles.companyId, visits.companyId)))
      .leftJoinLateral(firstBody, sql`true`)
      .where(and(...filters))
      .limit(1),
    executor
      .select(readingColumns)
      .from(chemLogs)
      .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.visitId, visitId)))
      .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
      .limit(REPORT_READINGS_LIMIT),
    executor
      .select({
        product: visitChemicalAdditions.product,
        quantity: visitChemicalAdditions.quantity,
        unit: visitChemicalAdditions.unit,
      })
      .from(visitChemicalAdditions)
      .where(and(eq(visitChemicalAdditions.companyId, companyId), eq(visitChemicalAdditions.visitId, visitId)))
      .orderBy(asc(visitChemicalAdditions.addedAt), asc(visitChemicalAdditions.id))
      .limit(REPORT_CHEMICALS_LIMIT),
    listVisitChecks({ companyId, visitId }, executor),
    listVisitPhotos({ companyId, visitId }, executor),
  ])
  const header = headerRows[0]
  if (!header?.completedAt) return null
  const pool: PoolProfile = poolProfileOf(header)
  return {
    visitId: header.visitId,
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
    // Exactly the items the technician ticked, as they were labeled then (never "all done" by assumption).
    checklist: checks.map((check) => check.label),
    customerNote: header.customerNote,
    readings: readings.map((reading) => ({ ...reading, summary: summarizeReading(reading, pool) })),
    // Null (not empty) when the company does not itemize chemicals: the report then says nothing about them.
    chemicals: header.itemizeChemicals ? chemicals : null,
    // Every photo, labeled, in the order taken. Storage keys stay on the server: callers turn them into URLs.
    photos,
  }
}

export type VisitReport = NonNullable<Awaited<ReturnType<typeof getVisitReport>>>

/**
 * Queues the visit's report for the customer, inside the transaction that completed the visit. The
 * service_reports row is the "sent once" rule: a second completion, a retry or another server finds it there
 * and queues nothing. Nothing is queued when the company turned reports off or the customer has no email.
 * Returns the address it was queued for, or null.
 */
export async function queueServiceReport(
  { companyId, visitId }: { companyId: string; visitId: string },
  executor: Executor,
) {
  const report = await getVisitReport({ companyId, visitId }, executor)
  if (!report?.reportsEnabled || !report.customerEmail) return null
  const claimed = await executor
    .insert(serviceReports)
    .values({ companyId, visitId, sentTo: report.customerEmail })
    .onConflictDoNothing()
    .returning({ visitId: serviceReports.visitId })
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
    portalUrl: `${env().APP_URL}${visitReportPath(report.customerId, report.visitId)}`,
    brand: sender.brand,
  }
  await sendEmail(
    {
      to: report.customerEmail,
      companyId,
      // The "Visit completed" notice by email is this report: in the customer's Messages, and once per visit.
      customerId: report.customerId,
      notice: { event: 'visit-completed', subject: visitId },
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
