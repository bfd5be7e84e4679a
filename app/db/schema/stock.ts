// Truck stock (issue 33 item 5; docs/inventory.md, decision 060): where stock is (the warehouse and a truck per
// technician), how much of each item is at each place, and the ledger of every change. A change is a new movement
// row, never an edit; a location's quantity is the sum of its movements and never below zero.
import { sql } from 'drizzle-orm'
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { companyRef, rowId } from './columns'
import { inventoryItems } from './inventory'
import { profiles } from './profiles'

export const STOCK_LOCATION_KINDS = ['warehouse', 'truck'] as const
export type StockLocationKind = (typeof STOCK_LOCATION_KINDS)[number]

/** The company's warehouse (one, made with the company) and its technicians' trucks (made when first stocked). */
export const stockLocations = pgTable(
  'stock_locations',
  {
    id: rowId(),
    companyId: companyRef(),
    kind: text('kind', { enum: STOCK_LOCATION_KINDS }).notNull(),
    /** A truck's technician; a truck keeps its stock (and name) if the technician's profile goes. */
    technicianId: text('technician_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** "Warehouse" or "Truck — Tyler Brooks", set when the location is made. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('stock_locations_company_id_id_key').on(t.companyId, t.id),
    uniqueIndex('stock_locations_one_warehouse_idx').on(t.companyId).where(sql`${t.kind} = 'warehouse'`),
    unique('stock_locations_company_technician_key').on(t.companyId, t.technicianId),
    check('stock_locations_warehouse_has_no_technician', sql`${t.kind} = 'truck' or ${t.technicianId} is null`),
  ],
)

/** How many units of an item are at a location (never below zero), and the location's own minimum if it has one. */
export const stockLevels = pgTable(
  'stock_levels',
  {
    companyId: companyRef(),
    itemId: uuid('item_id').notNull(),
    locationId: uuid('location_id').notNull(),
    qty: integer('qty').notNull().default(0),
    /** Null: the item's minimum. */
    minQty: integer('min_qty'),
  },
  (t) => [
    unique('stock_levels_company_item_location_key').on(t.companyId, t.itemId, t.locationId),
    index('stock_levels_company_location_idx').on(t.companyId, t.locationId),
    foreignKey({
      name: 'stock_levels_company_item_fk',
      columns: [t.companyId, t.itemId],
      foreignColumns: [inventoryItems.companyId, inventoryItems.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'stock_levels_company_location_fk',
      columns: [t.companyId, t.locationId],
      foreignColumns: [stockLocations.companyId, stockLocations.id],
    }).onDelete('cascade'),
    check('stock_levels_qty_non_negative', sql`${t.qty} >= 0`),
    check('stock_levels_min_qty_non_negative', sql`${t.minQty} is null or ${t.minQty} >= 0`),
  ],
)

export const STOCK_MOVEMENT_KINDS = [
  'initial',
  'received',
  'transfer-out',
  'transfer-in',
  'used',
  'count',
  'adjusted',
] as const
export type StockMovementKind = (typeof STOCK_MOVEMENT_KINDS)[number]

/**
 * The inventory history: one row per change of one location's stock of one item, never edited. A transfer is two
 * rows (out and in) sharing its `request_key`; `request_key` also makes a form sent twice one change.
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: rowId(),
    /** The order movements were written in: a transfer's two rows share one transaction time. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    companyId: companyRef(),
    itemId: uuid('item_id').notNull(),
    locationId: uuid('location_id').notNull(),
    kind: text('kind', { enum: STOCK_MOVEMENT_KINDS }).notNull(),
    /** Units added (positive) or taken (negative); a count that matched is 0. */
    change: integer('change').notNull(),
    /** The location's quantity after this change. */
    qtyAfter: integer('qty_after').notNull(),
    /** The other side of a transfer. */
    otherLocationId: uuid('other_location_id'),
    /** The visit stock was used on (no foreign key: the history outlives a deleted visit). */
    visitId: uuid('visit_id'),
    reason: text('reason'),
    /** The form's token: the same form sent twice is one change. */
    requestKey: uuid('request_key'),
    createdBy: text('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // An item's history, newest first: `desc` is nulls first in PostgreSQL, and only an index in that order (not
    // drizzle-kit's default `desc nulls last`) gives `order by seq desc` without sorting all the item's movements.
    index('stock_movements_company_item_idx').on(t.companyId, t.itemId, t.seq.desc().nullsFirst()),
    index('stock_movements_company_visit_idx').on(t.companyId, t.visitId).where(sql`${t.visitId} is not null`),
    unique('stock_movements_company_request_kind_key').on(t.companyId, t.requestKey, t.kind),
    foreignKey({
      name: 'stock_movements_company_item_fk',
      columns: [t.companyId, t.itemId],
      foreignColumns: [inventoryItems.companyId, inventoryItems.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'stock_movements_company_location_fk',
      columns: [t.companyId, t.locationId],
      foreignColumns: [stockLocations.companyId, stockLocations.id],
    }).onDelete('cascade'),
    check('stock_movements_qty_after_non_negative', sql`${t.qtyAfter} >= 0`),
    check('stock_movements_change_sign', sql`${t.change} <> 0 or ${t.kind} = 'count'`),
    check(
      'stock_movements_reason_given',
      sql`${t.kind} not in ('count', 'adjusted') or length(trim(coalesce(${t.reason}, ''))) between 1 and 200`,
    ),
    check('stock_movements_used_has_visit', sql`${t.kind} <> 'used' or ${t.visitId} is not null`),
  ],
)
