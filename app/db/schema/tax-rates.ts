import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core'
import { companyRef, rowId } from './columns'

/**
 * Settings → "Tax rates" (issue 31 item 9, docs/decisions/052-tax-rates.md): a company's named sales-tax rates, in
 * thousandths of a percent (7250 = 7.25 %). At most one is the default, used by every service location that names
 * none. A rate a location uses cannot be removed (the locations' foreign key); an invoice's tax line keeps its own
 * name and percent, so changing or removing a rate never changes an invoice already made.
 */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: rowId(),
    companyId: companyRef(),
    name: text('name').notNull(),
    milliPercent: integer('milli_percent').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('tax_rates_company_id_id_key').on(t.companyId, t.id),
    uniqueIndex('tax_rates_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    // One default per company at most: two saves at once cannot leave two.
    uniqueIndex('tax_rates_company_default_key').on(t.companyId).where(sql`${t.isDefault}`),
    index('tax_rates_company_created_idx').on(t.companyId, t.createdAt),
    check('tax_rates_name_not_blank', sql`length(trim(${t.name})) > 0`),
    check('tax_rates_milli_percent_range', sql`${t.milliPercent} between 0 and 30000`),
  ],
)
