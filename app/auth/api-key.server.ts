// The public API's one guard (docs/decisions/050-public-api.md): `Authorization: Bearer pb_live_…`, the key's
// scope, and its rate limit. The company always comes from the key, never from the request.
import type { ApiKeyScope } from '~/db/schema'
import { API_RATE, findApiKey, takeRateToken } from '~/models/api-key.server'

export type ApiCaller = { apiKeyId: string; companyId: string; scope: ApiKeyScope; rateHeaders: Headers }

export type ApiErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'validation_failed'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'method_not_allowed'

/** Every API error: `{ error: { code, message } }` with its status, never cached. */
export function apiError(status: number, code: ApiErrorCode, message: string, headers?: HeadersInit): Response {
  const merged = new Headers(headers)
  merged.set('Cache-Control', 'no-store')
  return Response.json({ error: { code, message } }, { status, headers: merged })
}

/** The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): the policy, and what is left now. */
function rateHeaders(remaining: number, resetSeconds: number) {
  return new Headers({
    'RateLimit-Policy': `"burst";q=${API_RATE.burst};w=${Math.ceil((API_RATE.burst * 60) / API_RATE.perMinute)}, "sustained";q=${API_RATE.perMinute};w=60`,
    RateLimit: `"burst";r=${remaining};t=${resetSeconds}`,
  })
}

/**
 * The key a request carries, allowed `scope` ('write' also reads), within its rate limit. Throws the API's error
 * answer otherwise: 401 without a live key, 403 for a read-only key writing, 429 over the limit.
 */
export async function requireApiKey(request: Request, scope: ApiKeyScope, now = new Date()): Promise<ApiCaller> {
  const header = request.headers.get('authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  const key = match?.[1] ? await findApiKey(match[1], now) : null
  if (!key) {
    throw apiError(401, 'unauthorized', 'Send a live API key as "Authorization: Bearer pb_live_…".', {
      'WWW-Authenticate': 'Bearer realm="Pool Bud API"',
    })
  }
  const rate = await takeRateToken({ apiKeyId: key.id, companyId: key.companyId }, now)
  const headers = rateHeaders(rate.remaining, rate.resetSeconds)
  if (!rate.allowed) {
    headers.set('Retry-After', String(rate.retryAfterSeconds))
    throw apiError(
      429,
      'rate_limited',
      'Too many requests for this API key. Try again after Retry-After seconds.',
      headers,
    )
  }
  if (scope === 'write' && key.scope !== 'write') {
    throw apiError(
      403,
      'forbidden',
      'This API key is read only; create a "Read and write" key to make changes.',
      headers,
    )
  }
  return { apiKeyId: key.id, companyId: key.companyId, scope: key.scope, rateHeaders: headers }
}
