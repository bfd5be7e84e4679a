// One HTTP request's scratch space. React Router hands each loader of a page its own copy of the
// Request, so "who is asking" cannot be remembered on the Request itself; server.mjs runs every
// request inside `runInRequestScope` instead, and the loaders of that request share what it holds.
import { AsyncLocalStorage } from 'node:async_hooks'

const storage = new AsyncLocalStorage<Map<string, Promise<unknown>>>()

export function runInRequestScope<T>(handle: () => T): T {
  return storage.run(new Map(), handle)
}

/** `compute()` once per request and key; outside a request scope (scripts, tests) every call computes. */
export function oncePerRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = storage.getStore()
  if (!scope) return compute()
  let value = scope.get(key) as Promise<T> | undefined
  if (!value) {
    value = compute()
    scope.set(key, value)
  }
  return value
}
