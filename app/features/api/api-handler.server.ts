// What every /api/v1 route shares (docs/decisions/050-public-api.md): the key guard, query and body parsing into
// the API's errors, JSON answers with the rate-limit headers, and Idempotency-Key on writes.
import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { z } from 'zod'
import { type ApiCaller, apiError, requireApiKey } from '~/auth/api-key.server'
import { idempotencyKeys } from '~/db/schema'
import type { ApiKeyScope } from '~/db/schema/api'
import { decodeCursor } from '~/models/api-paging.server'
import { oncePerKey } from '~/models/idempotency.server'
import { db } from '~/utils/db.server'
import type { Failure } from '~/utils/result'

export { apiError }

/** A JSON answer with the caller's rate-limit headers, never cached. */
export function apiJson(caller: ApiCaller, body: unknown, status = 200): Response {
  const headers = new Headers(caller.rateHeaders)
  headers.set('Cache-Control', 'no-store')
  return Response.json(body, { status, headers })
}

export function notFoundError(what: string): Response {
  return apiError(404, 'not_found', `${what} not found.`)
}

function issueText(error: z.ZodError) {
  const issue = error.issues[0]
  if (!issue) return 'The request is not valid.'
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message
}

/** The query string parsed with `schema`; a bad value or cursor is a 400. */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const url = new URL(request.url)
  const parsed = schema.safeParse(Object.fromEntries(url.searchParams))
  if (!parsed.success) throw apiError(400, 'invalid_request', issueText(parsed.error))
  const cursor = (parsed.data as { cursor?: string }).cursor
  if (decodeCursor(cursor) === null) throw apiError(400, 'invalid_request', 'cursor: not a cursor this API gave out.')
  return parsed.data
}

export function cursorOf(query: { cursor?: string }) {
  return decodeCursor(query.cursor) ?? undefined
}

/** The JSON body parsed with `schema`: not JSON is a 400, JSON that breaks the rules a 422. */
export async function readBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ raw: unknown; data: z.output<S> }> {
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    throw apiError(400, 'invalid_request', 'Send a JSON body with Content-Type: application/json.')
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw apiError(422, 'validation_failed', issueText(parsed.error))
  return { raw, data: parsed.data }
}

/** The guard for a route's method: GET reads; POST, PATCH and DELETE write. */
export function guard(request: Request, methods: string[]): Promise<ApiCaller> {
  if (!methods.includes(request.method)) {
    throw apiError(405, 'method_not_allowed', `Use ${methods.join(' or ')} here.`, { Allow: methods.join(', ') })
  }
  const scope: ApiKeyScope = request.method === 'GET' ? 'read' : 'write'
  return requireApiKey(request, scope)
}

/** Keys are remembered for exactly a day: an older row of the same key is forgotten before the write. */
export const IDEMPOTENCY_HOURS = 24

/** A key's row in the shared table: a UUID derived from the API key and the client's key, so keys never collide. */
function storedKey(apiKeyId: string, key: string) {
  const hex = createHash('sha256').update(`api:${apiKeyId}:${key}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

type Answer = { ok: true; status: number; body: unknown }

/**
 * A write made once per `Idempotency-Key` (models/idempotency.server.ts, bound to the API key, the method and path,
 * and the body): the same key and body within 24 hours get the first answer again; another body, 422. Without
 * the header the write simply runs. `write` answers a status and body, or a model's failure.
 */
export async function idempotentWrite(
  request: Request,
  caller: ApiCaller,
  body: unknown,
  write: (tx: Parameters<Parameters<typeof oncePerKey>[1]>[0]) => Promise<Answer | Failure | Response>,
): Promise<Response> {
  const header = request.headers.get('idempotency-key')
  if (header !== null && (header.length < 1 || header.length > 255 || !/^[\x21-\x7e]+$/.test(header))) {
    return apiError(400, 'invalid_request', 'Idempotency-Key must be 1 to 255 printable characters.')
  }
  const key = header === null ? null : storedKey(caller.apiKeyId, header)
  if (key) {
    await db()
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.companyId, caller.companyId),
          eq(idempotencyKeys.key, key),
          lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_HOURS * 3_600_000)),
        ),
      )
  }
  let refusal: Response | null = null
  const outcome = await oncePerKey(
    {
      companyId: caller.companyId,
      key,
      action: 'api.write',
      userId: `api-key:${caller.apiKeyId}`,
      target: `${request.method} ${new URL(request.url).pathname}`,
      body,
    },
    async (tx) => {
      const answer = await write(tx)
      if (answer instanceof Response) {
        refusal = answer
        return { ok: false as const, code: 'invalid' as const, message: '' }
      }
      return answer
    },
  )
  if (refusal) return refusal
  if (!outcome.ok) return failureResponse(outcome)
  const headers = new Headers(caller.rateHeaders)
  headers.set('Cache-Control', 'no-store')
  if ('replayed' in outcome) headers.set('Idempotent-Replayed', 'true')
  return Response.json(outcome.body, { status: outcome.status, headers })
}

/** A model's failure as the API answers it. */
export function failureResponse(failure: Failure): Response {
  switch (failure.code) {
    case 'not-found':
      return apiError(404, 'not_found', failure.message)
    case 'key-reused':
      return apiError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was already used with another request; use a new key for a new request.',
      )
    case 'conflict':
      return apiError(409, 'conflict', failure.message)
    case 'forbidden':
      return apiError(403, 'forbidden', failure.message)
    default:
      return apiError(422, 'validation_failed', failure.message)
  }
}

/** Runs a route's handler: a thrown answer (a guard's 401, a parse's 400) is the answer. */
export async function answer(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle()
  } catch (thrown) {
    if (thrown instanceof Response) return thrown
    throw thrown
  }
}
