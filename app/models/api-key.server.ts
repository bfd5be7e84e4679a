// API keys (docs/decisions/050-public-api.md): a key is `pb_live_` and 32 random bytes (base64url), shown once when
// it is made; only its SHA-256 is stored. A fast hash is enough for a key nobody could guess (there is no password
// to brute-force), and it lets a request find its key with one index look-up.
import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { apiKeys } from '~/db/schema'
import { db } from '~/utils/db.server'
import { isUuid } from '~/utils/ids'
import { failure, type Result, success } from '~/utils/result'
import { CreateApiKeySchema } from './api-key-schema'

export { API_KEY_SCOPE_LABELS, CreateApiKeySchema } from './api-key-schema'

export const API_KEY_PREFIX = 'pb_live_'

export function hashApiKey(key: string) {
  return createHash('sha256').update(key).digest('hex')
}

export async function createApiKey({
  companyId,
  createdBy,
  input,
}: {
  companyId: string
  createdBy: string | null
  input: z.input<typeof CreateApiKeySchema>
}): Promise<Result<{ id: string; key: string }>> {
  const parsed = CreateApiKeySchema.safeParse(input)
  if (!parsed.success) return failure('invalid', parsed.error.issues[0]?.message ?? 'Check the form.')
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  const [row] = await db()
    .insert(apiKeys)
    .values({
      companyId,
      createdBy,
      name: parsed.data.name,
      scope: parsed.data.scope,
      prefix: key.slice(0, API_KEY_PREFIX.length + 4),
      keyHash: hashApiKey(key),
    })
    .returning({ id: apiKeys.id })
  if (!row) throw new Error('api key insert returned no row')
  return success({ id: row.id, key })
}

/** The company's keys that still work, newest first (never the hash). */
export async function listApiKeys(companyId: string) {
  return db()
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      scope: apiKeys.scope,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.companyId, companyId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(200)
}

export async function revokeApiKey({
  companyId,
  keyId,
  now = new Date(),
}: {
  companyId: string
  keyId: string
  now?: Date
}) {
  if (!isUuid(keyId)) return failure('not-found', 'API key not found.')
  const rows = await db()
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.companyId, companyId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  return rows.length ? success({}) : failure('not-found', 'API key not found.')
}

/** How stale "Last used" may get: a busy key writes it at most once a minute, not on every request. */
const LAST_USED_EVERY_MS = 60_000

/** The live key a request carries, or null; marks it used. */
export async function findApiKey(key: string, now = new Date()) {
  if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null
  const [row] = await db()
    .select({
      id: apiKeys.id,
      companyId: apiKeys.companyId,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
  if (!row) return null
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await db().update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id))
  }
  return { id: row.id, companyId: row.companyId, scope: row.scope }
}

/** Each key's limit: 600 requests a minute (10 a second), at most 50 at once. */
export const API_RATE = { perMinute: 600, burst: 50 }

export type RateDecision = { allowed: boolean; remaining: number; retryAfterSeconds: number; resetSeconds: number }

/**
 * Takes one token from the key's bucket in one atomic statement (every app instance shares the row): the bucket
 * refills at 10 a second up to 50; a request finding less than one token is refused and takes nothing.
 */
export async function takeRateToken(
  { apiKeyId, companyId }: { apiKeyId: string; companyId: string },
  now = new Date(),
): Promise<RateDecision> {
  const perSecond = API_RATE.perMinute / 60
  const at = now.toISOString()
  const available = sql`least(${API_RATE.burst}::float8, api_rate_buckets.tokens + greatest(0, extract(epoch from (${at}::timestamptz - api_rate_buckets.refilled_at))) * ${perSecond}::float8)`
  const result = (await db().execute(sql`
    insert into api_rate_buckets (api_key_id, company_id, tokens, refilled_at, allowed)
    values (${apiKeyId}, ${companyId}, ${API_RATE.burst - 1}, ${at}::timestamptz, true)
    on conflict (api_key_id) do update set
      tokens = case when ${available} >= 1 then ${available} - 1 else ${available} end,
      refilled_at = greatest(api_rate_buckets.refilled_at, excluded.refilled_at),
      allowed = ${available} >= 1
    returning tokens, allowed`)) as unknown as { rows: { tokens: number | string; allowed: boolean }[] }
  const row = result.rows[0]
  if (!row) throw new Error('rate bucket upsert returned no row')
  const tokens = Number(row.tokens)
  return {
    allowed: row.allowed,
    remaining: Math.max(0, Math.floor(tokens)),
    retryAfterSeconds: row.allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
    resetSeconds: Math.ceil((API_RATE.burst - tokens) / perSecond),
  }
}
