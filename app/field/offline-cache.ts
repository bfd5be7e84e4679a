// What the staff app's service worker keeps on the phone, and under which key (decision 019). Pure rules, shared by
// the worker (app/service-worker/sw.ts), the page that asks it to save the technician's day, and their unit tests.
//
// Kept: the built client assets (precached), the staff app's pages under /app and their React Router data
// (`.data`, single fetch), and visit photos. Never kept: anything that is not a GET, the live updates stream
// (/app/events), sign-in (/api/auth), file exports, and every page outside /app (marketing, login, the portal).

/** The caches this app fills at run time; sign-out and a change of user empty them (precached assets stay). */
export const OFFLINE_CACHES = {
  pages: 'pool-bud-pages',
  data: 'pool-bud-data',
  photos: 'pool-bud-photos',
} as const

export type OfflineRule = 'page' | 'data' | 'photo'

/** How long a page or its data may take online before the phone shows its saved copy instead (seconds). */
export const NETWORK_TIMEOUT_SECONDS = 4

/** At most this many of today's stops are saved ahead (two requests each: the page and its data). */
export const MAX_SAVED_STOPS = 30

// Under /app, but never kept: a live stream, downloads, the queue's own endpoint, and the customer picker's search
// (a fetcher, always fresh; a saved answer would also be taken for a page's data below).
const NEVER = [/^\/app\/events(\/|$)/, /^\/app\/field\//, /^\/app\/customers\/picker$/, /\.(csv|zip|ics)$/]
const PHOTO = /^\/app\/visits\/[^/]+\/photos\/[^/]+$/

/** Which rule answers a request, or null for the network alone (the worker does not touch it). */
export function offlineRuleFor(request: { method: string; mode: string; url: string }): OfflineRule | null {
  if (request.method !== 'GET') return null
  const url = new URL(request.url)
  const path = url.pathname
  if (path !== '/app' && !path.startsWith('/app/')) {
    // React Router asks for the data of /app itself at /app.data.
    return path === '/app.data' ? 'data' : null
  }
  const data = path.endsWith('.data')
  if (NEVER.some((pattern) => pattern.test(data ? path.slice(0, -'.data'.length) : path))) return null
  if (data) return 'data'
  if (PHOTO.test(path)) return 'photo'
  if (request.mode === 'navigate') return 'page'
  return null
}

/**
 * The saved copies that can stand in for a URL when the phone is offline, best first: the URL itself; then, for
 * React Router data, the same URL without `_routes` (a navigation asks only for the routes that changed, while the
 * copy saved ahead has them all); then the bare path.
 */
export function offlineKeys(href: string) {
  const url = new URL(href)
  const keys = [url.href]
  if (url.searchParams.has('_routes')) {
    url.searchParams.delete('_routes')
    keys.push(url.href)
  }
  url.search = ''
  keys.push(url.href)
  return [...new Set(keys)]
}

/**
 * The page a React Router data URL belongs to (`/app/visits/x.data?_routes=…` → `/app/visits/x`). Offline, with no saved
 * copy of the data, the worker answers a navigation's data request with a redirect that makes React Router load this
 * page as a document, which the worker answers with its saved copy or the offline page.
 */
export function pageOfData(href: string) {
  const url = new URL(href)
  url.pathname = url.pathname.replace(/\.data$/, '')
  url.searchParams.delete('_routes')
  return `${url.pathname}${url.search}`
}

/**
 * Whether a response may be kept. Only a plain 200 that names whose it is (OWNER_HEADER): never an error, never a
 * redirect that was followed (a signed-out visit to /app ends on the login page, which must not be saved as /app),
 * nor a single-fetch redirect, nor anything the server did not tag with the person who asked for it.
 */
export function isKeepable(response: { status: number; redirected: boolean; headers: Headers }) {
  return (
    response.status === 200 &&
    !response.redirected &&
    !response.headers.has('X-Remix-Redirect') &&
    ownerOf(response) !== null
  )
}

// ---- Whose copies these are (a shared phone: decision 030) -------------------------------------------------------

/**
 * Set by the server on every /app response of a signed-in person: their user id. The worker keeps it with each
 * copy, so a saved page says whose it is in a header the page's own content (its loader data, its HTML) cannot
 * change.
 */
export const OWNER_HEADER = 'X-Pool-Bud-User'

/**
 * A cookie the server sets beside the (HttpOnly) session cookie on every /app response, with the same lifetime:
 * the user id of the person signed in. It goes when the session goes (it expires with it, "Log out" and the sign-in
 * page delete it, clearing the browser's cookies clears it), which the worker sees offline too (the Cookie Store
 * API): with no such cookie, or another person's, no saved page is served.
 */
export const OWNER_COOKIE = 'pool-bud-user'

/** Whose a response is (OWNER_HEADER), or null when the server did not say. */
export function ownerOf(response: { headers: Headers }) {
  return response.headers.get(OWNER_HEADER) || null
}

/**
 * Whether a saved copy may be shown: only to the person who saved it, while their session lives on this phone.
 * `signedIn` is who the phone's cookie says is signed in now (OWNER_COOKIE), null with no session.
 */
export function mayServe(savedBy: string | null, signedIn: string | null) {
  return savedBy !== null && signedIn !== null && savedBy === signedIn
}

/**
 * Whether a live answer to an /app request says the session is over (expired, revoked, or its cookie gone): a 401
 * (the queue's endpoints), a redirect that ended on the sign-in page, or React Router's single-fetch redirect there.
 * The worker then empties the saved pages, data and photos.
 */
export function endsSession(response: { status: number; redirected: boolean; url: string; headers: Headers }) {
  if (response.status === 401) return true
  const isLogin = (path: string) => path === '/login' || path.startsWith('/login?')
  if (response.redirected && response.url && isLogin(new URL(response.url).pathname)) return true
  const target = response.headers.get('X-Remix-Redirect')
  return target !== null && isLogin(target)
}

/** The page and the data request the phone saves ahead for a stop of today's route. */
export function visitUrls(visitId: string) {
  const path = `/app/visits/${encodeURIComponent(visitId)}`
  return [path, `${path}.data`]
}

/** What Today saves for offline use: itself and its first stops' visit pages, bounded. */
export function dayUrls(visitIds: string[]) {
  return ['/app', '/app.data', ...visitIds.slice(0, MAX_SAVED_STOPS).flatMap(visitUrls)]
}

/** What the page asks the worker: save these URLs (Today and its stops) now, answering on the message's port. */
/**
 * 'forget': the person signed out, or their session ended (the sign-in page, a 401): nothing fetched before this
 * moment may be kept afterwards.
 */
export type WorkerMessage = { type: 'save-day'; urls: string[] } | { type: 'forget' }
export type SaveDayAnswer = { saved: number; total: number }

/** The page shown for a staff page that is not on the phone yet, while offline. Self-contained: no other request. */
export const OFFLINE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0e7490">
<title>Offline · Pool Bud</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:0 auto;padding:3rem 1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
a{display:inline-flex;align-items:center;min-height:2.75rem;margin-top:1rem;padding:0 1.25rem;border-radius:.5rem;background:#0e7490;color:#fff;font-weight:600;text-decoration:none}
</style>
</head>
<body>
<main>
<h1>You're offline</h1>
<p>You're offline and this page is not on this phone yet. Pages you opened with a connection, and today's stops, are.</p>
<a href="/app">Go to Today</a>
</main>
</body>
</html>`
