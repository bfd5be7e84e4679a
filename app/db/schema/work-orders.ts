// Work orders and deposits (issue 33 items 3, 4, 6; docs/quotes.md "Not yet"). An approved quote becomes one work
// order: its visits are ordinary visits linked here, the parts a technician fits are recorded against the visit, and the
// deposit the customer paid is an ordinary payment (account credit) linked to its quote. Every table is the
// company's: company_id leads each index, and references carry the company too.
import { sql } from 'drizzle-orm'
import { check, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { invoices, payments } from './billing'
import { companyRef, rowId } from './columns'
import { customers } from './customers'
import { inventoryItems } from './inventory'
import { profiles } from './profiles'
import { quotes, quoteVersions } from './quotes'
import { visits } from './visits'

export const WORK_ORDER_STATES = ['open', 'completed'] as const
export const WORK_ORDER_TEMPLATES = ['green-to-clean', 'equipment-install'] as const

/** A work order: numbered per company ("WO-0001"), one per approved quote, made from the version approved. */
export const workOrders = pgTable(
  'work_orders',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    quoteId: uuid('quote_id').notNull(),
    /** The version the customer (or the office) approved: its lines are the work order's parts and labor. */
    quoteVersionId: uuid('quote_version_id').notNull(),
    number: integer('number').notNull(),
    state: text('state', { enum: WORK_ORDER_STATES }).notNull().default('open'),
    template: text('template', { enum: WORK_ORDER_TEMPLATES }),
    /** The quote's note, copied when the work order is made; the office may change it. */
    notes: text('notes'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The invoice made from it ("Create invoice"), once. */
    invoiceId: uuid('invoice_id'),
    createdBy: text('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'work_orders_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'work_orders_company_quote_fk',
      columns: [t.companyId, t.quoteId],
      foreignColumns: [quotes.companyId, quotes.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'work_orders_company_version_fk',
      columns: [t.companyId, t.quoteVersionId],
      foreignColumns: [quoteVersions.companyId, quoteVersions.id],
    }),
    foreignKey({
      name: 'work_orders_company_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }),
    unique('work_orders_company_id_id_key').on(t.companyId, t.id),
    // One work order per quote: a double click or a second tab finds it made.
    unique('work_orders_company_quote_key').on(t.companyId, t.quoteId),
    unique('work_orders_company_number_key').on(t.companyId, t.number),
    unique('work_orders_company_invoice_key').on(t.companyId, t.invoiceId),
    index('work_orders_company_state_idx').on(t.companyId, t.state, t.createdAt),
    index('work_orders_company_customer_idx').on(t.companyId, t.customerId),
    check('work_orders_completed_state', sql`(${t.state} = 'completed') = (${t.completedAt} is not null)`),
  ],
)

/** A visit of a work order: an ordinary visit (its technician, time, photos, notes), at most one work order's. */
export const workOrderVisits = pgTable(
  'work_order_visits',
  {
    companyId: companyRef(),
    workOrderId: uuid('work_order_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    /** Its place in the work order (day 1, day 2, …), from 1. */
    position: integer('position').notNull(),
    /** What this visit is for ("Shock and brush"), from a template or typed. */
    title: text('title'),
  },
  (t) => [
    foreignKey({
      name: 'work_order_visits_company_work_order_fk',
      columns: [t.companyId, t.workOrderId],
      foreignColumns: [workOrders.companyId, workOrders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'work_order_visits_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    unique('work_order_visits_company_visit_key').on(t.companyId, t.visitId),
    index('work_order_visits_company_work_order_idx').on(t.companyId, t.workOrderId, t.position),
  ],
)

/**
 * A part a technician fitted on a work order's visit, taken from stock (their truck once truck stock exists) in
 * the same transaction. Its price is the price book's (or the stock item's) at the time, for the invoice.
 */
export const workOrderPartsUsed = pgTable(
  'work_order_parts_used',
  {
    id: rowId(),
    companyId: companyRef(),
    workOrderId: uuid('work_order_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    inventoryItemId: uuid('inventory_item_id').notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** What a unit cost the company at the time, for profit. */
    unitCostCents: integer('unit_cost_cents').notNull().default(0),
    recordedBy: text('recorded_by').references(() => profiles.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'work_order_parts_used_company_work_order_fk',
      columns: [t.companyId, t.workOrderId],
      foreignColumns: [workOrders.companyId, workOrders.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'work_order_parts_used_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'work_order_parts_used_company_item_fk',
      columns: [t.companyId, t.inventoryItemId],
      foreignColumns: [inventoryItems.companyId, inventoryItems.id],
    }),
    index('work_order_parts_used_company_work_order_idx').on(t.companyId, t.workOrderId, t.recordedAt),
    index('work_order_parts_used_company_visit_idx').on(t.companyId, t.visitId),
    check('work_order_parts_used_quantity_positive', sql`${t.quantity} > 0`),
    check('work_order_parts_used_price_non_negative', sql`${t.unitPriceCents} >= 0 and ${t.unitCostCents} >= 0`),
  ],
)

/**
 * A deposit on a quote: an ordinary payment (account credit until the work order's invoice takes it), linked to
 * the quote it was paid for. The payment's unique reference (the Stripe Checkout session) records it once.
 */
export const quoteDeposits = pgTable(
  'quote_deposits',
  {
    companyId: companyRef(),
    quoteId: uuid('quote_id').notNull(),
    paymentId: uuid('payment_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'quote_deposits_company_quote_fk',
      columns: [t.companyId, t.quoteId],
      foreignColumns: [quotes.companyId, quotes.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'quote_deposits_company_payment_fk',
      columns: [t.companyId, t.paymentId],
      foreignColumns: [payments.companyId, payments.id],
    }).onDelete('cascade'),
    unique('quote_deposits_company_payment_key').on(t.companyId, t.paymentId),
    index('quote_deposits_company_quote_idx').on(t.companyId, t.quoteId),
  ],
)
