import { sql } from 'drizzle-orm'
import { check, foreignKey, index, numeric, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies'
import { customers } from './customers'
import { profiles } from './profiles'

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').notNull(),
    customerName: text('customer_name').notNull(),
    address: text('address').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Storage keys of the photos (served through an authorised route, never a public URL). */
    beforeUrl: text('before_url'),
    afterUrl: text('after_url'),
    technicianId: text('technician_id').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'jobs_company_customer_fk',
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }).onDelete('cascade'),
    unique('jobs_company_id_id_key').on(t.companyId, t.id),
    // Open jobs in schedule order: dashboards, "upcoming", "overdue", "today".
    index('jobs_company_open_scheduled_idx').on(t.companyId, t.scheduledAt).where(sql`${t.completedAt} is null`),
    // Recent completions, newest first.
    index('jobs_company_completed_idx').on(t.companyId, t.completedAt.desc()),
    index('jobs_company_technician_scheduled_idx').on(t.companyId, t.technicianId, t.scheduledAt),
    index('jobs_company_customer_scheduled_idx').on(t.companyId, t.customerId, t.scheduledAt),
    index('jobs_company_created_idx').on(t.companyId, t.createdAt.desc()),
    check('jobs_customer_name_not_blank', sql`length(trim(${t.customerName})) > 0`),
    check('jobs_address_not_blank', sql`length(trim(${t.address})) > 0`),
  ],
)

export const chemLogs = pgTable(
  'chem_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').notNull(),
    jobId: uuid('job_id').notNull(),
    ph: numeric('ph', { precision: 4, scale: 2, mode: 'number' }).notNull(),
    chlorinePpm: numeric('chlorine_ppm', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    alkalinity: numeric('alkalinity', { precision: 6, scale: 1, mode: 'number' }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'chem_logs_company_job_fk',
      columns: [t.companyId, t.jobId],
      foreignColumns: [jobs.companyId, jobs.id],
    }).onDelete('cascade'),
    index('chem_logs_company_job_taken_idx').on(t.companyId, t.jobId, t.takenAt.desc()),
    check('chem_logs_ph_range', sql`${t.ph} between 0 and 14`),
    check('chem_logs_chlorine_range', sql`${t.chlorinePpm} between 0 and 50`),
    check('chem_logs_alkalinity_range', sql`${t.alkalinity} between 0 and 500`),
  ],
)
