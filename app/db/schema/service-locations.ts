import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  text,
  time,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import {
  DEFAULT_MINUTES_ON_SITE,
  EQUIPMENT_KINDS,
  MAX_GALLONS,
  MAX_MINUTES_ON_SITE,
  MIN_GALLONS,
  MIN_MINUTES_ON_SITE,
  POSITION_SOURCES,
} from '~/utils/customer-fields'
import { SANITIZERS, SURFACES } from '../../water/targets'
import { companyRef, rowId } from './columns'
import { customers } from './customers'
import { taxRates } from './tax-rates'

/** Where a customer's pools are (docs/product.md "Records"): a customer has one or more. */
export const serviceLocations = pgTable(
  'service_locations',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    /** "Main house", "Rental on 5th": optional, for customers with several. */
    label: text('label'),
    street: text('street').notNull(),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    // Six decimals is about 10 cm: more than a route needs, and what the import keeps.
    lat: numeric('lat', { precision: 9, scale: 6, mode: 'number' }),
    lng: numeric('lng', { precision: 9, scale: 6, mode: 'number' }),
    /**
     * Where lat/lng came from (docs/subsystems.md, "Positions"): 'zip' the ZIP code's center (approximate, shown as
     * such on the route), 'geocoder' the street address looked up on GEOCODER_URL, 'manual' typed or dragged by a
     * person, 'import' coordinates from an imported file. Null with no position, and for positions older than this.
     */
    positionSource: text('position_source', { enum: POSITION_SOURCES }),
    /** When the background pass last claimed this 'zip' position for the geocoder; null while it still waits. */
    geocodeTriedAt: timestamp('geocode_tried_at', { withTimezone: true }),
    /** Staff of the company only (docs/architecture.md "Shared rules"): never in the portal's read models. */
    gateCode: text('gate_code'),
    accessNotes: text('access_notes'),
    dogOnSite: boolean('dog_on_site').notNull().default(false),
    minutesOnSite: integer('minutes_on_site').notNull().default(DEFAULT_MINUTES_ON_SITE),
    /**
     * "Arrive between" (wall-clock times, the company's zone): the route keeps arrivals inside it (docs/routing.md).
     */
    arriveFrom: time('arrive_from'),
    arriveUntil: time('arrive_until'),
    /** The customer's locations in this order; the first is the one shown where only one fits. */
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set instead of deleting a location that has visits: its history stays, it leaves pickers. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** Its tax rate (Settings → "Tax rates"); null: the company's default (docs/billing.md, "Tax"). */
    taxRateId: uuid('tax_rate_id'),
  },
  (t) => [
    foreignKey({
      name: 'service_locations_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    unique('service_locations_company_id_id_key').on(t.companyId, t.id),
    // A rate in use cannot be removed (no action): Settings → "Tax rates" names the locations using it.
    foreignKey({
      name: 'service_locations_company_tax_rate_fk',
      columns: [t.companyId, t.taxRateId],
      foreignColumns: [taxRates.companyId, taxRates.id],
    }),
    index('service_locations_company_tax_rate_idx').on(t.companyId, t.taxRateId),
    index('service_locations_company_customer_idx').on(t.companyId, t.customerId, t.position),
    // Search by address: the same expression as `locationSearchText` in customer-search.server.ts.
    index('service_locations_company_search_trgm_idx').using(
      'gin',
      t.companyId,
      sql`(coalesce(${t.label}, '') || ' ' || ${t.street} || ' ' || coalesce(${t.city}, '') || ' ' || coalesce(${t.state}, '') || ' ' || coalesce(${t.postalCode}, '')) gin_trgm_ops`,
    ),
    check('service_locations_street_not_blank', sql`length(trim(${t.street})) > 0`),
    check('service_locations_lat_range', sql`${t.lat} between -90 and 90`),
    check('service_locations_lng_range', sql`${t.lng} between -180 and 180`),
    check('service_locations_lat_lng_together', sql`(${t.lat} is null) = (${t.lng} is null)`),
    check(
      'service_locations_position_source_valid',
      sql`${t.positionSource} is null or (${t.positionSource} in ('zip', 'geocoder', 'manual', 'import') and ${t.lat} is not null)`,
    ),
    // The background geocoding pass finds what it still has to place without reading the whole table.
    index('service_locations_zip_positions_idx').on(t.geocodeTriedAt).where(sql`${t.positionSource} = 'zip'`),
    check(
      'service_locations_arrive_window_order',
      sql`${t.arriveFrom} is null or ${t.arriveUntil} is null or ${t.arriveFrom} <= ${t.arriveUntil}`,
    ),
    check(
      'service_locations_minutes_on_site_range',
      sql`${t.minutesOnSite} between ${sql.raw(String(MIN_MINUTES_ON_SITE))} and ${sql.raw(String(MAX_MINUTES_ON_SITE))}`,
    ),
  ],
)

/** A pool, spa or fountain at a location: what readings are judged against and doses computed for. */
export const bodiesOfWater = pgTable(
  'bodies_of_water',
  {
    id: rowId(),
    companyId: companyRef(),
    locationId: uuid('location_id').notNull(),
    name: text('name').notNull().default('Pool'),
    gallons: integer('gallons'),
    surface: text('surface', { enum: SURFACES }),
    sanitizer: text('sanitizer', { enum: SANITIZERS }),
    indoor: boolean('indoor'),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'bodies_of_water_company_location_fk',
      columns: [t.companyId, t.locationId],
      foreignColumns: [serviceLocations.companyId, serviceLocations.id],
    }).onDelete('cascade'),
    unique('bodies_of_water_company_id_id_key').on(t.companyId, t.id),
    index('bodies_of_water_company_location_idx').on(t.companyId, t.locationId, t.position),
    check('bodies_of_water_name_not_blank', sql`length(trim(${t.name})) > 0`),
    check(
      'bodies_of_water_gallons_range',
      sql`${t.gallons} between ${sql.raw(String(MIN_GALLONS))} and ${sql.raw(String(MAX_GALLONS))}`,
    ),
    check('bodies_of_water_surface_valid', sql`${t.surface} in ('plaster', 'vinyl', 'fiberglass')`),
    check('bodies_of_water_sanitizer_valid', sql`${t.sanitizer} in ('chlorine', 'salt')`),
  ],
)

/** What runs a body of water: the technician needs the make and model to bring the right part. */
export const equipment = pgTable(
  'equipment',
  {
    id: rowId(),
    companyId: companyRef(),
    bodyOfWaterId: uuid('body_of_water_id').notNull(),
    kind: text('kind', { enum: EQUIPMENT_KINDS }).notNull(),
    make: text('make'),
    model: text('model'),
    serial: text('serial'),
    /** A local date ('YYYY-MM-DD'). */
    installedOn: date('installed_on', { mode: 'string' }),
    /** A local date ('YYYY-MM-DD'): "Under warranty" shows on its quotes and work orders until then. */
    warrantyUntil: date('warranty_until', { mode: 'string' }),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'equipment_company_body_of_water_fk',
      columns: [t.companyId, t.bodyOfWaterId],
      foreignColumns: [bodiesOfWater.companyId, bodiesOfWater.id],
    }).onDelete('cascade'),
    index('equipment_company_body_of_water_idx').on(t.companyId, t.bodyOfWaterId, t.createdAt),
    check(
      'equipment_kind_valid',
      sql`${t.kind} in ('pump', 'filter', 'heater', 'chlorinator', 'cleaner', 'automation', 'other')`,
    ),
  ],
)
