import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { DEFAULT_POOL_BUD_PLAN, POOL_BUD_PLANS } from '../../billing/pool-bud-plans'
import { SERVICE_WINDOWS } from '../../utils/company-fields'

/** A company's notice settings per event ('on-my-way' …): channels on or off, and wording per channel. */
export type NoticeSettings = Partial<
  Record<string, { email?: boolean; text?: boolean; emailTemplate?: string; textTemplate?: string }>
>

// The values live in a plain module the browser can import without this file's table code (docs/performance.md).
export { SERVICE_WINDOWS, type ServiceWindow } from '../../utils/company-fields'

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    stripeAccountId: text('stripe_account_id'),
    // Settings (docs/product.md "Screens" Settings, docs/product.md "Roles": dates are computed in this timezone).
    timezone: text('timezone').notNull().default('America/New_York'),
    defaultServiceWindow: text('default_service_window', { enum: SERVICE_WINDOWS }).notNull().default('flexible'),
    cardPublishableKey: text('card_publishable_key'),
    customerPortalUrl: text('customer_portal_url'),
    /** Settings → "Company email": the Reply-To of customer emails (docs/decisions/044-company-brand.md). */
    email: text('email'),
    /** Settings → "Company address": the mailing address printed on invoices, one line per line. */
    mailingAddress: text('mailing_address'),
    /**
     * Settings → "Company logo": its file in private storage (`logos/<random>.png|jpg`); the file name is also the
     * logo's public address (/logo/<file>). Null when the company has none.
     */
    logoKey: text('logo_key'),
    /** Email the customer a service report when a visit is marked complete. */
    serviceReportsEnabled: boolean('service_reports_enabled').notNull().default(true),
    /** List the chemicals a technician added on each visit in the portal and the service report. */
    itemizeChemicals: boolean('itemize_chemicals').notNull().default(true),
    /**
     * Set for a company started as a self-serve trial at /start (its end date); null for companies a platform
     * admin created. Trial companies have a daily cap on invitation emails (decision 011).
     */
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /** The company's Pool Bud plan (Settings → "Plan"): the one chosen on the pricing page at sign-up. */
    plan: text('plan', { enum: POOL_BUD_PLANS }).notNull().default(DEFAULT_POOL_BUD_PLAN),
    /** Where routes start ("Optimize route" orders the day from here); null: from the day's first stop. */
    startAddress: text('start_address'),
    startLat: doublePrecision('start_lat'),
    startLng: doublePrecision('start_lng'),
    /**
     * Settings → "Customer notices" (docs/product.md "Notices"): per event, each channel on or off and its own wording;
     * what is not set here takes the defaults of app/notices/templates.ts.
     */
    noticeSettings: jsonb('notice_settings').$type<NoticeSettings>().notNull().default(sql`'{}'::jsonb`),
    /** "Quiet hours": texts are held from this wall-clock time … */
    quietHoursFrom: text('quiet_hours_from').notNull().default('21:00'),
    /** … until this one, on the company's clock (app/notices/quiet-hours.ts). */
    quietHoursUntil: text('quiet_hours_until').notNull().default('08:00'),
    /** No longer read: tax rates are Settings → "Tax rates" (docs/decisions/052-tax-rates.md); kept for rollback. */
    taxRateMilliPercent: integer('tax_rate_milli_percent').notNull().default(0),
    /** Days from an invoice's issue to its due date; after it the invoice is "Past due". */
    paymentTermsDays: integer('payment_terms_days').notNull().default(15),
    /** The next invoice's number, taken and advanced in the transaction that creates the invoice (no gaps). */
    nextInvoiceNumber: integer('next_invoice_number').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The public logo address finds its company by the key alone (decision 044): unique, and the lookup's index.
    uniqueIndex('companies_logo_key_unique').on(t.logoKey),
    check('companies_tax_rate_range', sql`${t.taxRateMilliPercent} between 0 and 30000`),
    check('companies_payment_terms_range', sql`${t.paymentTermsDays} between 0 and 120`),
    check('companies_next_invoice_number_positive', sql`${t.nextInvoiceNumber} > 0`),
    check('companies_plan_valid', sql`${t.plan} in ('starter', 'team', 'business')`),
    check('companies_name_not_blank', sql`length(trim(${t.name})) > 0`),
    check(
      'companies_quiet_hours_valid',
      sql`${t.quietHoursFrom} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and ${t.quietHoursUntil} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
    check('companies_start_lat_range', sql`${t.startLat} is null or ${t.startLat} between -90 and 90`),
    check('companies_start_lng_range', sql`${t.startLng} is null or ${t.startLng} between -180 and 180`),
    check(
      'companies_default_service_window_valid',
      sql`${t.defaultServiceWindow} in ('morning', 'afternoon', 'flexible')`,
    ),
  ],
)
