// The values a customer record's fields may take (docs/product.md "Records"). Dependency-free: the database schema, the
// Zod schemas of the forms (browser and server) and the import all read them from here.

export const CUSTOMER_STATUSES = ['active', 'archived'] as const
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number]

export const EQUIPMENT_KINDS = ['pump', 'filter', 'heater', 'chlorinator', 'cleaner', 'automation', 'other'] as const
export type EquipmentKind = (typeof EQUIPMENT_KINDS)[number]

export const RATE_TYPES = ['per-visit', 'monthly', 'monthly-plus-chemicals', 'per-visit-plus-chemicals'] as const
export type RateType = (typeof RATE_TYPES)[number]

export const MIN_MINUTES_ON_SITE = 1
export const MAX_MINUTES_ON_SITE = 480
export const DEFAULT_MINUTES_ON_SITE = 30
export const MIN_GALLONS = 100
export const MAX_GALLONS = 2_000_000

/** Where a location's position came from (docs/subsystems.md, "Positions"); only 'zip' is approximate. */
export const POSITION_SOURCES = ['zip', 'geocoder', 'manual', 'import'] as const
export type PositionSource = (typeof POSITION_SOURCES)[number]
