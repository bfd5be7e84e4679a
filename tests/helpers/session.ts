// Signs in through better-auth's real handler and returns the session cookie, so route loaders and actions can be
// called exactly as a browser of that user would (with the requests of tests/helpers/requests.ts).
import { randomBytes } from 'node:crypto'
import { CLIENT_IP_HEADER, callAuthEndpoint, cookieHeaders, getAuth } from '~/auth/better-auth.server'
import { DEMO_PASSWORD } from '~/demo/seed.server'
import { TEST_ORIGIN } from './requests'

/** A distinct client IP per sign-in keeps the login rate limit out of the way of unrelated tests. */
function randomClientIp() {
  return `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`
}

/** Verifications already worked out in this worker: hash and typed password → whether they match. */
const verified = new Map<string, boolean>()
/** The auth instances whose password check remembers its answers. */
const remembering = new WeakSet<object>()

/**
 * Makes the auth instance's password check remember its answer for a hash and password it has checked before.
 * Checking a password is a pure function of the stored hash (its salt inside) and the typed password, and each check
 * is a deliberately slow scrypt (about a quarter of a second of processor time): the demo's logins share one hash, so
 * the hundreds of sign-ins the tests make as a persona cost one check per worker instead of one each
 * (docs/decisions/025-ci-time.md). The sign-in itself is unchanged: the session, the cookies, the limits and the hooks.
 */
async function rememberPasswordChecks() {
  const context = await getAuth().$context
  if (remembering.has(context)) return
  remembering.add(context)
  const check = context.password.verify
  context.password.verify = async (input) => {
    const key = `${input.hash}\u0000${input.password}`
    const known = verified.get(key)
    if (known !== undefined) return known
    const answer = await check(input)
    verified.set(key, answer)
    return answer
  }
}

export async function signInAs(email: string, password = DEMO_PASSWORD) {
  await rememberPasswordChecks()
  const request = new Request(`${TEST_ORIGIN}/login`, { headers: { [CLIENT_IP_HEADER]: randomClientIp() } })
  const result = await callAuthEndpoint(request, '/sign-in/email', { email, password })
  if (!result.ok) throw new Error(`sign-in failed for ${email}: ${result.status} ${result.message}`)
  const cookies = cookieHeaders(result.response).getSetCookie()
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ')
}
