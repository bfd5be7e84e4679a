// What a model tells its caller: success with its data, or a failure with a code the route maps to an HTTP
// status in one place (`failureStatus`), and a message for the person. Routes never guess a status from text.

export type FailureCode =
  | 'invalid'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  /** An idempotency key sent again with another content, user or record (models/idempotency.server.ts). */
  | 'key-reused'
  | 'too-large'
  | 'rate-limited'
  | 'unavailable'
  | 'failed'

/** `field`: the form field the message belongs at (shown there, not above the form); absent for the whole form. */
export type Failure = { ok: false; code: FailureCode; message: string; field?: string }
export type Success<T extends object = object> = { ok: true } & T
export type Result<T extends object = object> = Success<T> | Failure

const STATUS: Record<FailureCode, number> = {
  invalid: 400,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'key-reused': 422,
  'too-large': 413,
  'rate-limited': 429,
  unavailable: 503,
  failed: 500,
}

export function failure(code: FailureCode, message: string, field?: string): Failure {
  return field ? { ok: false, code, message, field } : { ok: false, code, message }
}

export function success<T extends object>(value: T): Success<T> {
  return { ok: true, ...value }
}

/** The HTTP status that answers a failure. */
export function failureStatus(failure: Pick<Failure, 'code'>): number {
  return STATUS[failure.code]
}

/** What `unknownIntent` (app/utils/intent.ts) answers. */
export const UNKNOWN_INTENT = 'Unknown action.'
