import { sql } from 'drizzle-orm'
import { check, date, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { RATE_TYPES } from '~/utils/customer-fields'
import { companyRef, rowId } from './columns'
import { SERVICE_WINDOWS } from './companies'
import { profiles } from './profiles'
import { serviceLocations } from './service-locations'

/**
 * A location's recurring service (docs/product.md "Records", "Schedule"): every `frequency_weeks` weeks on `weekday`
 * (ISO, 1 = Monday) from `starts_on`. Stored so an import keeps what the file said; the schedule step generates visits
 * from it.
 */
export const servicePlans = pgTable(
  'service_plans',
  {
    id: rowId(),
    companyId: companyRef(),
    locationId: uuid('location_id').notNull(),
    frequencyWeeks: integer('frequency_weeks').notNull().default(1),
    weekday: integer('weekday').notNull(),
    /** Null: unassigned. */
    technicianId: text('technician_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** Local dates ('YYYY-MM-DD') in the company's timezone. */
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }),
    /**
     * "Pause plan" (docs/decisions/048-…): the first day without visits, on the plan that resumes on `starts_on`. Set
     * while the pause is ahead or under way ("Paused until …"); cleared by "Resume now". Null: not paused.
     */
    pausedFrom: date('paused_from', { mode: 'string' }),
    serviceWindow: text('service_window', { enum: SERVICE_WINDOWS }).notNull().default('flexible'),
    rateCents: integer('rate_cents').notNull().default(0),
    rateType: text('rate_type', { enum: RATE_TYPES }).notNull().default('per-visit'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the database on every change (a trigger: every write path), for the API's `updated_since`. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_plans_company_updated_idx').on(t.companyId, t.updatedAt),
    foreignKey({
      name: 'service_plans_company_location_fk',
      columns: [t.companyId, t.locationId],
      foreignColumns: [serviceLocations.companyId, serviceLocations.id],
    }).onDelete('cascade'),
    unique('service_plans_company_id_id_key').on(t.companyId, t.id),
    index('service_plans_company_location_idx').on(t.companyId, t.locationId, t.weekday),
    check('service_plans_frequency_range', sql`${t.frequencyWeeks} between 1 and 4`),
    check('service_plans_weekday_range', sql`${t.weekday} between 1 and 7`),
    check('service_plans_ends_after_start', sql`${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}`),
    check('service_plans_service_window_valid', sql`${t.serviceWindow} in ('morning', 'afternoon', 'flexible')`),
    check('service_plans_rate_non_negative', sql`${t.rateCents} >= 0`),
    check(
      'service_plans_rate_type_valid',
      sql`${t.rateType} in ('per-visit', 'monthly', 'monthly-plus-chemicals', 'per-visit-plus-chemicals')`,
    ),
  ],
)
