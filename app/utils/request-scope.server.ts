// One HTTP request's scratch space. React Router hands each loader of a page its own copy of the
// Request, so what several loaders of one page all read (who is signing in, their company) cannot be
// remembered on the Request; server.mjs runs every request inside `runInRequestScope` instead.
// Only reads are shared, and never with an action: in a POST the action may change what it read, and the loaders
// that run after it in the same request must see the change. Those loaders get a GET copy of the request (React
// Router makes one once the action is done), so the first read made for a GET request opens the sharing (the memo
// is empty then: nothing the action read was kept).
import { AsyncLocalStorage } from 'node:async_hooks'

type Scope = { reads: boolean; memo: Map<string, Promise<unknown>> }

const storage = new AsyncLocalStorage<Scope>()

export function runInRequestScope<T>(method: string, handle: () => T): T {
  return storage.run({ reads: method === 'GET' || method === 'HEAD', memo: new Map() }, handle)
}

/**
 * `compute()` once per page request and key: shared by a GET's loaders, and by the loaders that run after a POST's
 * action (`request`, the one a loader got, says which phase this is). An action, a script or a test computes on
 * every call.
 */
export function oncePerRequest<T>(key: string, compute: () => Promise<T>, request?: Request): Promise<T> {
  const scope = storage.getStore()
  if (scope && !scope.reads && (request?.method === 'GET' || request?.method === 'HEAD')) scope.reads = true
  if (!scope?.reads) return compute()
  let value = scope.memo.get(key) as Promise<T> | undefined
  if (!value) {
    value = compute()
    scope.memo.set(key, value)
  }
  return value
}

/** Records `value` as this request's shared answer for `key` (see oncePerRequest), when something read it anyway. */
export function rememberForRequest<T>(key: string, value: T) {
  const scope = storage.getStore()
  if (scope?.reads && !scope.memo.has(key)) scope.memo.set(key, Promise.resolve(value))
}

/** The key under which a request remembers a company's name and timezone (the session read fills it). */
export function companySummaryKey(companyId: string) {
  return `company ${companyId}`
}
