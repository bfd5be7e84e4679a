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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { companyRef, rowId } from './columns'
import { profiles } from './profiles'

/** A technician's day on the clock (docs/time.md): "Start day", "Break", "Back", "End day". */
export const TIME_EVENT_KINDS = ['start', 'break-start', 'break-end', 'end'] as const
export type TimeEventKind = (typeof TIME_EVENT_KINDS)[number]

/** Who wrote a time event: the technician's phone, or the office correcting a day (with a reason). */
export const TIME_EVENT_SOURCES = ['phone', 'office'] as const
export type TimeEventSource = (typeof TIME_EVENT_SOURCES)[number]

/**
 * One moment of a technician's working day (docs/time.md, decision 056). Never changed: the office corrects a time by
 * adding a row that `replaces` the current one, with a reason, so the phone's original and every edit stay. The
 * phone's rows carry the id the phone made (the queue's key) and the phone's time: sent twice, or twice at once, the
 * primary key keeps one. A day has at most one start and one end from the phone (the partial unique index), and an
 * event is replaced at most once (the head of its chain of corrections is the time in force).
 */
export const timeEvents = pgTable(
  'time_events',
  {
    id: uuid('id').notNull().defaultRandom(),
    companyId: companyRef(),
    technicianId: text('technician_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** The working day this moment belongs to (the company's calendar: the day of its "Start day"). */
    workDate: date('work_date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: TIME_EVENT_KINDS }).notNull(),
    /** When it happened: the phone's clock for the phone's rows, the time the office entered for an edit. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    source: text('source', { enum: TIME_EVENT_SOURCES }).notNull(),
    /** The event this row corrects (an office edit); null for an original. */
    replacesId: uuid('replaces_id'),
    /** Why the office changed the time (required for an edit). */
    reason: text('reason'),
    recordedBy: text('recorded_by').references(() => profiles.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'time_events_pkey', columns: [t.companyId, t.id] }),
    foreignKey({
      name: 'time_events_replaces_fk',
      columns: [t.companyId, t.replacesId],
      foreignColumns: [t.companyId, t.id],
    }),
    index('time_events_company_technician_date_idx').on(t.companyId, t.technicianId, t.workDate, t.at),
    uniqueIndex('time_events_company_phone_day_key')
      .on(t.companyId, t.technicianId, t.workDate, t.kind)
      .where(sql`${t.source} = 'phone' and ${t.kind} in ('start', 'end')`),
    uniqueIndex('time_events_company_replaces_key')
      .on(t.companyId, t.replacesId)
      .where(sql`${t.replacesId} is not null`),
    check('time_events_kind_valid', sql`${t.kind} in ('start', 'break-start', 'break-end', 'end')`),
    check('time_events_source_valid', sql`${t.source} in ('phone', 'office')`),
    check(
      'time_events_office_has_reason',
      sql`${t.source} = 'phone' or (${t.reason} is not null and length(trim(${t.reason})) > 0)`,
    ),
    check('time_events_reason_length', sql`${t.reason} is null or length(${t.reason}) <= 500`),
  ],
)

export const TIMESHEET_ACTIONS = ['approve', 'reopen'] as const
export type TimesheetAction = (typeof TIMESHEET_ACTIONS)[number]

/**
 * "Approve week" and "Reopen week" for one technician's week (Monday `weekStart`), each a new row: the latest says
 * whether the week is locked. `seq` counts the week's rows from 1, so two offices acting at once cannot both write
 * the same step (the unique key refuses the second).
 */
export const timesheetApprovals = pgTable(
  'timesheet_approvals',
  {
    id: rowId(),
    companyId: companyRef(),
    technicianId: text('technician_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    seq: integer('seq').notNull(),
    action: text('action', { enum: TIMESHEET_ACTIONS }).notNull(),
    reason: text('reason'),
    actedBy: text('acted_by').references(() => profiles.id, { onDelete: 'set null' }),
    actedAt: timestamp('acted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('timesheet_approvals_company_week_seq_key').on(t.companyId, t.technicianId, t.weekStart, t.seq),
    index('timesheet_approvals_company_week_idx').on(t.companyId, t.weekStart),
    check('timesheet_approvals_action_valid', sql`${t.action} in ('approve', 'reopen')`),
    check(
      'timesheet_approvals_reopen_has_reason',
      sql`${t.action} = 'approve' or (${t.reason} is not null and length(trim(${t.reason})) > 0)`,
    ),
    check('timesheet_approvals_seq_positive', sql`${t.seq} > 0`),
  ],
)
