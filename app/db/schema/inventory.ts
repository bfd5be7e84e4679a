import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies'

export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    qty: integer('qty').notNull().default(0),
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
  ],
)
