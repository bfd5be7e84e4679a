// The phone's queue of visit changes and photos (issue #19, docs/product.md "The visit"). Every change a technician
// makes on a visit — a tick, a reading, a note, a photo, a completion, a skip — is first written to IndexedDB with a
// fresh idempotency key, then sent in order: at once when online, and again when the connection returns (the `online`
// event, opening the app, and a timer; no Background Sync, which iPhones lack). The server applies each key once,
// so sending the same item twice (an answer lost to a dropped connection) changes nothing. A change the server
// refuses (the visit was reassigned, canceled or completed by someone else) stays on the phone with the reason,
// for the technician to read; nothing is dropped silently.
//
// Only one tab sends at a time (the Web Locks API); tabs tell each other about changes over a BroadcastChannel.
//
// Phones are shared (decision 030): every item records whose it is (`ownerId`, the user id of the person signed in
// when it was made). Only that person's items are shown and sent, each with their id in FIELD_OWNER_HEADER, which
// the server checks against the session: the changes of someone whose session ended without "Log out" wait on the
// phone for them, and another person signed in never sees or sends them.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { PhotoLabel } from '~/utils/photo-fields'
import {
  CLOCK_QUEUE_ID,
  type ClockChange,
  type ClockKind,
  FIELD_CHANGES_PATH,
  FIELD_CLOCK_PATH,
  FIELD_OWNER_HEADER,
  type FieldChange,
  type FieldChangeAnswer,
  type VisitChange,
} from './changes'
import { checkPhotoFile } from './photo-rules'

type ItemBase = {
  key: string
  visitId: string
  /**
   * Whose change this is: the user id of the person signed in when it was made. (Items queued before decision 030
   * have none; they belong to nobody who can be told apart, so nobody sends or sees them.)
   */
  ownerId?: string
  /** Queue order: items are sent oldest first. */
  seq: number
  createdAt: string
  /** 'waiting' to be sent (or held until `heldUntil`, the "Undo" window), or 'refused' by the server for good. */
  state: 'waiting' | 'refused'
  heldUntil?: number
  refusal?: string
  attempts: number
}
export type QueuedChange = ItemBase & { kind: 'change'; madeAt: string; change: VisitChange }
export type QueuedPhoto = ItemBase & { kind: 'photo'; label: PhotoLabel; blob: Blob; fileName: string }
/** A tap of the technician's clock ("Start day"…): its `key` is the event's id; `visitId` is CLOCK_QUEUE_ID. */
export type QueuedClock = ItemBase & { kind: 'clock'; madeAt: string; clock: ClockKind }
export type QueuedItem = QueuedChange | QueuedPhoto | QueuedClock

/** An item as the page shows it: what is stored, plus whether it is on its way now and how far a photo got. */
export type ShownItem = QueuedItem & { sending: boolean; progress?: number }

interface QueueSchema extends DBSchema {
  items: { key: string; value: QueuedItem; indexes: { seq: number } }
}

export const QUEUE_MESSAGES = {
  noStorage:
    'This phone cannot keep changes offline (storage is full or the browser is in private mode). Nothing was saved: keep this page open and try again with a connection.',
  signedOut: 'You are signed out. Log in again to send the changes waiting on this phone.',
} as const

const DB_NAME = 'pool-bud-field'
const LOCK_NAME = 'pool-bud-field-queue'
const RETRY_EVERY_MS = 15_000

/**
 * How long to wait before sending again after `failedInARow` failed sends with a connection: 1, 2, 4, 8 seconds, then
 * the 15-second round. The first send after the signal returns often fails (the radio or a captive portal is not
 * ready); the technician should not wait a whole round for "All changes saved".
 */
export function retryDelay(failedInARow: number) {
  return Math.min(RETRY_EVERY_MS, 1000 * 2 ** Math.max(0, failedInARow - 1))
}

let failedInARow = 0
let retryTimer: ReturnType<typeof setTimeout> | null = null

/** Schedules one early retry (online only: offline, the 15-second round and the "online" event cover it). */
function retrySoon() {
  failedInARow++
  if (retryTimer || !navigator.onLine) return
  retryTimer = setTimeout(() => {
    retryTimer = null
    void flushQueue()
  }, retryDelay(failedInARow))
}

let database: Promise<IDBPDatabase<QueueSchema>> | null = null

/** Who is signed in on this page (startFieldQueue): only their items are shown, sent and cleared. */
let owner: string | null = null

/** The items of one person, in the order given: what the page shows and sends while they are signed in. */
export function itemsOf<T extends Pick<QueuedItem, 'ownerId'>>(items: T[], person: string | null) {
  return person ? items.filter((item) => item.ownerId === person) : []
}

/** This person's items, oldest first. */
async function ownItems(db: IDBPDatabase<QueueSchema>) {
  return itemsOf(await db.getAllFromIndex('items', 'seq'), owner)
}

function openQueue() {
  database ??= openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      const store = db.createObjectStore('items', { keyPath: 'key' })
      store.createIndex('seq', 'seq')
    },
  }).catch((error: unknown) => {
    // Private modes and blocked storage refuse to open: say so at the next write instead of failing forever.
    database = null
    throw error
  })
  return database
}

// ---- What the page sees -------------------------------------------------------------------------------------

type Snapshot = {
  items: ShownItem[]
  online: boolean
  signedOut: boolean
  /** When the queue last became empty after sending something: "All changes saved". */
  savedAt: number | null
  /** The phone's storage would not open (private mode, blocked or full): nothing can be kept offline. */
  noStorage: boolean
}

const EMPTY: Snapshot = { items: [], online: true, signedOut: false, savedAt: null, noStorage: false }
let snapshot: Snapshot = EMPTY
const listeners = new Set<() => void>()
let sendingKey: string | null = null
const progress = new Map<string, number>()
// Browsers only: on the server (which renders the pages that use the queue) there is no queue to share.
const channel =
  typeof window === 'undefined' || typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(DB_NAME)

async function refresh() {
  let stored: QueuedItem[] = []
  let noStorage = false
  try {
    stored = await ownItems(await openQueue())
  } catch {
    stored = []
    noStorage = true
  }
  snapshot = {
    ...snapshot,
    noStorage,
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    items: stored.map((item) => ({ ...item, sending: item.key === sendingKey, progress: progress.get(item.key) })),
  }
  for (const listener of listeners) listener()
}

function changed() {
  channel?.postMessage('changed')
  return refresh()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The queue as the page shows it: every item, or one visit's; "N changes waiting"; refusals; the connection. */
export function useFieldQueue(visitId?: string) {
  const current = useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => EMPTY,
  )
  const items = visitId ? current.items.filter((item) => item.visitId === visitId) : current.items
  return {
    items,
    online: current.online,
    signedOut: current.signedOut,
    savedAt: current.savedAt,
    noStorage: current.noStorage,
    /** Changes not yet on the server, on every visit (the indicator counts the whole phone). */
    waiting: current.items.filter((item) => item.state === 'waiting').length,
    refused: items.filter((item) => item.state === 'refused'),
  }
}

/**
 * What this page queued, kept after the queue has finished with it until the page's data is loaded again: an item
 * leaves the queue when the server has it, a moment before the page's loaders run again, and in between the page's
 * data is still from before it. `serverData` is the loader's data; when it changes, what has left the queue is dropped.
 * `queued` lists every key still in the queue (waiting or refused).
 */
export function useKeptUntilReload<T extends { key: string }>(queued: ReadonlySet<string>, serverData: unknown) {
  const [kept, setKept] = useState<T[]>([])
  const inQueue = useRef(queued)
  inQueue.current = queued
  // biome-ignore lint/correctness/useExhaustiveDependencies: fresh server data is the signal to drop what it shows.
  useEffect(() => {
    setKept((current) => {
      const left = current.filter((item) => inQueue.current.has(item.key))
      return left.length === current.length ? current : left
    })
  }, [serverData])
  return {
    /** Everything kept, in the queue or not. */
    kept,
    keep: (item: T) => setKept((current) => [...current, item]),
    forget: (key: string) => setKept((current) => current.filter((item) => item.key !== key)),
  }
}

/** How many of this person's changes would be lost by signing out now (the sign-out warning). */
export async function countWaiting() {
  try {
    const stored = await ownItems(await openQueue())
    return stored.filter((item) => item.state === 'waiting').length
  } catch {
    return 0
  }
}

// ---- Adding and removing ------------------------------------------------------------------------------------

let lastSeq = 0
function nextSeq() {
  lastSeq = Math.max(Date.now() * 1000, lastSeq + 1)
  return lastSeq
}

type Queued = { ok: true; key: string } | { ok: false; message: string }

async function store(item: QueuedItem): Promise<Queued> {
  // No one is known to be signed in on this page: a change kept now would belong to nobody.
  if (!item.ownerId) return { ok: false, message: QUEUE_MESSAGES.signedOut }
  try {
    await (await openQueue()).put('items', item)
    // Ask the browser not to evict the queue under storage pressure (best effort; it may say no).
    void navigator.storage?.persist?.().catch(() => false)
  } catch {
    return { ok: false, message: QUEUE_MESSAGES.noStorage }
  }
  await changed()
  void flushQueue()
  return { ok: true, key: item.key }
}

function base(visitId: string) {
  return {
    key: crypto.randomUUID(),
    visitId,
    ownerId: owner ?? undefined,
    seq: nextSeq(),
    createdAt: new Date().toISOString(),
    state: 'waiting' as const,
    attempts: 0,
  }
}

/**
 * Queues a change of a visit and starts sending it. With `holdMs` it waits that long first ("Undo" on Mark
 * Complete: cancelQueued within the window and it was never sent). Fails only when the phone cannot store it,
 * with a message to show next to the form (whose content the caller keeps).
 */
export function queueChange(visitId: string, change: VisitChange, options: { holdMs?: number } = {}) {
  const item: QueuedChange = { ...base(visitId), kind: 'change', madeAt: new Date().toISOString(), change }
  if (options.holdMs) {
    item.heldUntil = Date.now() + options.holdMs
    setTimeout(() => void flushQueue(), options.holdMs + 50)
  }
  return store(item)
}

/**
 * Queues a tap of the technician's clock ("Start day", "Break", "Back", "End day") with the phone's time, and starts
 * sending it: sent in order with the visits' changes, applied once by its id (docs/time.md).
 */
export function queueClock(kind: ClockKind, madeAt = new Date().toISOString()) {
  const item: QueuedClock = { ...base(CLOCK_QUEUE_ID), kind: 'clock', madeAt, clock: kind }
  return store(item)
}

/** Queues a photo of a visit (checked first: an image, within the size limit) and starts uploading it. */
export function queuePhoto(visitId: string, file: File, label: PhotoLabel): Promise<Queued> {
  const problem = checkPhotoFile(file)
  if (problem) return Promise.resolve({ ok: false, message: problem })
  return store({ ...base(visitId), kind: 'photo', label, blob: file, fileName: file.name || 'photo.jpg' })
}

/** Takes an item back before it is sent ("Undo"). False when it is already on its way or gone. */
export async function cancelQueued(key: string) {
  if (key === sendingKey) return false
  try {
    const db = await openQueue()
    if (!(await db.get('items', key))) return false
    await db.delete('items', key)
  } catch {
    return false
  }
  await changed()
  return true
}

/** Removes a refused item once the technician has read it (its content is shown until then). */
export async function dismissRefused(key: string) {
  const db = await openQueue()
  const item = await db.get('items', key)
  if (item?.state === 'refused') await db.delete('items', key)
  await changed()
}

/**
 * Empties this person's queue, refusals included: signing out of a shared phone leaves nothing of their work. (Another
 * person's changes, left by a session that ended without "Log out", stay for them.)
 */
export async function clearQueue() {
  const db = await openQueue()
  const tx = db.transaction('items', 'readwrite')
  for (const item of itemsOf(await tx.store.getAll(), owner)) await tx.store.delete(item.key)
  await tx.done
  await changed()
}

// ---- Sending ------------------------------------------------------------------------------------------------

type Sent = 'sent' | 'retry' | 'signed-out' | 'not-yours' | { refused: string }

/** Shown for a 422 that says nothing more (the server always says why). */
const REFUSED_UNEXPLAINED = 'The server refused this change.'

/**
 * What an answer means for the queue: applied, refused for good, try again later, or — another person is signed in
 * now ('not-yours': the change waits on the phone for the person who made it).
 */
export function outcomeOf(status: number, body: unknown): Sent {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Partial<FieldChangeAnswer> & {
    signedOut?: boolean
    otherPerson?: boolean
    message?: string
  }
  if (status >= 200 && status < 300 && answer.ok) return 'sent'
  if (status === 401 || answer.signedOut) return 'signed-out'
  if (answer.otherPerson) return 'not-yours'
  if (status === 429 || status >= 500) return 'retry'
  if (answer.ok === false && 'refused' in answer && answer.refused) return { refused: answer.message ?? 'Refused.' }
  // 422: the server understood the change and will never apply it (an idempotency key already used for another
  // change, say): final, shown with what was typed, whatever else the body says.
  if (status === 422) return { refused: answer.message || REFUSED_UNEXPLAINED }
  // Any other 4xx (a proxy's page, say) is not a refusal we can explain: keep it and try again.
  return 'retry'
}

async function sendChange(item: QueuedChange): Promise<Sent> {
  const body: FieldChange = { key: item.key, visitId: item.visitId, madeAt: item.madeAt, change: item.change }
  try {
    const response = await fetch(FIELD_CHANGES_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        [FIELD_OWNER_HEADER]: item.ownerId ?? '',
      },
      body: JSON.stringify(body),
    })
    return outcomeOf(response.status, await response.json().catch(() => null))
  } catch {
    return 'retry'
  }
}

async function sendClock(item: QueuedClock): Promise<Sent> {
  const body: ClockChange = { id: item.key, kind: item.clock, madeAt: item.madeAt }
  try {
    const response = await fetch(FIELD_CLOCK_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        [FIELD_OWNER_HEADER]: item.ownerId ?? '',
      },
      body: JSON.stringify(body),
    })
    return outcomeOf(response.status, await response.json().catch(() => null))
  } catch {
    return 'retry'
  }
}

function sendPhoto(item: QueuedPhoto): Promise<Sent> {
  return new Promise((resolve) => {
    const form = new FormData()
    form.set('photo', new File([item.blob], item.fileName, { type: item.blob.type || 'image/jpeg' }))
    form.set('label', item.label)
    form.set('clientKey', item.key)
    const request = new XMLHttpRequest()
    request.open('POST', `/app/visits/${encodeURIComponent(item.visitId)}/photos`)
    request.setRequestHeader('Accept', 'application/json')
    request.setRequestHeader(FIELD_OWNER_HEADER, item.ownerId ?? '')
    request.responseType = 'json'
    request.upload.onprogress = (event) => {
      if (!event.lengthComputable) return
      progress.set(item.key, event.loaded / event.total)
      void refresh()
    }
    request.onload = () => resolve(outcomeOf(request.status, request.response))
    request.onerror = () => resolve('retry')
    request.ontimeout = () => resolve('retry')
    request.timeout = 120_000
    request.send(form)
  })
}

/** The next item to send: the oldest waiting one not held, never overtaking a held item of the same visit. */
export function nextToSend(items: QueuedItem[], now: number) {
  const heldVisits = new Set<string>()
  for (const item of items) {
    if (item.state !== 'waiting') continue
    if (item.heldUntil && item.heldUntil > now) {
      heldVisits.add(item.visitId)
      continue
    }
    if (!heldVisits.has(item.visitId)) return item
  }
  return null
}

/** Writes an item back unless it was removed while on its way (clearQueue at sign-out must not see it return). */
async function updateIfQueued(db: IDBPDatabase<QueueSchema>, item: QueuedItem) {
  const tx = db.transaction('items', 'readwrite')
  if (await tx.store.get(item.key)) await tx.store.put(item)
  await tx.done
}

let flushing: Promise<void> | null = null
let onSent: (() => void) | null = null
let onSignedOut: (() => void) | null = null

async function drain() {
  const db = await openQueue()
  let sentAny = false
  for (;;) {
    const item = nextToSend(await ownItems(db), Date.now())
    if (!item) break
    sendingKey = item.key
    await refresh()
    const outcome =
      item.kind === 'change'
        ? await sendChange(item)
        : item.kind === 'clock'
          ? await sendClock(item)
          : await sendPhoto(item)
    sendingKey = null
    progress.delete(item.key)
    if (outcome === 'sent') {
      await db.delete('items', item.key)
      sentAny = true
      failedInARow = 0
      snapshot = { ...snapshot, signedOut: false }
    } else if (outcome === 'signed-out') {
      snapshot = { ...snapshot, signedOut: true }
      // The session ended without "Log out": the pages saved for it go too (the changes wait for this person).
      onSignedOut?.()
      break
    } else if (outcome === 'not-yours') {
      // Another person signed in meanwhile (in another tab, say): this page's idea of who is signed in is old.
      break
    } else if (outcome === 'retry') {
      await updateIfQueued(db, { ...item, attempts: item.attempts + 1 })
      retrySoon()
      break
    } else {
      await updateIfQueued(db, { ...item, state: 'refused', refusal: outcome.refused })
    }
    await changed()
  }
  const left = (await ownItems(db)).some((item) => item.state === 'waiting')
  if (sentAny && !left) snapshot = { ...snapshot, savedAt: Date.now() }
  await changed()
  if (sentAny) onSent?.()
}

/** Sends what is waiting, in order, one tab at a time. Safe to call often: calls made while sending join it. */
export function flushQueue(): Promise<void> {
  if (typeof window === 'undefined') return Promise.resolve()
  flushing ??= (async () => {
    try {
      if (navigator.locks) await navigator.locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => lock && drain())
      else await drain()
    } catch {
      // Storage unavailable: nothing can be waiting (queueing said so when it failed).
    } finally {
      flushing = null
    }
  })()
  return flushing
}

let started = false

/**
 * Whose queue this page shows and sends: the person signed in (their user id), set by the staff app's layout and
 * again when someone else signs in on the page. Until it is set, nothing is shown, queued or sent. `whenSignedOut`
 * runs when the server says the session ended (401).
 */
export function queueBelongsTo(person: string, { whenSignedOut }: { whenSignedOut?: () => void } = {}) {
  onSignedOut = whenSignedOut ?? null
  if (person === owner) return
  owner = person
  snapshot = { ...snapshot, signedOut: false, savedAt: null }
  if (typeof window === 'undefined') return
  void refresh()
  void flushQueue()
}

/**
 * Starts the queue once per page: sends what is waiting now, when the connection returns, when the app comes back
 * to the foreground, and every 15 seconds while something waits (sooner after a send that failed with a connection:
 * retryDelay). `whenSent` runs after items reach the server (the page reloads its data then, to show the server's
 * copy).
 */
export function startFieldQueue(whenSent?: () => void) {
  onSent = whenSent ?? null
  if (typeof window === 'undefined') return
  if (started) return
  started = true
  const update = () => {
    void refresh()
    void flushQueue()
  }
  window.addEventListener('online', () => {
    failedInARow = 0
    update()
  })
  window.addEventListener('offline', () => void refresh())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') update()
  })
  channel?.addEventListener('message', () => void refresh())
  setInterval(() => {
    if (snapshot.items.some((item) => item.state === 'waiting')) void flushQueue()
  }, RETRY_EVERY_MS)
  update()
}
