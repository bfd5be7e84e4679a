// The visit page's view of the phone's queue (docs/product.md "The visit", issue #19): every change the technician made
// that the page's data does not show yet — still waiting on the phone, or sent and not yet read back — so a tick shows
// ticked, a reading is listed and a completion shows the visit completed from the moment of the tap, online or not.
import type { VisitChange } from '~/field/changes'
import {
  cancelQueued,
  dismissRefused,
  queueChange,
  type ShownItem,
  useFieldQueue,
  useKeptUntilReload,
} from '~/field/queue'

/** A change the page shows as made: `waiting` while it is still on the phone. */
export type PendingChange = { key: string; seq: number; change: VisitChange; waiting: boolean; heldUntil?: number }

/** A change the server refused, with its reason; shown until the technician dismisses it. */
export type RefusedChange = { key: string; change: VisitChange | null; photo: string | null; reason: string }

/** What queuing a change came to: its key, or why nothing was stored. */
export type Queued = { ok: true; key: string } | { ok: false; message: string }

/**
 * `serverData` is the loader's data: when it changes, changes the queue has finished with (sent) are shown by the
 * server's copy and the page's own record of them is dropped.
 */
export function useVisitChanges(visitId: string, serverData: unknown) {
  const queue = useFieldQueue(visitId)
  const {
    kept: sent,
    keep,
    forget,
  } = useKeptUntilReload<PendingChange>(new Set(queue.items.map((item) => item.key)), serverData)

  const waiting = queue.items.flatMap((item): PendingChange[] =>
    item.kind === 'change' && item.state === 'waiting'
      ? [{ key: item.key, seq: item.seq, change: item.change, waiting: true, heldUntil: item.heldUntil }]
      : [],
  )
  const waitingKeys = new Set(waiting.map((change) => change.key))
  const refusedKeys = new Set(queue.refused.map((item) => item.key))
  const pending = [
    ...waiting,
    ...sent
      .filter((change) => !waitingKeys.has(change.key) && !refusedKeys.has(change.key))
      .map((change) => ({ ...change, waiting: false })),
  ].sort((a, b) => a.seq - b.seq)

  async function queue_(change: VisitChange, options: { holdMs?: number } = {}): Promise<Queued> {
    const queued = await queueChange(visitId, change, options)
    if (queued.ok) keep({ key: queued.key, seq: Date.now() * 1000 + sent.length, change, waiting: false })
    return queued
  }

  async function cancel(key: string) {
    const canceled = await cancelQueued(key)
    if (canceled) forget(key)
    return canceled
  }

  return {
    pending,
    /** Photos of this visit still on the phone: they count as taken. */
    queuedPhotos: queue.items.filter((item) => item.kind === 'photo' && item.state === 'waiting').length,
    refused: queue.refused.map(refusedOf),
    online: queue.online,
    queue: queue_,
    cancel,
    dismiss: (key: string) => dismissRefused(key),
  }
}

export function refusedOf(item: ShownItem): RefusedChange {
  return {
    key: item.key,
    change: item.kind === 'change' ? item.change : null,
    photo: item.kind === 'photo' ? item.fileName : null,
    reason: item.refusal ?? 'The server refused this change.',
  }
}

/** The ticks as the technician left them: the server's, then each pending tick or untick in order. */
export function tickedItems(serverTicks: readonly string[], pending: readonly PendingChange[]) {
  const ticked = new Set(serverTicks)
  for (const { change } of pending) {
    if (change.type !== 'check') continue
    if (change.checked) ticked.add(change.itemId)
    else ticked.delete(change.itemId)
  }
  return ticked
}

/** The latest pending change of a type (a note: of an audience), if any. */
export function latestPending<T extends VisitChange['type']>(
  pending: readonly PendingChange[],
  type: T,
  match: (change: Extract<VisitChange, { type: T }>) => boolean = () => true,
) {
  return pending.findLast(
    (item): item is PendingChange & { change: Extract<VisitChange, { type: T }> } =>
      item.change.type === type && match(item.change as Extract<VisitChange, { type: T }>),
  )
}
