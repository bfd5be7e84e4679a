import { sql } from 'drizzle-orm'
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { CHEMICAL_UNITS } from '../../utils/chemicals'
import { companyRef, rowId } from './columns'
import { customers } from './customers'
import { inventoryItems } from './inventory'
import { profiles } from './profiles'
import { bodiesOfWater, serviceLocations } from './service-locations'
import { servicePlans } from './service-plans'

export const visits = pgTable(
  'visits',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    /** The customer's service location the visit is at. */
    locationId: uuid('location_id').notNull(),
    customerName: text('customer_name').notNull(),
    /** The visit's address as it was when booked (the location's address then). */
    address: text('address').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * "Reopen visit" on a completed visit: the completion it undid (from `completedAt`, until `reopenedAt`). An invoice
     * that counted its month in between billed that completion, so completing the visit again is not a late completion
     * (docs/billing.md, "Late completions"). The first reopened completion is kept; null: never reopened.
     */
    reopenedCompletionAt: timestamp('reopened_completion_at', { withTimezone: true }),
    reopenedAt: timestamp('reopened_at', { withTimezone: true }),
    /**
     * A visit nobody will do (its customer was archived, say): it leaves every open-work list and count and stays
     * in history as "Canceled". Open work is `completed_at is null and canceled_at is null`.
     */
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    /**
     * "Skip visit"'s reason (docs/product.md "Schedule"): a skipped visit is a canceled one with a reason, so it
     * leaves open work exactly as a canceled one does, and shows as "Skipped" (not billed; the customer is told).
     */
    skipReason: text('skip_reason'),
    /**
     * A visit generated from a service plan: the plan and the date it stands for (a local date in the company's
     * zone). Unique together, which makes generation idempotent; the occurrence date stays when the visit is moved,
     * so a moved visit is never generated again. Both null: a one-off visit.
     */
    planId: uuid('plan_id'),
    occurrenceDate: date('occurrence_date', { mode: 'string' }),
    /** When the office moved this visit by hand ("This visit only"): a plan change then leaves it where it is. */
    movedAt: timestamp('moved_at', { withTimezone: true }),
    /** The stop's place in its technician's day as the office ordered it (null: by time, after ordered stops). */
    routePosition: integer('route_position'),
    /**
     * A fixed appointment (issue 32, docs/routing.md): the technician should arrive by this instant, and the route
     * keeps it as the window [T, T]. Null: no appointment (the location's "Arrive between", if any, holds).
     */
    appointmentAt: timestamp('appointment_at', { withTimezone: true }),
    /**
     * "Note for office" and "Note for customer" (docs/product.md "The visit"); the customer's note is in the service
     * report.
     */
    officeNote: text('office_note'),
    customerNote: text('customer_note'),
    /** Who marked the visit complete (null for visits completed before this was kept, or by a removed user). */
    completedBy: text('completed_by').references(() => profiles.id, { onDelete: 'set null' }),
    technicianId: text('technician_id').references(() => profiles.id, { onDelete: 'set null' }),
    /**
     * The phone's times of the visit (docs/time.md): the first "On my way" and "Mark Complete" as tapped (a tap
     * queued offline keeps its moment; `completedAt` is when the server recorded the completion). Timesheets read a
     * stop's drive and on-site minutes from them.
     */
    onMyWayAt: timestamp('on_my_way_at', { withTimezone: true }),
    completedOnPhoneAt: timestamp('completed_on_phone_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the database on every change (a trigger: every write path), for the API's `updated_since`. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('visits_company_updated_idx').on(t.companyId, t.updatedAt),
    foreignKey({
      name: 'visits_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    // No cascade: a location with visits is archived, never deleted.
    foreignKey({
      name: 'visits_company_location_fk',
      columns: [t.companyId, t.locationId],
      foreignColumns: [serviceLocations.companyId, serviceLocations.id],
    }),
    unique('visits_company_id_id_key').on(t.companyId, t.id),
    // No cascade: plans are ended, never deleted, while they have visits.
    foreignKey({
      name: 'visits_company_plan_fk',
      columns: [t.companyId, t.planId],
      foreignColumns: [servicePlans.companyId, servicePlans.id],
    }),
    // Generation's idempotency: one visit per plan and occurrence date, however many servers generate at once.
    unique('visits_company_plan_occurrence_key').on(t.companyId, t.planId, t.occurrenceDate),
    check('visits_plan_has_occurrence', sql`(${t.planId} is null) = (${t.occurrenceDate} is null)`),
    check('visits_skip_is_cancellation', sql`${t.skipReason} is null or ${t.canceledAt} is not null`),
    check('visits_skip_reason_not_blank', sql`${t.skipReason} is null or length(trim(${t.skipReason})) > 0`),
    // Open work in schedule order, ties by id (listOpenVisits pages by both): dashboards, "upcoming", "overdue".
    index('visits_company_open_scheduled_idx')
      .on(t.companyId, t.scheduledAt, t.id)
      .where(sql`${t.completedAt} is null and ${t.canceledAt} is null`),
    // Counts of a day's visits, open or done (dashboards' "today").
    index('visits_company_scheduled_idx').on(t.companyId, t.scheduledAt),
    // Recent completions, newest first.
    // Newest completions first: `order by completed_at desc, id desc` (DESC sorts nulls first, so the
    // index must too or PostgreSQL sorts every completed visit instead of reading five).
    index('visits_company_completed_idx')
      .on(t.companyId, t.completedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.completedAt} is not null`),
    // A month's completed visits by the plan date they belong to ("Profit per pool", the owner's labor total).
    index('visits_company_completed_occurrence_idx')
      .on(t.companyId, t.occurrenceDate)
      .where(sql`${t.completedAt} is not null`),
    // A technician's history, newest first.
    index('visits_company_technician_completed_idx')
      .on(t.companyId, t.technicianId, t.completedAt.desc().nullsFirst())
      .where(sql`${t.completedAt} is not null`),
    index('visits_company_technician_scheduled_idx').on(t.companyId, t.technicianId, t.scheduledAt),
    // A technician's open work by schedule (their "Overdue"): planned without the values (a prepared statement,
    // decision 073), the index above read every visit the technician ever had to find the few still open.
    index('visits_company_technician_open_scheduled_idx')
      .on(t.companyId, t.technicianId, t.scheduledAt)
      .where(sql`${t.completedAt} is null and ${t.canceledAt} is null`),
    index('visits_company_customer_scheduled_idx').on(t.companyId, t.customerId, t.scheduledAt),
    index('visits_company_location_scheduled_idx').on(t.companyId, t.locationId, t.scheduledAt),
    // The dispatcher's "recently created" (`order by created_at desc`).
    index('visits_company_created_idx').on(t.companyId, t.createdAt.desc().nullsFirst()),
    check('visits_customer_name_not_blank', sql`length(trim(${t.customerName})) > 0`),
    check('visits_address_not_blank', sql`length(trim(${t.address})) > 0`),
    check('visits_office_note_length', sql`${t.officeNote} is null or length(${t.officeNote}) <= 2000`),
    check('visits_customer_note_length', sql`${t.customerNote} is null or length(${t.customerNote}) <= 2000`),
    check('visits_completed_or_canceled', sql`${t.completedAt} is null or ${t.canceledAt} is null`),
  ],
)

export const chemLogs = pgTable(
  'chem_logs',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    /**
     * The visit's customer, so that a customer's newest readings are an index range (the portal) instead of every
     * visit's readings sorted. Never written by the app: a trigger copies it from the visit on every insert and
     * change of visit (migration 0044), so it cannot disagree with the visit. The default only tells Drizzle that an
     * insert may leave it out.
     */
    customerId: uuid('customer_id').notNull().default(sql`null`),
    /** Which pool or spa of the visit's location the reading is of (null: not said). */
    bodyOfWaterId: uuid('body_of_water_id'),
    ph: numeric('ph', { precision: 4, scale: 2, mode: 'number' }).notNull(),
    chlorinePpm: numeric('chlorine_ppm', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    alkalinity: numeric('alkalinity', { precision: 6, scale: 1, mode: 'number' }).notNull(),
    // Optional readings: with them the saturation index and the full status can be computed.
    cyanuricAcid: numeric('cyanuric_acid', { precision: 5, scale: 1, mode: 'number' }),
    calciumHardness: numeric('calcium_hardness', { precision: 6, scale: 1, mode: 'number' }),
    salt: numeric('salt', { precision: 6, scale: 0, mode: 'number' }),
    waterTempF: numeric('water_temp_f', { precision: 4, scale: 1, mode: 'number' }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'chem_logs_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    // No cascade: a body of water with readings stays (body-of-water.server.ts refuses to remove it).
    foreignKey({
      name: 'chem_logs_company_body_of_water_fk',
      columns: [t.companyId, t.bodyOfWaterId],
      foreignColumns: [bodiesOfWater.companyId, bodiesOfWater.id],
    }),
    index('chem_logs_company_visit_taken_idx').on(t.companyId, t.visitId, t.takenAt.desc()),
    // A customer's newest readings (the portal's "Latest water chemistry"), read backward: ascending columns, so that
    // `order by taken_at desc, id desc` (nulls first, PostgreSQL's default) is this index's order.
    index('chem_logs_company_customer_taken_idx').on(t.companyId, t.customerId, t.takenAt, t.id),
    // Whether a body of water has readings (it then stays), and the foreign key's check on deleting one.
    index('chem_logs_company_body_of_water_idx').on(t.companyId, t.bodyOfWaterId),
    check('chem_logs_ph_range', sql`${t.ph} between 0 and 14`),
    check('chem_logs_chlorine_range', sql`${t.chlorinePpm} between 0 and 50`),
    check('chem_logs_alkalinity_range', sql`${t.alkalinity} between 0 and 500`),
    check('chem_logs_cyanuric_acid_range', sql`${t.cyanuricAcid} between 0 and 300`),
    check('chem_logs_calcium_hardness_range', sql`${t.calciumHardness} between 0 and 2000`),
    check('chem_logs_salt_range', sql`${t.salt} between 0 and 10000`),
    check('chem_logs_water_temp_range', sql`${t.waterTempF} between 32 and 110`),
  ],
)

/**
 * One row per visit whose service report was queued: the primary key makes "sent once" a database rule, so a
 * double click, a retry or two app servers completing the same visit can never email the customer twice.
 */
export const serviceReports = pgTable(
  'service_reports',
  {
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    sentTo: text('sent_to').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'service_reports_pkey', columns: [t.companyId, t.visitId] }),
    foreignKey({
      name: 'service_reports_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
  ],
)

/** What a technician added to the water on a visit; an inventory item, when chosen, had its stock deducted. */
export const visitChemicalAdditions = pgTable(
  'visit_chemical_additions',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    inventoryItemId: uuid('inventory_item_id'),
    product: text('product').notNull(),
    quantity: numeric('quantity', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    unit: text('unit', { enum: CHEMICAL_UNITS }).notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'visit_chemical_additions_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    // No cascade: deleting a stock item must not erase what was put in a customer's pool.
    foreignKey({
      name: 'visit_chemical_additions_company_item_fk',
      columns: [t.companyId, t.inventoryItemId],
      foreignColumns: [inventoryItems.companyId, inventoryItems.id],
    }),
    index('visit_chemical_additions_company_visit_idx').on(t.companyId, t.visitId, t.addedAt),
    check('visit_chemical_additions_product_not_blank', sql`length(trim(${t.product})) > 0`),
    check('visit_chemical_additions_quantity_positive', sql`${t.quantity} > 0 and ${t.quantity} <= 100000`),
    check('visit_chemical_additions_unit_valid', sql`${t.unit} in ('fl oz', 'gal', 'oz', 'lb', 'each')`),
  ],
)
