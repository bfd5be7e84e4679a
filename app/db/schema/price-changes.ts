import { sql } from 'drizzle-orm'
import { check, date, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { companyRef, rowId } from './columns'
import { profiles } from './profiles'
import { servicePlans } from './service-plans'

export const PRICE_CHANGE_KINDS = ['percent', 'amount'] as const
export type PriceChangeKind = (typeof PRICE_CHANGE_KINDS)[number]

/**
 * One "Change prices" applied (docs/billing.md): which increase, from which date, to how many plans, and whether the
 * customers were told. Its rows in plan_rate_changes say what each plan's rate was and became. Its id is the change
 * id the preview handed out, so the same preview is applied at most once (the primary key; docs/decisions/038-…).
 */
export const priceChanges = pgTable(
  'price_changes',
  {
    id: rowId(),
    companyId: companyRef(),
    /** The date typed: invoices for months that start on or after it bill the new rates. */
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: PRICE_CHANGE_KINDS }).notNull(),
    /** percent: hundredths of a percent (500 = +5 %, −1000 = −10 %); amount: cents added to each rate (may be < 0). */
    amount: integer('amount').notNull(),
    planCount: integer('plan_count').notNull(),
    customersNotified: integer('customers_notified').notNull().default(0),
    createdBy: text('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What the preview showed (each plan's old and new rate, the date and the increase, hashed): a second "Apply" of
     * that same preview — from another tab, after the first changed the rates — is answered "Already applied".
     * Null for changes made before it was kept.
     */
    fingerprint: text('fingerprint'),
    /** "Undo" (only before the effective date): each plan's rate restored and its rate-history row removed. */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoneBy: text('undone_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** Of the customers emailed, how many emails were still waiting in the outbox at the undo and were withdrawn. */
    noticesWithdrawn: integer('notices_withdrawn').notNull().default(0),
  },
  (t) => [
    unique('price_changes_company_id_id_key').on(t.companyId, t.id),
    index('price_changes_company_fingerprint_idx').on(t.companyId, t.fingerprint),
    index('price_changes_company_created_idx').on(t.companyId, t.createdAt),
    check('price_changes_kind_valid', sql`${t.kind} in ('percent', 'amount')`),
    // −100 % or less would make every rate zero or negative: refused by the form, and here.
    check('price_changes_percent_above_minus_100', sql`${t.kind} <> 'percent' or ${t.amount} > -10000`),
    check('price_changes_plan_count_positive', sql`${t.planCount} > 0`),
  ],
)

/**
 * A plan's rate history. A service plan stores one rate — its newest — and each change keeps the rate it replaced:
 * the rate in force for a month is the `from_rate_cents` of the plan's earliest change that takes effect after the
 * month starts, or the plan's rate when there is none (app/models/plan-rate.server.ts). So a price raised from
 * 1 August bills July's visits at the old rate even when July is invoiced in August, and nothing has to be
 * "switched over" on the day. Changes of a plan are applied in effective-date order (Change prices refuses an
 * earlier date than a plan's latest change), which keeps each `from_rate_cents` the previous change's `to_rate_cents`.
 */
export const planRateChanges = pgTable(
  'plan_rate_changes',
  {
    id: rowId(),
    companyId: uuid('company_id').notNull(),
    planId: uuid('plan_id').notNull(),
    priceChangeId: uuid('price_change_id').notNull(),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    fromRateCents: integer('from_rate_cents').notNull(),
    toRateCents: integer('to_rate_cents').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'plan_rate_changes_company_plan_fk',
      columns: [t.companyId, t.planId],
      foreignColumns: [servicePlans.companyId, servicePlans.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'plan_rate_changes_company_price_change_fk',
      columns: [t.companyId, t.priceChangeId],
      foreignColumns: [priceChanges.companyId, priceChanges.id],
    }).onDelete('cascade'),
    index('plan_rate_changes_company_plan_idx').on(t.companyId, t.planId, t.effectiveOn),
    check('plan_rate_changes_rates_non_negative', sql`${t.fromRateCents} >= 0 and ${t.toRateCents} >= 0`),
  ],
)
