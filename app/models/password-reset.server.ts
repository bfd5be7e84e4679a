// "Forgot password" that tells nobody whether an address has an account, by its answer or by its timing: the
// request only counts two limits and queues a task (one insert, whatever the address). The outbox worker looks the
// address up later and, for an active account, has better-auth create the reset link and mails it.
import { enqueue } from '~/outbox/enqueue.server'
import { db } from '~/utils/db.server'
import { hitRateLimit, type RateLimitRule } from '~/utils/rate-limit.server'
import { failure, type Result, success } from '~/utils/result'
import { isDeactivated } from './profile.server'

/** Reset requests for one address: enough to retry a lost email, too few to flood an inbox. */
export const RESETS_PER_ADDRESS: RateLimitRule = { name: 'password-reset:address', max: 3, windowSeconds: 60 * 60 }

/** Reset requests from one client address (an office behind one router may have a few people asking). */
export const RESETS_PER_CLIENT: RateLimitRule = { name: 'password-reset:client', max: 20, windowSeconds: 60 * 60 }

/** What a refused request is told: when it may ask again (the window is fixed, so at most an hour). */
export function tooManyResets(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  return `Too many reset requests. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`
}

export const RESET_SUBJECT = 'Reset your Pool Bud password'

/**
 * Counts the request against both limits, then queues the reset task. The same statements run for every address:
 * nothing here reads the accounts.
 */
export async function requestPasswordReset({
  email,
  clientIp,
  now = new Date(),
}: {
  email: string
  clientIp: string
  now?: Date
}): Promise<Result> {
  // One after the other (not in parallel), so the statements are the same, in the same order, every time.
  const perAddress = await hitRateLimit(RESETS_PER_ADDRESS, email, { now })
  const perClient = await hitRateLimit(RESETS_PER_CLIENT, clientIp, { now })
  if (perAddress.limited || perClient.limited) {
    const wait = Math.max(
      perAddress.limited ? perAddress.retryAfterSeconds : 0,
      perClient.limited ? perClient.retryAfterSeconds : 0,
    )
    return failure('rate-limited', tooManyResets(wait))
  }
  // A task is not kicked: the worker picks it up at its next tick, after this answer has gone.
  await enqueue(db(), { kind: 'password-reset', to: email, subject: RESET_SUBJECT })
  return success({})
}

/**
 * The reset email for `email` when it belongs to an active account, with a fresh link from `createLink` (better-auth's,
 * null for an unknown address); null for an unknown or deactivated address (the worker then drops the task). Run by
 * the outbox worker: auth/better-auth.server.ts registers it, since models import nothing from auth/.
 */
export async function passwordResetEmail(
  email: string,
  createLink: (email: string) => Promise<{ url: string; userId: string } | null>,
) {
  const link = await createLink(email)
  if (!link || (await isDeactivated(link.userId))) return null
  return {
    template: 'action-link' as const,
    props: {
      subject: RESET_SUBJECT,
      heading: 'Reset your password',
      intro: 'Someone (hopefully you) asked to reset the password of your Pool Bud account.',
      actionLabel: 'Choose a new password',
      url: link.url,
      expiry: 'This link works once and expires in 1 hour.',
    },
  }
}
