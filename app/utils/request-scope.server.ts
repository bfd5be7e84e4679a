// One HTTP request's scratch space. React Router hands each loader of a page its own copy of the
// Request, so what several loaders of one page all read (who is signing in, their company) cannot be
// remembered on the Request; server.mjs runs every request inside `runInRequestScope` instead.
// Only reads are shared, and only in a GET or HEAD: in a POST the action may change what it read,
// and the loaders that run after it in the same request must see the change.
import { AsyncLocalStorage } from 'node:async_hooks'

type Scope = { reads: boolean; memo: Map<string, Promise<unknown>> }

const storage = new AsyncLocalStorage<Scope>()

export function runInRequestScope<T>(method: string, handle: () => T): T {
  return storage.run({ reads: method === 'GET' || method === 'HEAD', memo: new Map() }, handle)
}

/** `compute()` once per GET request and key; in any other request, script or test, every call computes. */
export function oncePerRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const scope = storage.getStore()
  if (!scope?.reads) return compute()
  let value = scope.memo.get(key) as Promise<T> | undefined
  if (!value) {
    value = compute()
    scope.memo.set(key, value)
  }
  return value
}

/** Records `value` as this GET request's answer for `key`, when something already read it along the way. */
export function rememberForRequest<T>(key: string, value: T) {
  const scope = storage.getStore()
  if (scope?.reads && !scope.memo.has(key)) scope.memo.set(key, Promise.resolve(value))
}

/** The key under which a request remembers a company's name and timezone (the session read fills it). */
export function companySummaryKey(companyId: string) {
  return `company ${companyId}`
}
