// A technician's calendar feed (docs/product.md "Schedule" "Calendar feed"): the secret link on "My Account" and the
// `.ics` text a phone calendar fetches from it. The link is the only credential (phones send no session), so the feed
// is found by the token's hash alone and only while its owner is an active technician of a company.
import { and, asc, eq, gte, isNotNull, isNull, lt } from 'drizzle-orm'
import { companies, profiles, serviceLocations, servicePlans, visits } from '~/db/schema'
import { calendarFeed, type FeedVisit } from '~/schedule/calendar-feed'
import { hashFeedToken, isFeedToken, newFeedToken } from '~/schedule/feed-token.server'
import { addDays, instantAt, localDateAt } from '~/schedule/local-date'
import { db } from '~/utils/db.server'
import { env } from '~/utils/env.server'
import { failure, type Result, success } from '~/utils/result'
import { visitLocation } from './service-location.server'
import { visitSummaryColumns } from './visit-record.server'
import { visitState } from './visit-state'

/** The feed covers visits from this many days back… */
export const FEED_DAYS_BEFORE = 28
/** …to this many days ahead (as far as visits are generated). */
export const FEED_DAYS_AHEAD = 56
/** A feed has at most this many visits (12 weeks at 16 stops a working day fit). */
export const FEED_LIMIT = 1000

export const CALENDAR_FEED_NOT_A_TECHNICIAN = 'Only technicians have a calendar link.'

const activeTechnician = and(eq(profiles.role, 'tech'), isNull(profiles.deactivatedAt), isNotNull(profiles.companyId))

/**
 * "Create calendar link" / "Reset link": stores the hash of a new token, which revokes the old link, and returns
 * the token — the only moment it exists in clear. With `replace: false` an existing link is left alone (a second
 * "Create" from a stale page must not silently revoke the link already on the phone).
 */
export async function resetCalendarFeed(
  profileId: string,
  { replace = true }: { replace?: boolean } = {},
): Promise<Result<{ token: string }>> {
  const { token, hash } = newFeedToken()
  const [row] = await db()
    .update(profiles)
    .set({ calendarFeedHash: hash })
    .where(and(eq(profiles.id, profileId), activeTechnician, replace ? undefined : isNull(profiles.calendarFeedHash)))
    .returning({ id: profiles.id })
  if (row) return success({ token })
  if (!replace && (await hasCalendarFeed(profileId))) {
    return failure('conflict', 'You already have a calendar link. Use "Reset link" for a new one.')
  }
  return failure('forbidden', CALENDAR_FEED_NOT_A_TECHNICIAN)
}

/**
 * Ends the person's calendar link for good (N5): their password was reset, so whatever they had may be in someone
 * else's hands. A new link is made with "Create calendar link". Deactivation and a role change clear it in their own
 * transaction (team.server.ts).
 */
export async function revokeCalendarFeed(profileId: string) {
  await db().update(profiles).set({ calendarFeedHash: null }).where(eq(profiles.id, profileId))
}

/** Whether the technician has a working calendar link. */
export async function hasCalendarFeed(profileId: string): Promise<boolean> {
  const [row] = await db()
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), activeTechnician, isNotNull(profiles.calendarFeedHash)))
    .limit(1)
  return Boolean(row)
}

/** The link a phone subscribes to. */
export function calendarFeedUrl(token: string) {
  return `${env().APP_URL}/calendar/${token}.ics`
}

/**
 * The `.ics` text of the feed whose token is `token`: the technician's visits from 4 weeks ago to 8 weeks ahead in
 * the company's zone, finished ones included (so a phone shows them as done or canceled rather than keeping a
 * stale event). Null when no active technician holds that token. Two queries.
 */
export async function calendarFeedFor(token: string, now = new Date()): Promise<string | null> {
  if (!isFeedToken(token)) return null
  const [owner] = await db()
    .select({
      id: profiles.id,
      companyId: companies.id,
      fullName: profiles.fullName,
      email: profiles.email,
      timezone: companies.timezone,
    })
    .from(profiles)
    .innerJoin(companies, eq(companies.id, profiles.companyId))
    .where(and(eq(profiles.calendarFeedHash, hashFeedToken(token)), activeTechnician))
    .limit(1)
  if (!owner) return null

  const today = localDateAt(now, owner.timezone)
  const rows = await db()
    .select({
      id: visits.id,
      ...visitSummaryColumns,
      serviceWindow: servicePlans.serviceWindow,
      minutesOnSite: serviceLocations.minutesOnSite,
      accessNotes: serviceLocations.accessNotes,
    })
    .from(visits)
    .innerJoin(serviceLocations, visitLocation)
    .leftJoin(servicePlans, and(eq(servicePlans.companyId, visits.companyId), eq(servicePlans.id, visits.planId)))
    .where(
      and(
        eq(visits.companyId, owner.companyId),
        eq(visits.technicianId, owner.id),
        gte(visits.scheduledAt, instantAt(addDays(today, -FEED_DAYS_BEFORE), '00:00', owner.timezone)),
        lt(visits.scheduledAt, instantAt(addDays(today, FEED_DAYS_AHEAD + 1), '00:00', owner.timezone)),
      ),
    )
    .orderBy(asc(visits.scheduledAt), asc(visits.id))
    .limit(FEED_LIMIT)

  const appUrl = env().APP_URL
  const visitList: FeedVisit[] = rows.map((row) => ({
    id: row.id,
    customerName: row.customerName,
    address: row.address,
    date: localDateAt(row.scheduledAt, owner.timezone),
    // A one-off visit has no plan, so no window: it may be done any time of the working day.
    serviceWindow: row.serviceWindow ?? 'flexible',
    minutesOnSite: row.minutesOnSite,
    status: visitState(row),
    url: `${appUrl}/app/visits/${row.id}`,
    notes: row.accessNotes,
  }))
  const name = owner.fullName?.trim() || owner.email
  return calendarFeed({
    name: `Pool Bud: ${name}’s visits`,
    timeZone: owner.timezone,
    host: new URL(appUrl).hostname,
    generatedAt: now,
    visits: visitList,
  })
}
