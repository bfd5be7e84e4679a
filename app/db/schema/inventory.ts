import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core'
/** An item's unit (docs/inventory.md "Units"): stock is counted in whole units of it. */
import { ITEM_UNITS } from '../../utils/stock-units'
import { companyRef, rowId } from './columns'

export { ITEM_UNITS, type ItemUnit } from '../../utils/stock-units'

export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: rowId(),
    companyId: companyRef(),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    /** The company-wide total: the sum of the item's stock_levels, kept in the same transaction (decision 060). */
    qty: integer('qty').notNull().default(0),
    unit: text('unit', { enum: ITEM_UNITS }).notNull().default('each'),
    /** A pack the item also comes in ("case" of 4): receiving, transfers and counts may be entered in packs. */
    packName: text('pack_name'),
    packSize: integer('pack_size'),
    /** A location is low on this item at or below this many units, unless the location sets its own minimum. */
    minQty: integer('min_qty').notNull().default(5),
    /** Unit price in cents. */
    priceCents: integer('price_cents').notNull().default(0),
    /** What a unit costs the company, in cents: chemical cost in "Profit per pool". */
    costCents: integer('cost_cents').notNull().default(0),
  },
  (t) => [
    unique('inventory_items_company_sku_key').on(t.companyId, t.sku),
    // Lets chemical additions reference (company_id, item_id): never another company's stock.
    unique('inventory_items_company_id_id_key').on(t.companyId, t.id),
    index('inventory_items_company_name_idx').on(t.companyId, t.name),
    check('inventory_items_qty_non_negative', sql`${t.qty} >= 0`),
    check('inventory_items_price_non_negative', sql`${t.priceCents} >= 0`),
    check('inventory_items_cost_non_negative', sql`${t.costCents} >= 0`),
    check('inventory_items_min_qty_non_negative', sql`${t.minQty} >= 0`),
    check(
      'inventory_items_pack_valid',
      sql`(${t.packName} is null and ${t.packSize} is null) or (length(trim(${t.packName})) between 1 and 20 and ${t.packSize} between 2 and 10000)`,
    ),
  ],
)
