// The customer portal (/customer/{id}): who may see it, everything it shows, and its photos.
// Every query filters by company_id AND customer_id, so an id of another customer or company
// finds nothing. What leaves this module is only what the page shows: no company ids, portal
// logins, technician ids, emails or storage keys (docs/product.md "Roles").
import { and, asc, desc, eq, gte, isNull, sql } from 'drizzle-orm'
import { bodiesOfWater, chemLogs, companies, customers, profiles, visitPhotos, visits } from '~/db/schema'
import type { PhotoLabel } from '~/db/schema/visit-work'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { can } from '~/utils/permissions'
import { summarizeReading } from '~/water/summary'
import { type PoolProfile, poolProfileOf } from '~/water/targets'
import { balanceCentsOf } from './balance.server'
import { firstBodyOfWaterOf, poolProfileColumns } from './body-of-water.server'
import { readingColumns } from './chem-log.server'
import { companyLogoPath } from './company-brand'
import { getPortalCustomer } from './customer.server'
import { type PhotoSize, readPhotoFile } from './photo.server'
import type { Profile } from './profile.server'
import { addressOf, firstLocationOf } from './service-location.server'

/** Visit history rows per page. */
export const PORTAL_VISITS_PER_PAGE = 20
/** docs/product.md "Limits": the portal's chemistry table shows the 12 most recent readings. */
export const PORTAL_READINGS_LIMIT = 12
/** Photos in the gallery: the newest visits' photos, in the order they were taken. */
export const PORTAL_GALLERY_PHOTOS = 24
/** No one has this many pages of visits; a bigger number is someone typing in the URL. */
const MAX_PAGE = 100_000

export type PortalAccess = { companyId: string; customerId: string; preview: boolean }

/**
 * Whether `user` may see the portal of `customerId`: the customer's own login, or staff of the
 * same company who may preview portals. Null for everyone else, which routes answer with 404
 * so nobody learns whether the id exists.
 */
export async function findPortalAccess(
  user: { id: string; profile: Pick<Profile, 'companyId' | 'role'> | null },
  customerId: string,
): Promise<PortalAccess | null> {
  const profile = user.profile
  // The company always comes from the viewer's profile, never from the URL.
  if (!profile?.companyId) return null
  const customer = await getPortalCustomer({ companyId: profile.companyId, customerId })
  if (!customer) return null
  const isOwnRecord = profile.role === 'customer' && customer.portalUserId === user.id
  if (!isOwnRecord && !can(profile.role, 'portal:preview')) return null
  return { companyId: customer.companyId, customerId: customer.id, preview: !isOwnRecord }
}

/** The portal's own photo route (authorized by portal access, not by staff visit access). */
export function portalPhotoUrl(customerId: string, visitId: string, photoId: string, size: PhotoSize = 'full') {
  return `/customer/${customerId}/photos/${visitId}/${photoId}${size === 'thumb' ? '?size=thumb' : ''}`
}

/**
 * A visit's photos as JSON ([{ id, label }], in the order they were taken), in the visit's own query. Table names are
 * written out: drizzle may leave columns unqualified in a select list, where they would name the subquery's own.
 */
const photosOfVisit = sql<{ id: string; label: PhotoLabel }[]>`coalesce((
  select json_agg(json_build_object('id', vp.id, 'label', vp.label) order by vp.created_at, vp.id)
  from "visit_photos" vp
  where vp.company_id = "visits"."company_id" and vp.visit_id = "visits"."id"
), '[]'::json)`

/**
 * Everything the portal page shows for one customer of `companyId`, or null when there is no
 * such customer there. All queries run at once; counts come from SQL over every visit, never
 * from the page of rows.
 */
export async function getPortal({
  companyId,
  customerId,
  page = 1,
  now = new Date(),
}: {
  companyId: string
  customerId: string
  page?: number
  now?: Date
}) {
  if (!isUuid(companyId) || !isUuid(customerId)) return null
  const current = Number.isInteger(page) ? Math.min(Math.max(page, 1), MAX_PAGE) : 1
  const ofCustomer = and(eq(visits.companyId, companyId), eq(visits.customerId, customerId))
  // Technicians are joined within the visit's company as well: a name never crosses companies.
  const technician = and(eq(profiles.id, visits.technicianId), eq(profiles.companyId, visits.companyId))

  // Each visit's latest reading in the same query: a LATERAL subquery the planner answers from
  // the (company_id, visit_id, taken_at desc) index, one probe per visit on the page.
  const latestReading = db()
    .select(readingColumns)
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, visits.companyId), eq(chemLogs.visitId, visits.id)))
    .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
    .limit(1)
    .as('latest_reading')
  // The address is the customer's first location's; its first body of water is "the pool" of the header. What a
  // location has for staff (gate code, access notes) is never selected here.
  const location = firstLocationOf(customers)
  const pool = firstBodyOfWaterOf({ companyId: customers.companyId, id: location.id })

  // The history: visits that are due or done. Visits still ahead (a plan keeps 8 weeks of them) are the "next visit",
  // not rows of history.
  const inHistory = sql`(${visits.scheduledAt} < ${now.toISOString()} or ${visits.completedAt} is not null or ${visits.canceledAt} is not null)`
  const next = db()
    .select({ scheduledAt: visits.scheduledAt, address: visits.address, technicianName: profiles.fullName })
    .from(visits)
    .leftJoin(profiles, technician)
    .where(and(ofCustomer, isNull(visits.completedAt), isNull(visits.canceledAt), gte(visits.scheduledAt, now)))
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(1)
    .as('next_visit')
  // The twelve newest readings first, by the customer's readings index alone, newest first; then their visits (each
  // checked against the customer too) and their pool or spa, for those twelve only.
  const newestReadings = db()
    .select({
      ...readingColumns,
      readingId: chemLogs.id,
      visitId: chemLogs.visitId,
      customerId: chemLogs.customerId,
      bodyOfWaterId: chemLogs.bodyOfWaterId,
    })
    .from(chemLogs)
    .where(and(eq(chemLogs.companyId, companyId), eq(chemLogs.customerId, customerId)))
    .orderBy(desc(chemLogs.takenAt), desc(chemLogs.id))
    .limit(PORTAL_READINGS_LIMIT)
    .as('newest_readings')
  const counted = db()
    .select({
      completed: sql<number>`count(*) filter (where ${visits.completedAt} is not null)::int`.as('completed'),
      total: sql<number>`count(*)::int`.as('total'),
      history: sql<number>`count(*) filter (where ${inHistory})::int`.as('history'),
    })
    .from(visits)
    .where(ofCustomer)
    .as('counted')
  // The page of history first, then its technicians, photos and readings for those rows only: planned for any
  // customer, a join before the limit would look up every visit's reading to keep twenty (decision 073).
  const pageOfVisits = db()
    .select({ id: sql<string>`${visits.id}`.as('page_visit_id') })
    .from(visits)
    .where(and(ofCustomer, inHistory))
    // The id breaks ties between visits at the same time so pages never overlap or skip one.
    .orderBy(desc(visits.scheduledAt), desc(visits.id))
    .limit(PORTAL_VISITS_PER_PAGE)
    .offset((current - 1) * PORTAL_VISITS_PER_PAGE)
    .as('page_of_visits')
  const [header, counts, visitRows, readings, galleryRows] = await Promise.all([
    db()
      .select({
        name: customers.customerName,
        street: location.street,
        city: location.city,
        state: location.state,
        postalCode: location.postalCode,
        phone: customers.phone,
        autopayCardLabel: customers.autopayCardLabel,
        balanceDueCents: balanceCentsOf(customers.companyId, customers.id),
        companyName: companies.name,
        logoKey: companies.logoKey,
        timezone: companies.timezone,
        poolVolumeGallons: pool.poolVolumeGallons,
        poolSurface: pool.poolSurface,
        poolSanitizer: pool.poolSanitizer,
        poolIndoor: pool.poolIndoor,
      })
      .from(customers)
      .innerJoin(companies, eq(companies.id, customers.companyId))
      .leftJoinLateral(location, sql`true`)
      .leftJoinLateral(pool, sql`true`)
      .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
      .limit(1),
    // The counts and the next visit in one statement: the counts' one row joined to the next visit (a row at most).
    // Counted first: joined to every visit before counting, the embedded database's planner looked the next visit up
    // again for each of them (547 times on the bench's portal).
    db()
      .select({
        completed: counted.completed,
        total: counted.total,
        history: counted.history,
        nextAt: next.scheduledAt,
        nextAddress: next.address,
        nextTechnician: next.technicianName,
      })
      .from(counted)
      .leftJoin(next, sql`true`),
    db()
      .select({
        id: visits.id,
        scheduledAt: visits.scheduledAt,
        completedAt: visits.completedAt,
        canceledAt: visits.canceledAt,
        skipReason: visits.skipReason,
        address: visits.address,
        technicianName: profiles.fullName,
        photos: photosOfVisit,
        reading: {
          ph: latestReading.ph,
          chlorinePpm: latestReading.chlorinePpm,
          alkalinity: latestReading.alkalinity,
          takenAt: latestReading.takenAt,
        },
      })
      .from(pageOfVisits)
      .innerJoin(visits, and(eq(visits.companyId, companyId), eq(visits.id, pageOfVisits.id)))
      .leftJoin(profiles, technician)
      .leftJoinLateral(latestReading, sql`true`)
      .orderBy(desc(visits.scheduledAt), desc(visits.id)),
    db()
      .select({
        ph: newestReadings.ph,
        chlorinePpm: newestReadings.chlorinePpm,
        alkalinity: newestReadings.alkalinity,
        cyanuricAcid: newestReadings.cyanuricAcid,
        calciumHardness: newestReadings.calciumHardness,
        salt: newestReadings.salt,
        waterTempF: newestReadings.waterTempF,
        takenAt: newestReadings.takenAt,
        visitScheduledAt: visits.scheduledAt,
        readingBodyId: bodiesOfWater.id,
        ...poolProfileColumns,
      })
      .from(newestReadings)
      // The visit's customer compared with the reading's, not with the value: planned without the values (a prepared
      // statement), a condition on the customer made the planner read all of a customer's visits for each reading.
      .innerJoin(
        visits,
        and(
          eq(visits.companyId, companyId),
          eq(visits.id, newestReadings.visitId),
          eq(visits.customerId, newestReadings.customerId),
        ),
      )
      // Each reading is judged against the pool or spa it was taken in.
      .leftJoin(
        bodiesOfWater,
        and(eq(bodiesOfWater.companyId, companyId), eq(bodiesOfWater.id, newestReadings.bodyOfWaterId)),
      )
      .orderBy(desc(newestReadings.takenAt), desc(newestReadings.readingId)),
    db()
      .select({ id: visitPhotos.id, label: visitPhotos.label, visitId: visits.id, scheduledAt: visits.scheduledAt })
      .from(visitPhotos)
      .innerJoin(visits, and(eq(visits.companyId, visitPhotos.companyId), eq(visits.id, visitPhotos.visitId)))
      .where(and(eq(visitPhotos.companyId, companyId), ofCustomer))
      .orderBy(desc(visits.scheduledAt), desc(visits.id), asc(visitPhotos.createdAt), asc(visitPhotos.id))
      .limit(PORTAL_GALLERY_PHOTOS),
  ])

  const customer = header[0]
  if (!customer) return null
  const { completed, total, history, nextAt, nextAddress, nextTechnician } = counts[0] ?? {
    completed: 0,
    total: 0,
    history: 0,
    nextAt: null,
    nextAddress: null,
    nextTechnician: null,
  }
  // Readings are judged against their pool's targets (the customer's pool when a reading says none); the
  // profiles themselves stay internal.
  const customerPool: PoolProfile = poolProfileOf(customer)
  const judged = readings.map(
    ({ readingBodyId, poolVolumeGallons, poolSurface, poolSanitizer, poolIndoor, ...reading }) => {
      const pool = readingBodyId
        ? poolProfileOf({ poolVolumeGallons, poolSurface, poolSanitizer, poolIndoor })
        : customerPool
      return { ...reading, summary: summarizeReading(reading, pool) }
    },
  )
  return {
    customer: {
      name: customer.name,
      address: addressOf(customer) ?? '',
      phone: customer.phone,
      balanceDueCents: customer.balanceDueCents,
      /** The saved card ("Visa ending 4242") for the portal's autopay section, read with the header. */
      autopayCardLabel: customer.autopayCardLabel,
    },
    companyName: customer.companyName,
    /** The company's logo address (decision 044), never its storage key; null when it has none. */
    companyLogoUrl: companyLogoPath(customer.logoKey),
    timezone: customer.timezone,
    counts: { completed, total },
    nextVisit: nextAt ? { scheduledAt: nextAt, address: nextAddress ?? '', technicianName: nextTechnician } : null,
    latestReading: judged[0] ?? null,
    visits: {
      page: current,
      pageSize: PORTAL_VISITS_PER_PAGE,
      pageCount: Math.max(1, Math.ceil(history / PORTAL_VISITS_PER_PAGE)),
      total: history,
      rows: visitRows,
    },
    readings: judged,
    gallery: galleryRows,
  }
}

export type Portal = NonNullable<Awaited<ReturnType<typeof getPortal>>>

/**
 * A photo of one of the customer's own visits, or null when the visit is not that customer's (in that company) or
 * has no such photo.
 */
export async function getPortalPhoto({
  companyId,
  customerId,
  visitId,
  photoId,
  size = 'full',
}: {
  companyId: string
  customerId: string
  visitId: string
  photoId: string
  size?: PhotoSize
}) {
  if (!isUuid(photoId) || !isUuid(visitId) || !isUuid(customerId) || !isUuid(companyId)) return null
  const [photo] = await db()
    .select({ storageKey: visitPhotos.storageKey })
    .from(visitPhotos)
    .innerJoin(visits, and(eq(visits.companyId, visitPhotos.companyId), eq(visits.id, visitPhotos.visitId)))
    .where(
      and(
        eq(visitPhotos.companyId, companyId),
        eq(visitPhotos.visitId, visitId),
        eq(visitPhotos.id, photoId),
        eq(visits.customerId, customerId),
      ),
    )
    .limit(1)
  return photo ? readPhotoFile(photo.storageKey, size) : null
}
