// Signs in through better-auth's real handler and returns the session cookie, so route loaders and actions can be
// called exactly as a browser of that user would (with the requests of tests/helpers/requests.ts).
import { randomBytes } from 'node:crypto'
import { CLIENT_IP_HEADER, callAuthEndpoint, cookieHeaders } from '~/auth/better-auth.server'
import { DEMO_PASSWORD } from '~/demo/seed.server'
import { TEST_ORIGIN } from './requests'

/** A distinct client IP per sign-in keeps the login rate limit out of the way of unrelated tests. */
function randomClientIp() {
  return `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`
}

export async function signInAs(email: string, password = DEMO_PASSWORD) {
  const request = new Request(`${TEST_ORIGIN}/login`, { headers: { [CLIENT_IP_HEADER]: randomClientIp() } })
  const result = await callAuthEndpoint(request, '/sign-in/email', { email, password })
  if (!result.ok) throw new Error(`sign-in failed for ${email}: ${result.status} ${result.message}`)
  const cookies = cookieHeaders(result.response).getSetCookie()
  return cookies.map((cookie) => cookie.split(';')[0]).join('; ')
}
