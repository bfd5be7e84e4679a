// The page's side of the staff app's service worker (decision 019): registering it, asking it to save the
// technician's day ahead, and emptying what it kept when someone signs out or their session ends. (Whose each saved
// copy is, and who may see it, the worker decides from what the server says: decision 030.) A `.client`
// module: on the server its exports are undefined, so call them from effects and event handlers only.
import { dayUrls, OFFLINE_CACHES, type SaveDayAnswer, type WorkerMessage } from './offline-cache'

/** The worker is a production file (build/client/sw.js); `npm run dev` has none, and runs without it. */
function workerSupported() {
  return import.meta.env.PROD && typeof navigator !== 'undefined' && 'serviceWorker' in navigator
}

let lastDay: string[] | null = null

let registered = false

/** Registers the worker once per page (the staff app layout). A new version takes over at once (sw.ts). */
export function registerServiceWorker() {
  if (registered || !workerSupported()) return
  registered = true
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
    // The app works without it (online only); say why in the console for whoever debugs the phone.
    console.warn('Pool Bud could not install its offline worker:', error)
  })
  // A new version drops the saved pages that named the previous build's files: save the day again for it. (The
  // first worker of a phone has nothing to drop; saving waits until it controls the page, see askWorker.)
  let controlledBefore = Boolean(navigator.serviceWorker.controller)
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controlledBefore && lastDay && navigator.onLine) void askWorker(lastDay)
    controlledBefore = true
  })
}

/** The worker controlling this page, once there is one (the first visit installs it, then it takes the page). */
function controller(): Promise<ServiceWorker> {
  const current = navigator.serviceWorker.controller
  if (current) return Promise.resolve(current)
  return new Promise((resolve) => {
    const taken = () => {
      if (!navigator.serviceWorker.controller) return
      navigator.serviceWorker.removeEventListener('controllerchange', taken)
      resolve(navigator.serviceWorker.controller)
    }
    navigator.serviceWorker.addEventListener('controllerchange', taken)
  })
}

async function askWorker(urls: string[]): Promise<SaveDayAnswer> {
  const worker = await controller()
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = (event: MessageEvent<SaveDayAnswer>) => resolve(event.data)
    const message: WorkerMessage = { type: 'save-day', urls }
    worker.postMessage(message, [channel.port2])
  })
}

/**
 * Has the worker save Today and its stops' visit pages (document and data), so the day opens on the phone without a
 * connection. Null where there is no worker (development, old browsers) or no connection.
 */
export async function saveDayForOffline(visitIds: string[]): Promise<SaveDayAnswer | null> {
  if (!workerSupported() || !navigator.onLine) return null
  const urls = dayUrls(visitIds)
  lastDay = urls
  return askWorker(urls)
}

/**
 * Empties the pages, data and photos the worker kept (the app's code stays: it holds nobody's data): at "Log out",
 * on the sign-in page, and when the queue is told the session ended (401).
 */
export async function clearOfflineCopies() {
  if (typeof caches === 'undefined') return
  // The worker also drops what is still on its way from before this moment (a revalidation in flight).
  const forget: WorkerMessage = { type: 'forget' }
  navigator.serviceWorker?.controller?.postMessage(forget)
  await Promise.all(Object.values(OFFLINE_CACHES).map((name) => caches.delete(name)))
  lastDay = null
}
