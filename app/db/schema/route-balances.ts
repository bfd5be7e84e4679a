import { sql } from 'drizzle-orm'
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core'
import { companyRef } from './columns'
import { profiles } from './profiles'
import { visits } from './visits'

export const ROUTE_BALANCE_KINDS = ['balance', 'cover'] as const
export type RouteBalanceKind = (typeof ROUTE_BALANCE_KINDS)[number]

/**
 * One "Balance the day" or "Cover this day" applied (docs/routing.md "Balancing", decision 045). Its id is the balance
 * id the preview handed out, so one preview is applied at most once (the primary key). Its moves say where each
 * visit of the day's routes was and went, so "Undo" puts back the exact assignment and order.
 */
export const routeBalances = pgTable(
  'route_balances',
  {
    id: uuid('id').primaryKey(),
    companyId: companyRef(),
    /** The local date balanced (the company's zone). */
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ROUTE_BALANCE_KINDS }).notNull(),
    /** "Cover this day": the technician whose stops were spread. */
    coveredTechnicianId: text('covered_technician_id').references(() => profiles.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoneBy: text('undone_by').references(() => profiles.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('route_balances_company_id_id_key').on(t.companyId, t.id),
    index('route_balances_company_day_idx').on(t.companyId, t.day),
    check('route_balances_kind_valid', sql`${t.kind} in ('balance', 'cover')`),
  ],
)

/** Each visit of the balanced routes: its technician, route position and "moved" mark before and after. */
export const routeBalanceMoves = pgTable(
  'route_balance_moves',
  {
    companyId: companyRef(),
    balanceId: uuid('balance_id').notNull(),
    visitId: uuid('visit_id').notNull(),
    fromTechnicianId: text('from_technician_id'),
    fromPosition: integer('from_position'),
    fromMovedAt: timestamp('from_moved_at', { withTimezone: true }),
    toTechnicianId: text('to_technician_id'),
    toPosition: integer('to_position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.balanceId, t.visitId] }),
    foreignKey({
      name: 'route_balance_moves_company_balance_fk',
      columns: [t.companyId, t.balanceId],
      foreignColumns: [routeBalances.companyId, routeBalances.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'route_balance_moves_company_visit_fk',
      columns: [t.companyId, t.visitId],
      foreignColumns: [visits.companyId, visits.id],
    }).onDelete('cascade'),
    index('route_balance_moves_company_visit_idx').on(t.companyId, t.visitId),
  ],
)
