// The two columns nearly every table starts with (docs/architecture.md "Shared rules"): its own id, and the company it
// belongs to, whose deletion takes the row with it. Written once, so every tenant table says it the same way.
import { uuid } from 'drizzle-orm/pg-core'
import { companies } from './companies'

/** A row's id: a random UUID the database makes. */
export const rowId = () => uuid('id').primaryKey().defaultRandom()

/** The company a row belongs to (every tenant table's indexes lead with it). */
export const companyRef = () =>
  uuid('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' })
