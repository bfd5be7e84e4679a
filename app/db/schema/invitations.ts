import { sql } from 'drizzle-orm'
import { check, index, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core'
import { user } from './auth'
import { companyRef, rowId } from './columns'

export const INVITATION_ROLES = ['owner', 'admin', 'dispatcher', 'tech'] as const
export type InvitationRole = (typeof INVITATION_ROLES)[number]

/**
 * An invitation to an account that already exists and was verified (decision 011): nothing about that account
 * changes until its owner signs in and accepts. A new address gets a pending login and profile instead
 * (decision 004), and an address of another company, a customer or a platform admin gets neither.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: rowId(),
    companyId: companyRef(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role', { enum: INVITATION_ROLES }).notNull(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('invitations_company_user_unique').on(t.companyId, t.userId),
    index('invitations_user_idx').on(t.userId),
    check('invitations_role_valid', sql`${t.role} in ('owner', 'admin', 'dispatcher', 'tech')`),
  ],
)
