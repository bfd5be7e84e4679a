// Signs in through better-auth's real handler and returns the session cookie, so route
// loaders and actions can be called exactly as a browser of that user would.
import { randomBytes } from 'node:crypto'
import { CLIENT_IP_HEADER, callAuthEndpoint, cookieHeaders } from '~/auth/better-auth.server'
import { DEMO_PASSWORD } from '~/demo/seed.server'

export const TEST_ORIGIN = 'http://localhost:3999'

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

/** A GET request to `path`, as the user holding `cookie` (or anonymous). */
export function pageRequest(path: string, cookie?: string) {
  return new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} })
}

/** Runs a loader and returns what it threw or returned: a Response, React Router data, or a value. */
export async function settle<T>(promise: Promise<T> | T) {
  try {
    return { returned: await promise, thrown: undefined }
  } catch (thrown) {
    return { returned: undefined, thrown }
  }
}
