import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { SANITISERS, SURFACES } from '../../water/targets'
import { user } from './auth'
import { companies } from './companies'

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    customerName: text('customer_name').notNull(),
    address: text('address').notNull(),
    phone: text('phone'),
    email: text('email'),
    /** Money owed, in cents. */
    balanceDue: integer('balance_due').notNull().default(0),
    /** The auth user who signs in to this customer's portal, once invited and set up. */
    portalUserId: text('portal_user_id').references(() => user.id, { onDelete: 'set null' }),
    // Pool profile (all optional): what readings are judged against and doses are computed for.
    poolVolumeGallons: integer('pool_volume_gallons'),
    poolSurface: text('pool_surface', { enum: SURFACES }),
    poolSanitiser: text('pool_sanitiser', { enum: SANITISERS }),
    poolIndoor: boolean('pool_indoor'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Lets jobs reference (company_id, customer_id) so a job can never point at another company's customer.
    unique('customers_company_id_id_key').on(t.companyId, t.id),
    unique('customers_portal_user_id_key').on(t.portalUserId),
    index('customers_company_name_idx').on(t.companyId, t.customerName),
    index('customers_company_created_idx').on(t.companyId, t.createdAt),
    check('customers_name_not_blank', sql`length(trim(${t.customerName})) > 0`),
    check('customers_address_not_blank', sql`length(trim(${t.address})) > 0`),
    check('customers_pool_volume_range', sql`${t.poolVolumeGallons} between 100 and 2000000`),
    check('customers_pool_surface_valid', sql`${t.poolSurface} in ('plaster', 'vinyl', 'fibreglass')`),
    check('customers_pool_sanitiser_valid', sql`${t.poolSanitiser} in ('chlorine', 'salt')`),
  ],
)
