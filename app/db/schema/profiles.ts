import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  time,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { PAY_TYPES } from '../../utils/team-fields'
import { user } from './auth'
import { companies } from './companies'

export const ROLES = ['platform_admin', 'owner', 'admin', 'dispatcher', 'tech', 'customer'] as const
export type Role = (typeof ROLES)[number]

/** How a technician is paid (Team → technician); a plain module, so the browser's form needs no table code. */
export { PAY_TYPES, type PayType } from '../../utils/team-fields'

/** Our side of a user: role, company and contact details. Shares the auth user's id. */
export const profiles = pgTable(
  'profiles',
  {
    id: text('id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    role: text('role', { enum: ROLES }),
    fullName: text('full_name'),
    email: text('email').notNull(),
    phone: text('phone'),
    addressLine1: text('address_line1'),
    addressLine2: text('address_line2'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    country: text('country'),
    /**
     * A technician's day (issue 32, docs/routing.md): where it starts and ends, and working hours (wall-clock, the
     * company's zone). Null: the company's start address, and 08:00–17:00. A place without lat/lng is not routed from.
     */
    startAddress: text('start_address'),
    startLat: doublePrecision('start_lat'),
    startLng: doublePrecision('start_lng'),
    endAddress: text('end_address'),
    endLat: doublePrecision('end_lat'),
    endLng: doublePrecision('end_lng'),
    workStarts: time('work_starts'),
    workEnds: time('work_ends'),
    /** Whether the start / end position is a ZIP code's center rather than the street address (Team → technician). */
    startApproximate: boolean('start_approximate').notNull().default(false),
    endApproximate: boolean('end_approximate').notNull().default(false),
    /**
     * Pay and cost (Team → technician, decision 043), in cents. `hourlyCostCents`: what an hour of this person costs
     * the company, wages and overheads — "Profit per pool"'s labor cost. Pay type 'hourly' pays `hourlyRateCents`;
     * 'per-stop' pays `perStopRateCents` a completed visit and `skippedVisitExtraCents` (optional) a skipped one.
     */
    hourlyCostCents: integer('hourly_cost_cents'),
    payType: text('pay_type', { enum: PAY_TYPES }),
    hourlyRateCents: integer('hourly_rate_cents'),
    perStopRateCents: integer('per_stop_rate_cents'),
    skippedVisitExtraCents: integer('skipped_visit_extra_cents'),
    hasCompletedSetup: boolean('has_completed_setup').notNull().default(false),
    // Deactivated members keep their history but can no longer sign in.
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** SHA-256 of the technician's calendar-feed token (app/schedule/feed-token.server.ts); null: no feed yet. */
    calendarFeedHash: text('calendar_feed_hash').unique('profiles_calendar_feed_hash_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('profiles_company_role_idx').on(t.companyId, t.role),
    check(
      'profiles_role_valid',
      sql`${t.role} is null or ${t.role} in ('platform_admin', 'owner', 'admin', 'dispatcher', 'tech', 'customer')`,
    ),
    check('profiles_start_lat_lng_together', sql`(${t.startLat} is null) = (${t.startLng} is null)`),
    check('profiles_end_lat_lng_together', sql`(${t.endLat} is null) = (${t.endLng} is null)`),
    check('profiles_start_lat_range', sql`${t.startLat} is null or ${t.startLat} between -90 and 90`),
    check('profiles_start_lng_range', sql`${t.startLng} is null or ${t.startLng} between -180 and 180`),
    check('profiles_end_lat_range', sql`${t.endLat} is null or ${t.endLat} between -90 and 90`),
    check('profiles_end_lng_range', sql`${t.endLng} is null or ${t.endLng} between -180 and 180`),
    check('profiles_hourly_cost_not_negative', sql`${t.hourlyCostCents} is null or ${t.hourlyCostCents} >= 0`),
    check('profiles_pay_type_valid', sql`${t.payType} is null or ${t.payType} in ('hourly', 'per-stop')`),
    check('profiles_hourly_rate_not_negative', sql`${t.hourlyRateCents} is null or ${t.hourlyRateCents} >= 0`),
    check('profiles_per_stop_rate_not_negative', sql`${t.perStopRateCents} is null or ${t.perStopRateCents} >= 0`),
    check(
      'profiles_skipped_visit_extra_not_negative',
      sql`${t.skippedVisitExtraCents} is null or ${t.skippedVisitExtraCents} >= 0`,
    ),
    check(
      'profiles_work_hours_order',
      sql`${t.workStarts} is null or ${t.workEnds} is null or ${t.workStarts} < ${t.workEnds}`,
    ),
    // Company staff and customers belong to a company; platform admins never do.
    check(
      'profiles_company_matches_role',
      sql`(${t.role} = 'platform_admin' and ${t.companyId} is null) or ${t.role} is null or (${t.role} <> 'platform_admin' and ${t.companyId} is not null)`,
    ),
  ],
)
