// Whose pages a phone keeps (decision 030, docs/decisions/030-shared-phone.md). Every answer to an /app request names
// the person signed in (OWNER_HEADER), so the service worker stores each saved copy with its owner; and a cookie
// beside the HttpOnly session cookie (OWNER_COOKIE) tells the worker, even offline, who is signed in now. With no
// session the cookie is deleted, so a phone whose session ended shows nobody's saved pages.
import { FIELD_NOT_YOURS, FIELD_OWNER_HEADER } from '~/field/changes'
import { OWNER_COOKIE, OWNER_HEADER } from '~/field/offline-cache'
import { env } from '~/utils/env.server'
import { SESSION_EXPIRES_IN_S } from '~/utils/session-read.server'
import { getSessionUser } from './guards.server'

/** The staff app's paths: pages, their React Router data (`/app.data` included) and its resources. */
export function isStaffAppPath(pathname: string) {
  return pathname === '/app' || pathname === '/app.data' || pathname.startsWith('/app/')
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

function ownerCookie(value: string, maxAge: number) {
  const secure = env().APP_URL.startsWith('https://') ? '; Secure' : ''
  return `${OWNER_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure}`
}

/** Deletes the owner cookie (sign-in page, sign-out): the worker then serves no saved page. */
export function ownerCookieDeletion() {
  return ownerCookie('', 0)
}

/** Whether the request still carries an owner cookie (so only those answers spend a header deleting it). */
export function hasOwnerCookie(request: Request) {
  return (request.headers.get('cookie') ?? '').split(';').some((part) => part.trim().startsWith(`${OWNER_COOKIE}=`))
}

/**
 * Tags an answer to a GET under /app with the person signed in (OWNER_HEADER, and the owner cookie renewed for the
 * session's lifetime); with nobody signed in the owner cookie is deleted. Other paths and writes pass unchanged (a
 * write is followed by its page's GET, which is tagged).
 */
export async function tagOfflineOwner(request: Request, response: Response): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return response
  const path = new URL(request.url).pathname
  // The live stream is never saved, and asks who is signed in afresh itself.
  if (!isStaffAppPath(path) || path === '/app/events') return response
  let user: Awaited<ReturnType<typeof getSessionUser>>
  try {
    // The page's loaders asked already: this is their shared answer (oncePerRequest), not another read.
    user = await getSessionUser(request)
  } catch {
    // The database is out (the answer is its 503 page): say nothing rather than sign anyone out of the phone.
    return response
  }
  if (!user && !hasOwnerCookie(request)) return response
  // A fetched or redirect response has immutable headers: answer with a copy that can take ours (a status that
  // cannot have a body is copied without one).
  const tagged = new Response(NULL_BODY_STATUSES.has(response.status) ? null : response.body, response)
  if (user) {
    tagged.headers.set(OWNER_HEADER, user.id)
    tagged.headers.append('Set-Cookie', ownerCookie(user.id, SESSION_EXPIRES_IN_S))
  } else {
    tagged.headers.delete(OWNER_HEADER)
    tagged.headers.append('Set-Cookie', ownerCookieDeletion())
  }
  return tagged
}

/**
 * A change from the phone's queue sent under the session of someone other than the person who made it (the queue
 * names them in FIELD_OWNER_HEADER): never applied. The answer (409, FIELD_NOT_YOURS) has the phone keep the change
 * for its owner. A request without the header (a plain form) is the signed-in person's own.
 */
export function refuseAnotherPersonsChange(request: Request, signedIn: { id: string }) {
  const madeBy = request.headers.get(FIELD_OWNER_HEADER)
  if (madeBy && madeBy !== signedIn.id) {
    throw Response.json(FIELD_NOT_YOURS, { status: 409, headers: { 'Cache-Control': 'private, no-store' } })
  }
}
