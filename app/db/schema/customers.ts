import { sql } from 'drizzle-orm'
import { boolean, check, index, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core'
import { CUSTOMER_STATUSES } from '~/utils/customer-fields'
import { user } from './auth'
import { companyRef, rowId } from './columns'

/** The customer's notices per event ('on-my-way' …) and channel: false is off; absent is on. */
export type NoticeChoices = Partial<Record<string, { email?: boolean; text?: boolean }>>

/**
 * The account holder (docs/product.md "Records"). Where the pools are — addresses, gate codes, the water — lives on the
 * customer's service locations (`service-locations.ts`).
 */
export const customers = pgTable(
  'customers',
  {
    id: rowId(),
    companyId: companyRef(),
    customerName: text('customer_name').notNull(),
    /** Where invoices go, when it is not the service address. */
    billingAddress: text('billing_address'),
    /** E.164 ("+18135550101"); shown nationally formatted. */
    phone: text('phone'),
    /** Lower-case. */
    email: text('email'),
    notes: text('notes'),
    /**
     * The customer's own choice (docs/product.md "Notices"): notices by email, by text. Off means never, whatever the
     * company says.
     */
    noticesByEmail: boolean('notices_by_email').notNull().default(true),
    noticesByText: boolean('notices_by_text').notNull().default(true),
    /**
     * The customer's choice per event (the portal's "Notifications", docs/decisions/047-customer-times.md): a channel
     * set false here is never used for that event. Absent means on (the company's settings and the switches above
     * decide). A number that replied STOP is never texted, whatever this says.
     */
    noticeChoices: jsonb('notice_choices').$type<NoticeChoices>().notNull().default(sql`'{}'::jsonb`),
    status: text('status', { enum: CUSTOMER_STATUSES }).notNull().default('active'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /**
     * Stripe (docs/product.md "Billing", decision 021): the Stripe customer, and the card saved for automatic payments
     * with what the office and the customer are shown of it ("Visa ending 4242"). The balance is not stored: invoices
     * minus payments.
     */
    stripeCustomerId: text('stripe_customer_id'),
    autopayPaymentMethodId: text('autopay_payment_method_id'),
    autopayCardLabel: text('autopay_card_label'),
    /** The auth user who signs in to this customer's portal, once invited and set up. */
    portalUserId: text('portal_user_id').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the database on every change (a trigger: every write path), for the API's `updated_since`. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customers_company_updated_idx').on(t.companyId, t.updatedAt),
    // Lets visits and locations reference (company_id, customer_id): never another company's customer.
    unique('customers_company_id_id_key').on(t.companyId, t.id),
    unique('customers_portal_user_id_key').on(t.portalUserId),
    index('customers_company_name_idx').on(t.companyId, t.customerName),
    index('customers_company_created_idx').on(t.companyId, t.createdAt),
    // The list's default filter (Active / Archived) in name order.
    index('customers_company_status_name_idx').on(t.companyId, t.status, t.customerName, t.id),
    // Type-ahead over name, email and phone (pg_trgm, with btree_gin for the leading company_id): the same
    // expression as `customerSearchText` in customer-search.server.ts, or the index is not used.
    index('customers_company_search_trgm_idx').using(
      'gin',
      t.companyId,
      sql`(${t.customerName} || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.phone}, '')) gin_trgm_ops`,
    ),
    check('customers_name_not_blank', sql`length(trim(${t.customerName})) > 0`),
    check(
      'customers_billing_address_not_blank',
      sql`${t.billingAddress} is null or length(trim(${t.billingAddress})) > 0`,
    ),
    check('customers_status_valid', sql`${t.status} in ('active', 'archived')`),
    // Archived exactly when it says when.
    check('customers_archived_at_matches_status', sql`(${t.status} = 'archived') = (${t.archivedAt} is not null)`),
  ],
)
