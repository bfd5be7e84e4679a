// The staff app's service worker (issue #19, decision 019), built by scripts/lib/service-worker.ts after
// `react-router build` into build/client/sw.js with the list of built assets injected. It keeps the app's code on the
// phone and the staff pages the technician opened (or Today saved ahead), so the day opens without a connection.
// What it keeps and under which key is decided in app/field/offline-cache.ts; writes never pass through here (the
// page's queue, app/field/queue.ts, sends them; no Background Sync).
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching'
import { registerRoute, setCatchHandler } from 'workbox-routing'
import { CacheFirst, NetworkFirst } from 'workbox-strategies'
import {
  endsSession,
  isKeepable,
  mayServe,
  NETWORK_TIMEOUT_SECONDS,
  OFFLINE_CACHES,
  OFFLINE_PAGE,
  OWNER_COOKIE,
  offlineKeys,
  offlineRuleFor,
  ownerOf,
  pageOfData,
  type SaveDayAnswer,
  type WorkerMessage,
} from '../field/offline-cache'

/** The Cookie Store API, where the browser has it in workers (Chromium, Safari 18.4+); it never shows HttpOnly ones. */
type CookieStoreLike = { get(name: string): Promise<{ value: string } | null | undefined> }
declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<PrecacheEntry | string>
  cookieStore?: CookieStoreLike
}

const MATCH: CacheQueryOptions = { ignoreVary: true }
const DAY = 24 * 60 * 60

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

/**
 * When the person last signed out on this phone ('forget'). A response to a request made before then (a page's data
 * still on its way when "Log out" cleared the caches) is never kept: it would put their customers back on the phone.
 */
let forgottenAt = 0

/**
 * Whose session the last live /app answer belonged to (OWNER_HEADER), learned only from responses this worker
 * fetched itself; null after the session ended, or when the worker has just started.
 */
let lastLiveUser: string | null = null

/**
 * Who is signed in on this phone now: the owner cookie (OWNER_COOKIE), which goes with the session even offline.
 * A browser without the Cookie Store API in workers has only the last live answer, which does not survive the
 * worker being stopped: offline it then shows no saved page rather than guess (decision 030).
 */
async function signedInUser(): Promise<string | null> {
  if (self.cookieStore) {
    try {
      return (await self.cookieStore.get(OWNER_COOKIE))?.value || null
    } catch {
      return null
    }
  }
  return lastLiveUser
}

/** The session ended (sign-in page, 401, redirect to it): empty the saved pages, data and photos. */
async function forget() {
  forgottenAt = Date.now()
  lastLiveUser = null
  await Promise.all(Object.values(OFFLINE_CACHES).map((name) => caches.delete(name)))
}

/** Drops every saved copy that is not `user`'s: another person signed in on this phone. */
async function dropAllBut(user: string) {
  for (const name of Object.values(OFFLINE_CACHES)) {
    if (!(await caches.has(name))) continue
    const cache = await caches.open(name)
    for (const request of await cache.keys()) {
      const saved = await cache.match(request, MATCH)
      if (!saved || ownerOf(saved) !== user) await cache.delete(request, MATCH)
    }
  }
}

/** What a live /app answer says about who is signed in: the session ended, or it is (still, or now) this person. */
async function learnFrom(response: Response) {
  if (endsSession(response)) {
    await forget()
    return
  }
  const owner = ownerOf(response)
  if (owner && owner !== lastLiveUser) {
    lastLiveUser = owner
    await dropAllBut(owner)
  }
}

/** Every live answer to an /app request tells the worker who is signed in (learnFrom). */
const learnWhoIsSignedIn = {
  fetchDidSucceed: async ({ response }: { response: Response }) => {
    await learnFrom(response)
    return response
  },
}

/** A saved copy is shown only to the person who saved it, while their session lives on this phone (mayServe). */
const onlyToItsOwner = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) => {
    if (!cachedResponse) return null
    return mayServe(ownerOf(cachedResponse), await signedInUser()) ? cachedResponse : null
  },
}

/** Only plain 200s are kept (never the login page a signed-out request was redirected to), and nothing from before
 * the last sign-out. */
const keepOnlyPlain = {
  requestWillFetch: async ({ request, state }: { request: Request; state?: Record<string, unknown> }) => {
    if (state) state.startedAt = Date.now()
    return request
  },
  cacheWillUpdate: async ({ response, state }: { response: Response; state?: Record<string, unknown> }) => {
    const startedAt = typeof state?.startedAt === 'number' ? state.startedAt : 0
    return isKeepable(response) && startedAt > forgottenAt ? response : null
  },
}

/** Offline, a URL with no copy of its own may be answered by a fuller one (offlineKeys). */
const fallBackToFullerCopy = {
  cachedResponseWillBeUsed: async ({
    cacheName,
    request,
    cachedResponse,
  }: {
    cacheName: string
    request: Request
    cachedResponse?: Response
  }) => {
    if (cachedResponse) return cachedResponse
    const cache = await caches.open(cacheName)
    for (const key of offlineKeys(request.url).slice(1)) {
      const found = await cache.match(key, MATCH)
      if (found) return found
    }
    return null
  },
}

function networkFirst(cacheName: string) {
  return new NetworkFirst({
    cacheName,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    matchOptions: MATCH,
    plugins: [
      learnWhoIsSignedIn,
      keepOnlyPlain,
      fallBackToFullerCopy,
      onlyToItsOwner,
      new ExpirationPlugin({ maxEntries: 150, maxAgeSeconds: 14 * DAY, purgeOnQuotaError: true }),
    ],
  })
}

registerRoute(({ request }) => offlineRuleFor(request) === 'page', networkFirst(OFFLINE_CACHES.pages))
registerRoute(({ request }) => offlineRuleFor(request) === 'data', networkFirst(OFFLINE_CACHES.data))
registerRoute(
  ({ request }) => offlineRuleFor(request) === 'photo',
  new CacheFirst({
    cacheName: OFFLINE_CACHES.photos,
    matchOptions: MATCH,
    plugins: [
      learnWhoIsSignedIn,
      keepOnlyPlain,
      onlyToItsOwner,
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true }),
    ],
  }),
)

// Offline with no copy at all: a page gets the offline page; a navigation's data request gets a redirect that has
// React Router load that page as a document (the offline page, with its link to Today) instead of an error screen.
setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') {
    return new Response(OFFLINE_PAGE, {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
      },
    })
  }
  if (offlineRuleFor(request) === 'data') {
    return new Response(null, {
      status: 204,
      headers: { 'X-Remix-Redirect': pageOfData(request.url), 'X-Remix-Reload-Document': 'true' },
    })
  }
  return Response.error()
})

/** Saves Today and its stops ahead (app/field/offline-day.ts): a few requests at a time, each kept or not. */
async function saveDay(urls: string[]): Promise<SaveDayAnswer> {
  let saved = 0
  const queue = [...urls]
  const worker = async () => {
    for (let url = queue.shift(); url; url = queue.shift()) {
      const startedAt = Date.now()
      const request = new Request(new URL(url, self.location.origin), { credentials: 'same-origin' })
      const rule = offlineRuleFor({
        method: 'GET',
        mode: url.endsWith('.data') ? 'cors' : 'navigate',
        url: request.url,
      })
      if (rule !== 'page' && rule !== 'data') continue
      try {
        const response = await fetch(request, { headers: rule === 'page' ? { Accept: 'text/html' } : {} })
        await learnFrom(response)
        if (!isKeepable(response) || startedAt <= forgottenAt) continue
        await (await caches.open(rule === 'page' ? OFFLINE_CACHES.pages : OFFLINE_CACHES.data)).put(request, response)
        saved++
      } catch {
        // The connection dropped mid-way: what was saved stays, the rest is saved on the next online Today.
      }
    }
  }
  await Promise.all([worker(), worker(), worker()])
  return { saved, total: urls.length }
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as WorkerMessage
  const port = event.ports[0]
  if (message?.type === 'save-day' && port) {
    event.waitUntil(saveDay(message.urls).then((answer) => port.postMessage(answer)))
  }
  if (message?.type === 'forget') event.waitUntil(forget())
})

self.addEventListener('install', () => {
  void self.skipWaiting()
})

// A new version's saved pages would name the previous build's assets, which the precache just removed: drop them.
// This runs online (a new version was just downloaded), and Today saves the day again once this worker controls it.
self.addEventListener('activate', (event) => {
  event.waitUntil(
    Promise.all([caches.delete(OFFLINE_CACHES.pages), caches.delete(OFFLINE_CACHES.data)]).then(() =>
      self.clients.claim(),
    ),
  )
})
