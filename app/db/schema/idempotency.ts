import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { companyRef } from './columns'

/**
 * One row per create or reading made with an idempotency key (the hidden field of the form, or the offline app's
 * queued write), written in the transaction of the change. A repeat of the key finds it and gets the first answer
 * only when it is the same request: the same user, about the same record, with the same content (the key's binding,
 * docs/decisions/031-idempotency-keys-bound.md); anything else is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    companyId: companyRef(),
    key: uuid('key').notNull(),
    /** What the key was used for ('visit.create', …): the same key sent to another form is refused, not replayed. */
    action: text('action').notNull(),
    /**
     * Who used the key, what it was about (the visit, invoice… or the company for a create) and the SHA-256 of the
     * request's content in a canonical form. Null only on rows written before keys were bound (a replay of such a
     * key is judged by its action alone, as it was then, until housekeeping prunes it).
     */
    userId: text('user_id'),
    target: text('target'),
    bodyHash: text('body_hash'),
    /** The first request's answer (null only inside the transaction that is making it). */
    response: jsonb('response').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
)
