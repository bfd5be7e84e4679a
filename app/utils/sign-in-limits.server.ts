// Sign-in throttling (issue #15 item 13): only wrong passwords count, never successful sign-ins, so eleven
// technicians behind one shop router all get in at 7 am while a guesser is stopped. Both counters live in the
// database (rate-limit.server.ts), so every app instance shares them. better-auth's hooks (auth.server.ts) apply
// them to every password check, through our forms or straight at /api/auth.
import { clearRateLimit, hitRateLimit, isRateLimited, type RateLimitRule } from './rate-limit.server'
import { failure, type Result, success } from './result'

const FIFTEEN_MINUTES = 15 * 60

/**
 * Wrong passwords for one sign-in email. Keyed by the address typed, whether or not an account has it, so the lock
 * tells a stranger nothing about which addresses exist.
 */
export const ACCOUNT_FAILURES: RateLimitRule = {
  name: 'sign-in-failures:account',
  max: 5,
  windowSeconds: FIFTEEN_MINUTES,
}

/** Wrong passwords from one client address across accounts (credential stuffing). */
export const CLIENT_FAILURES: RateLimitRule = {
  name: 'sign-in-failures:client',
  max: 50,
  windowSeconds: FIFTEEN_MINUTES,
}

/** The error code better-auth answers (429) while a lock holds. */
export const SIGN_IN_LOCKED = 'TOO_MANY_FAILED_SIGN_INS'

export type PasswordAttempt = { email: string; clientIp: string | null }

function waitFor(seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

function accountKey(attempt: PasswordAttempt) {
  return attempt.email.trim()
}

/**
 * Whether the password of `attempt` may be checked at all. A locked account is refused even with the right
 * password: otherwise a guesser would learn it by the different answer, or could wait for its owner to reset the
 * count.
 */
export async function passwordCheckAllowed(attempt: PasswordAttempt): Promise<Result> {
  const account = await isRateLimited(ACCOUNT_FAILURES, accountKey(attempt))
  if (account.limited) {
    return failure(
      'rate-limited',
      `Too many failed sign-ins for this account. Wait ${waitFor(account.retryAfterSeconds)} or reset your password.`,
    )
  }
  if (attempt.clientIp) {
    const client = await isRateLimited(CLIENT_FAILURES, attempt.clientIp)
    if (client.limited) {
      return failure(
        'rate-limited',
        `Too many failed sign-ins from your network. Wait ${waitFor(client.retryAfterSeconds)}, then try again.`,
      )
    }
  }
  return success({})
}

/** Counts a wrong password against the account and the client address. */
export async function recordWrongPassword(attempt: PasswordAttempt) {
  await hitRateLimit(ACCOUNT_FAILURES, accountKey(attempt))
  if (attempt.clientIp) await hitRateLimit(CLIENT_FAILURES, attempt.clientIp)
}

/**
 * A right password before any lock forgets the account's earlier mistakes (a typo at 7 am does not linger). The
 * client address keeps its count: signing in to one's own account must not launder guesses at others.
 */
export async function recordRightPassword(attempt: PasswordAttempt) {
  // Failures from elsewhere may have locked the account since this attempt was let through; the lock stays.
  if ((await isRateLimited(ACCOUNT_FAILURES, accountKey(attempt))).limited) return
  await clearRateLimit(ACCOUNT_FAILURES, accountKey(attempt))
}
