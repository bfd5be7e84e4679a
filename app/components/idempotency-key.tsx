import { useState } from 'react'

/**
 * The idempotency key of a create form (models/idempotency.server.ts). `fresh` is a new random key from the
 * loader, which runs for every page (so without JavaScript each rendered form has its own); in the browser the
 * form keeps its key until `saved` — this form's success reply — changes, so a retry after a lost answer, or
 * after a live update re-ran the loader, sends the same key, and the next entry gets a new one.
 */
export function useIdempotencyKey(fresh: string, saved: unknown) {
  const [current, setCurrent] = useState({ key: fresh, saved })
  if (saved && saved !== current.saved) {
    setCurrent({ key: fresh, saved })
    return fresh
  }
  return current.key
}

/** The hidden field that carries the key. */
export function IdempotencyKeyInput({ value }: { value: string }) {
  return <input type="hidden" name="idempotencyKey" value={value} />
}
