// Idempotency keys: a create or a reading sent twice — a retry after a dropped connection, a double submit, the
// offline app replaying its queue — is made once, and every copy gets the first answer. The form carries a random
// key; the key's row is inserted in the same transaction as the change, so either both are stored or neither, and
// two copies arriving together are settled by the table's primary key (insert … on conflict), never by a look-up
// that both could pass. A key is bound to what it stood for (docs/decisions/031-idempotency-keys-bound.md): its
// action, the user who sent it, the record it was about and a hash of its content. Only a true copy is answered
// with the first answer; the same key with anything else is refused (422), never answered "ok" for nothing done.
import { createHash } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { z } from 'zod'
import { idempotencyKeys } from '~/db/schema'
import { type Database, db } from '~/utils/db.server'
import { type Failure, failure, type Result } from '~/utils/result'

/** The hidden form field that carries the key. */
export const IDEMPOTENCY_FIELD = 'idempotencyKey'

export const MALFORMED_KEY =
  'This form could not be sent: its idempotency key is not valid. Reload the page and try again.'

/** A key sent again with another content, user, record or form: refused (422), what was sent is kept. */
export const KEY_REUSED = 'This change was already used for something else'

/** What each form's key is for: a key replayed to another form is refused rather than answered wrongly. */
export type IdempotentAction =
  | 'visit.create'
  | 'customer.create'
  | 'inventory.create'
  | 'customer.import'
  | 'field.change'
  | 'prices.apply'
  | 'payment.record'
  | 'checkout.start'
  | 'pricebook.create'
  | 'quote.create'
  /** A public API write (POST/PATCH with an Idempotency-Key header; docs/decisions/050-public-api.md). */
  | 'api.write'

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

/**
 * The canonical form of a request's content: object keys sorted at every depth and undefined members dropped, so
 * the same values hash alike whatever order their fields arrived in. Dates become their ISO text (JSON's own).
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonical(item)))
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return Object.fromEntries(entries.map(([name, member]) => [name, canonical(member)]))
  }
  return value
}

/**
 * The SHA-256 (hex) of what a request means: its parsed, validated values in canonical form, without the key itself
 * (the form's hidden key field is dropped if the values carry it).
 */
export function requestHash(body: unknown): string {
  let content = body
  if (content && typeof content === 'object' && !Array.isArray(content) && IDEMPOTENCY_FIELD in content) {
    const { [IDEMPOTENCY_FIELD]: _key, ...rest } = content as Record<string, unknown>
    content = rest
  }
  return createHash('sha256')
    .update(JSON.stringify(canonical(content)) ?? 'null')
    .digest('hex')
}

/** What a key is bound to: the user who sent it, the record it is about (the company for a create), its content. */
export type KeyBinding = {
  /** The acting user's id (null only for work no user asked for, as some model tests make). */
  userId: string | null
  /** The record the change is about: a visit's, an invoice's… id, or the company's for a create. */
  target: string
  /** The request's parsed values (hashed with `requestHash`; the key itself is never part of them). */
  body: unknown
}

/** A copy of a request still being made elsewhere waited this long for its answer, and gave up. */
export const KEY_IN_PROGRESS = 'This request is still being processed. Please try again in a moment.'

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

type StoredKey = {
  action: string
  createdAt?: Date
  userId: string | null
  target: string | null
  bodyHash: string | null
  response: Record<string, unknown> | null
}

/**
 * Whether a stored key stands for this very request. A row from before keys were bound (no user, target or hash)
 * is judged by its action alone, as it was then: it is at most 30 days old (housekeeping prunes it), and a phone's
 * queue replaying a change made just before the upgrade must still be told it was applied.
 */
function sameRequest(first: StoredKey, expected: Pick<StoredKey, 'action' | 'userId' | 'target' | 'bodyHash'>) {
  if (first.action !== expected.action) return false
  if (first.userId === null && first.target === null && first.bodyHash === null) return true
  return first.userId === expected.userId && first.target === expected.target && first.bodyHash === expected.bodyHash
}

/**
 * Makes `change` (every statement of it on `tx`) at most once per key of the company. The first request stores its
 * answer with the change, and the key's binding (its user, target and content hash); a true copy of it writes
 * nothing and gets that answer (so it must be plain JSON), marked `replayed` for work that follows the change and
 * must not be done twice. The same key sent by another user, about another record, with another content or to
 * another form is refused ('key-reused', 422) and changes nothing. A failure is rolled back and stores nothing, so
 * the same key may be tried again. Without a key, `change` simply runs (in a transaction all the same).
 */
export async function oncePerKey<R extends Outcome>(
  {
    companyId,
    key,
    action,
    userId,
    target,
    body,
  }: { companyId: string; key: string | null; action: IdempotentAction } & KeyBinding,
  change: (tx: Database) => Promise<R>,
): Promise<R | (R & { replayed: true }) | Failure> {
  if (!key) return inTransaction(change)
  const bodyHash = requestHash(body)
  return inTransaction(async (tx): Promise<R | (R & { replayed: true }) | Failure> => {
    // A copy sent at the same moment waits here until the first commits (then finds its row) or rolls back.
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ companyId, key, action, userId, target, bodyHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
    if (claimed.length === 0) {
      const [first] = await tx
        .select({
          action: idempotencyKeys.action,
          userId: idempotencyKeys.userId,
          target: idempotencyKeys.target,
          bodyHash: idempotencyKeys.bodyHash,
          response: idempotencyKeys.response,
        })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key)))
      if (!first?.response || !sameRequest(first, { action, userId, target, bodyHash })) {
        return failure('key-reused', KEY_REUSED)
      }
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

/** A claim this old without an answer was left by a request that died mid-way: a copy may take it over. */
const ABANDONED_CLAIM_MS = 2 * 60_000
/** How long a copy waits for the first request's answer, and how often it looks. */
const COPY_WAITS_MS = 30_000
const COPY_LOOKS_EVERY_MS = 100

/**
 * `oncePerKey` for work that must not hold a database transaction: a call to another service (Stripe), which may
 * take seconds and cannot be rolled back anyway. The key is claimed with its binding in a short transaction of its
 * own; the work runs; its answer is stored on the claim, and a failure deletes the claim (so the key may be tried
 * again). A copy arriving meanwhile waits for the first answer and gets it (`replayed`); the same key for anything
 * else is refused ('key-reused', 422) as `oncePerKey` refuses it. A claim left without an answer (the process died
 * during the work) is taken over after two minutes; a copy that waited 30 seconds in vain is told to try again.
 */
export async function oncePerKeyAround<R extends Outcome>(
  {
    companyId,
    key,
    action,
    userId,
    target,
    body,
  }: { companyId: string; key: string | null; action: IdempotentAction } & KeyBinding,
  work: () => Promise<R>,
): Promise<R | (R & { replayed: true }) | Failure> {
  if (!key) return work()
  const expected = { action, userId, target, bodyHash: requestHash(body) }
  const thisKey = and(eq(idempotencyKeys.companyId, companyId), eq(idempotencyKeys.key, key))
  const waitUntil = Date.now() + COPY_WAITS_MS
  for (;;) {
    const claim = await db().transaction(async (tx) => {
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ companyId, key, ...expected })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key })
      if (claimed.length > 0) return { state: 'claimed' as const }
      const [first] = await tx
        .select({
          action: idempotencyKeys.action,
          userId: idempotencyKeys.userId,
          target: idempotencyKeys.target,
          bodyHash: idempotencyKeys.bodyHash,
          response: idempotencyKeys.response,
          createdAt: idempotencyKeys.createdAt,
        })
        .from(idempotencyKeys)
        .where(thisKey)
        .for('update')
      // The first request failed and let go of the key in between: claim it again.
      if (!first) return { state: 'again' as const }
      if (!sameRequest(first, expected)) return { state: 'refused' as const }
      if (first.response) return { state: 'answered' as const, response: first.response }
      if (first.createdAt.getTime() < Date.now() - ABANDONED_CLAIM_MS) {
        await tx.update(idempotencyKeys).set({ createdAt: new Date() }).where(thisKey)
        return { state: 'claimed' as const }
      }
      return { state: 'waiting' as const }
    })
    if (claim.state === 'refused') return failure('key-reused', KEY_REUSED)
    if (claim.state === 'answered') return { ...(claim.response as R), replayed: true }
    if (claim.state === 'claimed') break
    if (claim.state === 'waiting') {
      if (Date.now() > waitUntil) return failure('conflict', KEY_IN_PROGRESS)
      await new Promise((resolve) => setTimeout(resolve, COPY_LOOKS_EVERY_MS))
    }
  }
  const letGo = () =>
    db()
      .delete(idempotencyKeys)
      .where(and(thisKey, isNull(idempotencyKeys.response)))
  let outcome: R
  try {
    outcome = await work()
  } catch (error) {
    await letGo()
    throw error
  }
  if (!outcome.ok) {
    await letGo()
    return outcome
  }
  await db()
    .update(idempotencyKeys)
    .set({ response: outcome as Record<string, unknown> })
    .where(thisKey)
  return outcome
}
