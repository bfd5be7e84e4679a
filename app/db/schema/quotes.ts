// The price book and quotes (issue 33 items 1–3; docs/quotes.md, docs/decisions/054, 055). Every table is the
// company's: company_id leads each index, and references to other records carry the company too.
import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { companyRef, rowId } from './columns'
import { customers } from './customers'
import { inventoryItems } from './inventory'
import { equipment } from './service-locations'

export const PRICE_BOOK_KINDS = ['part', 'labor'] as const
export const QUOTE_STATES = ['draft', 'sent', 'viewed', 'approved', 'declined'] as const
export const DEPOSIT_KINDS = ['none', 'percent', 'amount'] as const

/** Settings → "Price book": a part or labor item a quote line may start from. Archived items stay for old lines. */
export const priceBookItems = pgTable(
  'price_book_items',
  {
    id: rowId(),
    companyId: companyRef(),
    name: text('name').notNull(),
    kind: text('kind', { enum: PRICE_BOOK_KINDS }).notNull(),
    priceCents: integer('price_cents').notNull(),
    costCents: integer('cost_cents').notNull().default(0),
    taxable: boolean('taxable').notNull().default(true),
    /** A part that is also a stock item (null for labor and parts not stocked). */
    inventoryItemId: uuid('inventory_item_id'),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('price_book_items_company_id_id_key').on(t.companyId, t.id),
    index('price_book_items_company_name_idx').on(t.companyId, t.name),
    foreignKey({
      name: 'price_book_items_company_inventory_fk',
      columns: [t.companyId, t.inventoryItemId],
      foreignColumns: [inventoryItems.companyId, inventoryItems.id],
    }),
    check('price_book_items_price_non_negative', sql`${t.priceCents} >= 0`),
    check('price_book_items_cost_non_negative', sql`${t.costCents} >= 0`),
  ],
)

/**
 * A quote: numbered per company ("Q-0001"). The stored state is what happened (draft, sent, viewed, approved,
 * declined); "Expired" follows from the current version's "Valid until" (app/billing/quote-math.ts).
 */
export const quotes = pgTable(
  'quotes',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    number: integer('number').notNull(),
    state: text('state', { enum: QUOTE_STATES }).notNull().default('draft'),
    /** The version the office works on and, once sent, the one the customer sees (the latest). */
    currentVersion: integer('current_version').notNull().default(1),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    /** The equipment item the quote is for ("New quote" from an equipment item), if any. */
    // A plain reference so removing the equipment leaves the quote (a composite one would null the company too);
    // the model checks the equipment is the company's before it links it.
    equipmentId: uuid('equipment_id').references(() => equipment.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'quotes_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    unique('quotes_company_id_id_key').on(t.companyId, t.id),
    index('quotes_company_equipment_idx').on(t.companyId, t.equipmentId),
    unique('quotes_company_number_key').on(t.companyId, t.number),
    index('quotes_company_customer_idx').on(t.companyId, t.customerId),
    index('quotes_company_state_idx').on(t.companyId, t.state, t.createdAt),
  ],
)

/**
 * One version of a quote. A version once sent is never changed: editing a sent quote writes the next version
 * (lines copied), so an approval can name exactly what the customer saw. Totals count the lines that are not
 * optional; optional lines count only when the customer ticks them.
 */
export const quoteVersions = pgTable(
  'quote_versions',
  {
    id: rowId(),
    companyId: companyRef(),
    quoteId: uuid('quote_id').notNull(),
    version: integer('version').notNull(),
    validUntil: date('valid_until', { mode: 'string' }),
    depositKind: text('deposit_kind', { enum: DEPOSIT_KINDS }).notNull().default('none'),
    /** Whole percent (0–100) for 'percent', cents for 'amount', 0 for 'none'. */
    depositValue: integer('deposit_value').notNull().default(0),
    customerNote: text('customer_note'),
    /** The company's tax rate when the version was last changed (thousandths of a percent, as companies keep it). */
    taxRateMilliPercent: integer('tax_rate_milli_percent').notNull().default(0),
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    taxCents: integer('tax_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'quote_versions_company_quote_fk',
      columns: [t.companyId, t.quoteId],
      foreignColumns: [quotes.companyId, quotes.id],
    }).onDelete('cascade'),
    unique('quote_versions_company_id_id_key').on(t.companyId, t.id),
    unique('quote_versions_company_quote_version_key').on(t.companyId, t.quoteId, t.version),
    check('quote_versions_total_is_sum', sql`${t.totalCents} = ${t.subtotalCents} + ${t.taxCents}`),
    check('quote_versions_deposit_value', sql`${t.depositValue} >= 0`),
  ],
)

/** A line of one quote version: quantity (hundredths) × unit price, rounded half up to the cent. */
export const quoteLines = pgTable(
  'quote_lines',
  {
    id: rowId(),
    companyId: companyRef(),
    versionId: uuid('version_id').notNull(),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantityHundredths: integer('quantity_hundredths').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    amountCents: integer('amount_cents').notNull(),
    taxable: boolean('taxable').notNull().default(true),
    optional: boolean('optional').notNull().default(false),
    priceBookItemId: uuid('price_book_item_id'),
  },
  (t) => [
    foreignKey({
      name: 'quote_lines_company_version_fk',
      columns: [t.companyId, t.versionId],
      foreignColumns: [quoteVersions.companyId, quoteVersions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'quote_lines_company_price_book_fk',
      columns: [t.companyId, t.priceBookItemId],
      foreignColumns: [priceBookItems.companyId, priceBookItems.id],
    }),
    index('quote_lines_company_version_idx').on(t.companyId, t.versionId, t.position),
    check('quote_lines_quantity_positive', sql`${t.quantityHundredths} > 0`),
    check('quote_lines_price_non_negative', sql`${t.unitPriceCents} >= 0`),
  ],
)

export const QUOTE_DECISIONS = ['approved', 'declined'] as const
export const OFFICE_APPROVAL_METHODS = ['phone', 'paper', 'in-person'] as const

/**
 * The decision on a quote, once (docs/decisions/054): the customer's own in the portal — their typed name, the
 * signature drawn (a PNG in storage; none when they used the keyboard: the typed name is the signature), the time,
 * IP address, the optional lines they ticked and the amounts — or the office's "Mark as approved" (who approved, how,
 * when, and the member who recorded it). Always tied to the exact version decided on.
 */
export const quoteDecisions = pgTable(
  'quote_decisions',
  {
    id: rowId(),
    companyId: companyRef(),
    quoteId: uuid('quote_id').notNull(),
    versionId: uuid('version_id').notNull(),
    decision: text('decision', { enum: QUOTE_DECISIONS }).notNull(),
    /** 'customer': signed in the portal; 'office': "Mark as approved". */
    source: text('source', { enum: ['customer', 'office'] }).notNull(),
    signerName: text('signer_name').notNull(),
    signatureKey: text('signature_key'),
    ipAddress: text('ip_address'),
    declineReason: text('decline_reason'),
    officeMethod: text('office_method', { enum: OFFICE_APPROVAL_METHODS }),
    /** The member who recorded "Mark as approved" (a profile id). */
    recordedBy: text('recorded_by'),
    chosenLineIds: jsonb('chosen_line_ids').$type<string[]>().notNull().default([]),
    subtotalCents: integer('subtotal_cents').notNull().default(0),
    taxCents: integer('tax_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull().default(0),
    depositCents: integer('deposit_cents').notNull().default(0),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'quote_decisions_company_quote_fk',
      columns: [t.companyId, t.quoteId],
      foreignColumns: [quotes.companyId, quotes.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'quote_decisions_company_version_fk',
      columns: [t.companyId, t.versionId],
      foreignColumns: [quoteVersions.companyId, quoteVersions.id],
    }).onDelete('cascade'),
    // One decision per quote: a second approval (two tabs, a replay) finds it taken.
    unique('quote_decisions_company_quote_key').on(t.companyId, t.quoteId),
    check('quote_decisions_total_is_sum', sql`${t.totalCents} = ${t.subtotalCents} + ${t.taxCents}`),
    check(
      'quote_decisions_office_fields',
      sql`(${t.source} = 'office') = (${t.officeMethod} is not null and ${t.recordedBy} is not null)`,
    ),
  ],
)
