// Idempotency keys: a create or a reading sent twice — a retry after a dropped connection, a double submit, the
// offline app replaying its queue — is made once, and every copy gets the first answer. The form carries a random
// key; the key's row is inserted in the same transaction as the change, so either both are stored or neither, and
// two copies arriving together are settled by the table's primary key (insert … on conflict), never by a look-up
// that both could pass.
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { idempotencyKeys } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { type Failure, failure, type Result } from '~/utils/result'

/** The hidden form field that carries the key. */
export const IDEMPOTENCY_FIELD = 'idempotencyKey'

export const MALFORMED_KEY =
  'This form could not be sent: its idempotency key is not valid. Reload the page and try again.'

export const KEY_USED_ELSEWHERE =
  'This form was already used for something else. Reload the page, then fill it in again.'

/** What each form's key is for: a key replayed to another form is refused rather than answered wrongly. */
export type IdempotentAction =
  | 'job.create'
  | 'reading.create'
  | 'chemical.add'
  | 'customer.create'
  | 'inventory.create'
  | 'customer.import'
  | 'field.change'
  | 'prices.apply'
  | 'payment.record'

/**
 * The key a form carries: null when it carries none (a page from before keys, another client), which behaves as
 * before (no dedupe); a failure when it carries something that is not a UUID.
 */
export function readIdempotencyKey(formData: FormData): Result<{ key: string | null }> {
  const value = formData.get(IDEMPOTENCY_FIELD)
  if (value === null) return { ok: true, key: null }
  if (typeof value !== 'string' || !z.uuid().safeParse(value).success) return failure('invalid', MALFORMED_KEY)
  return { ok: true, key: value.toLowerCase() }
}

/** What a change answers: success or not, with whatever the route needs to say so. */
type Outcome = { ok: boolean }

/** Thrown inside the transaction to undo it when the change answers with a failure. */
class Undo<R extends Outcome> extends Error {
  constructor(readonly outcome: R) {
    super('undone')
  }
}

/** Runs `work` in a transaction that is committed only when it succeeds. */
async function inTransaction<R extends Outcome>(work: (tx: Database) => Promise<R>): Promise<R> {
  try {
    return await db().transaction(async (tx) => {
      const outcome = await work(tx)
      if (!outcome.ok) throw new Undo(outcome)
      return outcome
    })
  } catch (error) {
    if (error instanceof Undo) return error.outcome as R
    throw error
  }
}

/**
 * Makes `change` (every statement of it on `tx`) at most once per key of the company. The first request stores its
 * answer with the change; a repeat of the key writes nothing and gets that answer (so it must be plain JSON),
 * marked `replayed` for work that follows the change and must not be done twice. A failure is rolled back and
 * stores nothing, so the same key may be tried again. Without a key, `change` simply runs (in a transaction all
 * the same).
 */
export async function oncePerKey<R extends Outcome>(
  { companyId, key, action }: { companyId: string; key: string | null; action: IdempotentAction },
  change: (tx: Database) => Promise<R>,
): Promise<R | (R & { replayed: true }) | Failure> {
  if (!key) return inTransaction(change)
  return inTransaction(async (tx): Promise<R | (R & { replayed: true }) | Failure> => {
    // A copy sent at the same moment waits here until the first commits (then finds its row) or rolls back.
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ companyId, key, action })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
    if (claimed.length === 0) {
      const [first] = await tx
        .select({ action: idempotencyKeys.action, response: idempotencyKeys.response })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key)))
      if (first?.action !== action || !first.response) return failure('conflict', KEY_USED_ELSEWHERE)
      return { ...(first.response as R), replayed: true }
    }
    const outcome = await change(tx)
    if (outcome.ok) {
      await tx
        .update(idempotencyKeys)
        .set({ response: outcome as Record<string, unknown> })
        .where(and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key)))
    }
    return outcome
  })
}
