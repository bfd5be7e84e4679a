// Our own rate limits, shared by every app instance through one table (better-auth's limiter keys only on the
// client address and counts successes too; these count what each rule names, e.g. failed sign-ins of an account).
// A rule is a fixed window: at most `max` hits per `windowSeconds` per key.
import { eq, sql } from 'drizzle-orm'
import { rateLimitCounters } from '~/db/schema'
import { type Database, db } from './db.server'

export type RateLimitRule = { name: string; max: number; windowSeconds: number }

export type RateLimitState = { limited: boolean; count: number; retryAfterSeconds: number }

function counterKey(rule: RateLimitRule, key: string) {
  return `${rule.name}:${key.toLowerCase()}`
}

function stateOf(rule: RateLimitRule, count: number, windowStartedAt: Date, now: Date): RateLimitState {
  const endsAt = windowStartedAt.getTime() + rule.windowSeconds * 1000
  if (endsAt <= now.getTime()) return { limited: false, count: 0, retryAfterSeconds: 0 }
  return { limited: count >= rule.max, count, retryAfterSeconds: Math.ceil((endsAt - now.getTime()) / 1000) }
}

/**
 * Counts one hit and answers whether the key is now over the limit (the hit that reaches `max` is allowed; the
 * next is limited). One atomic statement: concurrent hits from several servers all count.
 */
export async function hitRateLimit(
  rule: RateLimitRule,
  key: string,
  { now = new Date(), executor = db() }: { now?: Date; executor?: Pick<Database, 'execute'> } = {},
): Promise<RateLimitState> {
  const windowStart = new Date(now.getTime() - rule.windowSeconds * 1000)
  const result = (await executor.execute(sql`
    insert into rate_limit_counters (key, count, window_started_at)
    values (${counterKey(rule, key)}, 1, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set
      count = case when rate_limit_counters.window_started_at <= ${windowStart.toISOString()}::timestamptz
                   then 1 else rate_limit_counters.count + 1 end,
      window_started_at = case when rate_limit_counters.window_started_at <= ${windowStart.toISOString()}::timestamptz
                   then excluded.window_started_at else rate_limit_counters.window_started_at end
    returning count, window_started_at`)) as unknown as { rows: { count: number; window_started_at: string | Date }[] }
  const row = result.rows[0]
  if (!row) throw new Error('rate limit upsert returned no row')
  const state = stateOf(rule, Number(row.count), new Date(row.window_started_at), now)
  return { ...state, limited: state.count > rule.max }
}

/** Whether the key has used up its window already (reads only; a refused attempt need not count again). */
export async function isRateLimited(rule: RateLimitRule, key: string, { now = new Date() } = {}) {
  const [row] = await db()
    .select({ count: rateLimitCounters.count, windowStartedAt: rateLimitCounters.windowStartedAt })
    .from(rateLimitCounters)
    .where(eq(rateLimitCounters.key, counterKey(rule, key)))
  if (!row) return { limited: false, count: 0, retryAfterSeconds: 0 }
  return stateOf(rule, row.count, row.windowStartedAt, now)
}

/** Forgets the key's hits (e.g. a successful sign-in clears that account's failures). */
export async function clearRateLimit(rule: RateLimitRule, key: string) {
  await db()
    .delete(rateLimitCounters)
    .where(eq(rateLimitCounters.key, counterKey(rule, key)))
}

/** Deletes counters whose window ended more than a day ago (called from a periodic task). */
export async function pruneRateLimits(now = new Date()) {
  await db().execute(
    sql`delete from rate_limit_counters where window_started_at < ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`,
  )
}
