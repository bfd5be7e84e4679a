import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { INVOICE_LINE_KINDS, INVOICE_STATES, PAYMENT_METHODS } from '../../billing/billing-fields'
import { companyRef, rowId } from './columns'
import { companies } from './companies'
import { customers } from './customers'
import { profiles } from './profiles'
import { visits } from './visits'

/**
 * An invoice (docs/billing.md): numbered per company ("INV-0001") in the transaction that creates it, so numbers have
 * no gaps and are never reused (a void invoice keeps its number). The stored state is the office's doing — draft,
 * sent, void; "Paid", "Partially paid" and "Past due" follow from the money and the date
 * (app/billing/invoice-status.ts). Totals are kept with the lines they sum (the total is the sum of the lines, tax
 * included).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    number: integer('number').notNull(),
    /** The month billed, as its first and last local dates; null for an invoice of no period (opening balance). */
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    state: text('state', { enum: INVOICE_STATES }).notNull().default('draft'),
    /** Set when sent: the issue date and the date it falls due (issue date + the company's terms). */
    issuedOn: date('issued_on', { mode: 'string' }),
    dueOn: date('due_on', { mode: 'string' }),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull().default(0),
    totalCents: integer('total_cents').notNull(),
    /** The customer's earlier overpayment applied to this invoice when it was created. */
    creditAppliedCents: integer('credit_applied_cents').notNull().default(0),
    /** "Note for customer": the office's words, shown on the invoice (office, portal, email); null when none. */
    customerNote: text('customer_note'),
    /** Net of refunds: the sum of this invoice's payments, kept in the transaction that records each one. */
    paidCents: integer('paid_cents').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * How a sent invoice reached its customer (issue 31 item 4, docs/decisions/039-invoice-pdf.md): 'email', or
     * 'print' when the customer had no email address ("Not emailed — print"); null while a draft.
     */
    delivery: text('delivery', { enum: ['email', 'print'] }),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    /** Autopay: charges tried off-session, and when the next one is due (null: none due). */
    autopayAttempts: integer('autopay_attempts').notNull().default(0),
    autopayNextAt: timestamp('autopay_next_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the database on every change (a trigger: every write path), for the API's `updated_since`. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When "Create invoices" counted the month's completed visits for this invoice (a re-issue keeps the original's):
     * a visit of the month completed after it is a late completion (docs/billing.md, "Late completions").
     */
    visitsCountedAt: timestamp('visits_counted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('invoices_company_updated_idx').on(t.companyId, t.updatedAt),
    foreignKey({
      name: 'invoices_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    unique('invoices_company_id_id_key').on(t.companyId, t.id),
    unique('invoices_company_number_key').on(t.companyId, t.number),
    // One live invoice per customer and month: creating the month twice, or from two requests at once, adds none.
    uniqueIndex('invoices_company_customer_period_key')
      .on(t.companyId, t.customerId, t.periodStart)
      .where(sql`${t.periodStart} is not null and ${t.state} <> 'void'`),
    index('invoices_company_period_idx').on(t.companyId, t.periodStart, t.number),
    index('invoices_company_customer_idx').on(t.companyId, t.customerId, t.number),
    index('invoices_company_issued_idx').on(t.companyId, t.issuedOn),
    index('invoices_company_due_idx').on(t.companyId, t.dueOn).where(sql`${t.state} = 'sent'`),
    // The autopay worker's queue, across companies (like the outbox's pending index): only invoices with a charge due.
    index('invoices_autopay_due_idx').on(t.autopayNextAt).where(sql`${t.autopayNextAt} is not null`),
    check('invoices_number_positive', sql`${t.number} > 0`),
    check('invoices_state_valid', sql`${t.state} in ('draft', 'sent', 'void')`),
    check('invoices_delivery_valid', sql`${t.delivery} is null or ${t.delivery} in ('email', 'print')`),
    check('invoices_period_complete', sql`(${t.periodStart} is null) = (${t.periodEnd} is null)`),
    check('invoices_period_order', sql`${t.periodEnd} is null or ${t.periodEnd} >= ${t.periodStart}`),
    // A sent invoice has its dates. A void one keeps whatever it had: a draft voided before it was sent was never
    // issued, so its dates stay empty (docs/decisions/022-billing-ledger.md).
    check(
      'invoices_sent_has_dates',
      sql`${t.state} <> 'sent' or (${t.issuedOn} is not null and ${t.dueOn} is not null)`,
    ),
    check('invoices_total_is_sum', sql`${t.totalCents} = ${t.subtotalCents} + ${t.taxCents}`),
    check('invoices_credit_applied_range', sql`${t.creditAppliedCents} >= 0`),
    check('invoices_paid_non_negative', sql`${t.paidCents} >= 0`),
  ],
)

/** One line of an invoice, in order. Amounts are whole cents, each rounded half up from quantity × unit price. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    position: integer('position').notNull(),
    kind: text('kind', { enum: INVOICE_LINE_KINDS }).notNull(),
    description: text('description').notNull(),
    quantity: numeric('quantity', { precision: 10, scale: 2, mode: 'string' }).notNull(),
    unitCents: integer('unit_cents').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** Where the line's work was done (profit per pool), and the plan it bills; null for tax or an opening balance. */
    locationId: uuid('location_id'),
    planId: uuid('plan_id'),
    /** A "Late completions" line: the one visit it bills (docs/billing.md); null for every other line. */
    visitId: uuid('visit_id'),
    /**
     * A tax line's percent (thousandths) as it was when the line was written: the line keeps it whatever the rate
     * becomes (docs/decisions/052-tax-rates.md). Null on every other line, and on tax lines made before rates had
     * names.
     */
    taxMilliPercent: integer('tax_milli_percent'),
    /**
     * Whether the rate applies to this line: false only for a work order's line from a quote line that was not
     * taxable (docs/work-orders.md), so the invoice taxes what the approved quote taxed. Every other line is taxable.
     */
    taxable: boolean('taxable').notNull().default(true),
  },
  (t) => [
    foreignKey({
      name: 'invoice_lines_company_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }).onDelete('cascade'),
    unique('invoice_lines_invoice_position_key').on(t.invoiceId, t.position),
    index('invoice_lines_company_location_idx').on(t.companyId, t.locationId),
    check('invoice_lines_description_not_blank', sql`length(trim(${t.description})) > 0`),
    check(
      'invoice_lines_kind_valid',
      sql`${t.kind} in ('visits', 'monthly', 'chemicals', 'tax', 'opening-balance', 'custom', 'discount')`,
    ),
    // A discount takes money off (docs/billing.md); an opening balance may be negative (an old credit), so only this.
    check('invoice_lines_discount_negative', sql`${t.kind} <> 'discount' or ${t.amountCents} < 0`),
    check('invoice_lines_tax_percent_on_tax', sql`${t.taxMilliPercent} is null or ${t.kind} = 'tax'`),
  ],
)

/**
 * The visits billed by "Late completions" lines (docs/billing.md, docs/decisions/042-late-completions.md): at most one
 * live row per visit and company, so the database refuses to bill a visit twice. Voiding the invoice releases its rows
 * (`released_at`; a re-issue claims the visits again); removing the line from a draft deletes its row (the cascade).
 */
export const billedVisits = pgTable(
  'billed_visits',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    lineId: uuid('line_id')
      .notNull()
      .references(() => invoiceLines.id, { onDelete: 'cascade' }),
    billedAt: timestamp('billed_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('billed_visits_company_visit_live_key').on(t.companyId, t.visitId).where(sql`${t.releasedAt} is null`),
    foreignKey({
      name: 'billed_visits_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'billed_visits_company_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }).onDelete('cascade'),
    index('billed_visits_company_invoice_idx').on(t.companyId, t.invoiceId),
  ],
)

/**
 * Money received (docs/billing.md): against an invoice, or as account credit (no invoice). A reference (a check
 * number, a Stripe Checkout session) is unique per customer, which is what makes a retried webhook or a
 * double-submitted form record a payment once. A refund is a row of `refunds`, never an edit or a deletion of it.
 */
export const payments = pgTable(
  'payments',
  {
    id: rowId(),
    companyId: companyRef(),
    customerId: uuid('customer_id').notNull(),
    invoiceId: uuid('invoice_id'),
    amountCents: integer('amount_cents').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference'),
    /** Something the office should look at: a card payment whose amount differs from the invoice, a dispute. */
    flag: text('flag'),
    /** Stripe's PaymentIntent, for refunds and disputes that name it. */
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    recordedBy: text('recorded_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the database on every change (a trigger: every write path), for the API's `updated_since`. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_company_updated_idx').on(t.companyId, t.updatedAt),
    foreignKey({
      name: 'payments_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'payments_company_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }),
    uniqueIndex('payments_company_customer_reference_key')
      .on(t.companyId, t.customerId, t.reference)
      .where(sql`${t.reference} is not null`),
    index('payments_company_received_idx').on(t.companyId, t.receivedOn),
    index('payments_company_customer_idx').on(t.companyId, t.customerId, t.receivedOn),
    index('payments_company_invoice_idx').on(t.companyId, t.invoiceId),
    // A company's payment by id (the invoice page's "Void payment", payment_voids' key): also what lets a void
    // name its payment together with its company.
    unique('payments_company_id_key').on(t.companyId, t.id),
    index('payments_stripe_payment_intent_idx')
      .on(t.stripePaymentIntentId)
      .where(sql`${t.stripePaymentIntentId} is not null`),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    check('payments_method_valid', sql`${t.method} in ('cash', 'check', 'card', 'bank-transfer')`),
    check('payments_reference_not_blank', sql`${t.reference} is null or length(trim(${t.reference})) > 0`),
  ],
)

/**
 * "Void payment" (docs/decisions/037-payment-voids.md): a payment typed by mistake is corrected by a new record,
 * never by editing or deleting it. One row per payment (the primary key): voiding twice, or from two tabs at once,
 * voids once. A void payment stays listed as "Void" with its reason and counts for nothing — not in the invoice's
 * paid sum, the balance, the reports or the exports. Card payments are refunded instead, never voided.
 */
export const paymentVoids = pgTable(
  'payment_voids',
  {
    paymentId: uuid('payment_id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    reason: text('reason').notNull(),
    voidedBy: text('voided_by').references(() => profiles.id, { onDelete: 'set null' }),
    voidedAt: timestamp('voided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'payment_voids_company_payment_fk',
      columns: [t.companyId, t.paymentId],
      foreignColumns: [payments.companyId, payments.id],
    }).onDelete('cascade'),
    check('payment_voids_reason_not_blank', sql`length(trim(${t.reason})) > 0`),
  ],
)

/**
 * Stripe events applied (their ids): a webhook delivered three times, or out of order, is applied once. Pruned after
 * 90 days by housekeeping (app/utils/housekeeping.server.ts), on the received_at index.
 */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stripe_events_received_idx').on(t.receivedAt)],
)

/**
 * Checkout Sessions started for an invoice's "Pay invoice" (decision 032): at most one open per invoice, by the
 * partial unique index. Two tabs pressing "Pay invoice" meet it: the second reuses the first's session while its
 * amount still matches what is owed, otherwise the old one is expired at Stripe before a new one is made.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    /** Stripe's Checkout Session id (cs_…). */
    id: text('id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['open', 'expired'] })
      .notNull()
      .default('open'),
    /** Stripe closes an unpaid session after this (24 hours); reused only well before then. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'checkout_sessions_company_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }).onDelete('cascade'),
    uniqueIndex('checkout_sessions_one_open_key').on(t.companyId, t.invoiceId).where(sql`${t.status} = 'open'`),
    check('checkout_sessions_amount_positive', sql`${t.amountCents} > 0`),
    check('checkout_sessions_status_valid', sql`${t.status} in ('open', 'expired')`),
  ],
)

/**
 * Money given back on a payment (decision 032): one row per refund Stripe reports, never an edit of the payment's
 * history. `refunded_total_cents` is the charge's cumulative refunded amount once this refund is counted; unique per
 * payment, so `charge.refunded` delivered twice (or twice at once) adds one row. These rows are the only record of
 * what was refunded (docs/billing.md): the balance, the exports and the invoice page sum them.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    refundedTotalCents: integer('refunded_total_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'refunds_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    unique('refunds_payment_total_key').on(t.paymentId, t.refundedTotalCents),
    index('refunds_company_customer_idx').on(t.companyId, t.customerId),
    check('refunds_amount_positive', sql`${t.amountCents} > 0`),
  ],
)

/**
 * Signed Stripe events acknowledged but not recorded (decision 032): another currency, an amount outside
 * (0, $1,000,000], or metadata naming no invoice of that company. Listed for the office under "Needs attention" on
 * the billing page; the company is the invoice's (or the metadata's when no invoice matched), null when neither is
 * ours (then only logged). One row per event.
 */
export const stripeAttention = pgTable(
  'stripe_attention',
  {
    eventId: text('event_id').primaryKey(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    reason: text('reason').notNull(),
    /** Stripe's object (cs_…, pi_…), to find it in Stripe's dashboard. */
    objectId: text('object_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stripe_attention_company_idx').on(t.companyId, t.createdAt)],
)
