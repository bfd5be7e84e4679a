// One way for a form that creates something to save it exactly once (a retry, a double submit, the offline queue
// replaying): the form's idempotency key is read, the change runs under it (models/idempotency.server.ts), and every
// way it can go wrong becomes the form's answer — a refused key or change at its field or above the form with the
// failure's status, an unexpected error logged and answered 500 (a database outage goes on to the 503 page).
import type { SubmissionResult } from '@conform-to/react'
import { type IdempotentAction, oncePerKey, readIdempotencyKey } from '~/models/idempotency.server'
import { throwIfDatabaseUnavailable } from '~/utils/database-unavailable.server'
import type { Database } from '~/utils/db.server'
import { logger } from '~/utils/logger.server'
import { type Failure, failureStatus } from '~/utils/result'

/** A Conform submission that parsed (its values, and its `reply`). */
type ParsedSubmission = {
  value: unknown
  reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>
}

export type SaveOnceRefusal = { ok: false; status: number; result: SubmissionResult<string[]> }

/**
 * Runs `change` once per the form's key, bound to the acting user, the record the form is about (`target`: the
 * company for a create) and the form's parsed values (or `body` when the change means more than what was typed).
 * Answers the change's success (marked `replayed` when the key was already
 * used, so work that follows the change — an email, say — is not done twice), or a refusal carrying the Conform
 * reply to show and the HTTP status to answer with.
 */
export async function saveOnce<R extends { ok: true }>(
  {
    formData,
    submission,
    companyId,
    userId,
    target,
    body = submission.value,
    action,
    failedMessage,
  }: {
    formData: FormData
    submission: ParsedSubmission
    companyId: string
    userId: string
    target: string
    /** What the key is bound to besides its user and target (the form's parsed values unless given). */
    body?: unknown
    action: IdempotentAction
    /** Shown above the form when the save fails unexpectedly (the error itself is logged). */
    failedMessage: string
  },
  change: (tx: Database) => Promise<R | Failure>,
): Promise<R | (R & { replayed: true }) | SaveOnceRefusal> {
  const refuse = (failed: Pick<Failure, 'message' | 'field'>, status: number): SaveOnceRefusal => ({
    ok: false,
    status,
    result: submission.reply(
      failed.field ? { fieldErrors: { [failed.field]: [failed.message] } } : { formErrors: [failed.message] },
    ),
  })
  const key = readIdempotencyKey(formData)
  if (!key.ok) return refuse(key, failureStatus(key))
  try {
    const outcome = await oncePerKey({ companyId, key: key.key, action, userId, target, body }, change)
    return outcome.ok ? outcome : refuse(outcome, failureStatus(outcome))
  } catch (error) {
    throwIfDatabaseUnavailable(error)
    logger.error({ err: error, companyId, action }, 'form save failed')
    return refuse({ message: failedMessage }, 500)
  }
}
