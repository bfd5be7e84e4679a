// Requests as a browser of a signed-in user (tests/helpers/session.ts) would send them, and a route's loader or
// action called with one, so route tests read as what a person does rather than how a Request is put together.
import type { MatcherState } from 'vitest'

/** The origin every test request is sent to: the APP_URL of tests/setup/test-env.ts. */
export const TEST_ORIGIN = 'http://localhost:3999'

/** A form's fields: a record, or pairs when a name repeats (checkboxes, one row per item). */
export type FormFields = Record<string, string> | [string, string][]

/** The header a browser sends with a form posted from the app's own pages (some actions check it). */
export const SAME_ORIGIN = { origin: TEST_ORIGIN }

/** A GET request to `path`, as the user holding `cookie` (or anonymous). */
export function pageRequest(path: string, cookie?: string) {
  return new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} })
}

/** A form POSTed to `path`, as the user holding `cookie` (or anonymous), with any further headers. */
export function formRequest(path: string, fields: FormFields, cookie?: string, headers: Record<string, string> = {}) {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  })
}

/** A JSON body sent to `path` (POST unless told), as the user holding `cookie` (or anonymous). */
export function jsonRequest(
  path: string,
  body: unknown,
  {
    cookie,
    method = 'POST',
    headers = {},
  }: { cookie?: string; method?: string; headers?: Record<string, string> } = {},
) {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
}

/** What React Router hands a loader or action: the request and the route's URL parameters. */
export function routeArgs(request: Request, params: Record<string, string> = {}) {
  return { request, params, context: {} } as never
}

/** Runs a loader or action and returns what it threw or returned: a Response, React Router data, or a value. */
export async function settle<T>(promise: Promise<T> | T) {
  try {
    return { returned: await promise, thrown: undefined }
  } catch (thrown) {
    return { returned: undefined, thrown }
  }
}

/** What a loader or action answered, whether it returned it or threw it (a redirect, a 404). */
export async function answerOf(promise: Promise<unknown> | unknown) {
  const { returned, thrown } = await settle(promise)
  return thrown ?? returned
}

/** The HTTP status of an answer: that of React Router's `data(…, { status })`, or a Response's. */
export function statusOf(answer: unknown): number | undefined {
  return (answer as { init?: { status?: number } | null })?.init?.status ?? (answer as Response)?.status
}

/** What `location` may be given as: the exact path, a pattern, or an asymmetric matcher (`expect.stringMatching`). */
type ExpectedLocation = string | RegExp | { asymmetricMatch(actual: unknown): boolean }

interface RedirectMatchers<R = unknown> {
  /** A redirect (a 3xx Response, returned or thrown) to `location` when given. */
  toHaveRedirect(location?: ExpectedLocation): R
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: must repeat Vitest's own declaration, `any` default included.
  interface Matchers<T = any> extends RedirectMatchers<T> {}
}

/** `expect(answer).toHaveRedirect(location?)`, registered for every test file in tests/setup/test-env.ts. */
export function toHaveRedirect(this: MatcherState, received: unknown, location?: ExpectedLocation) {
  const isRedirect = received instanceof Response && received.status >= 300 && received.status < 400
  const actual = received instanceof Response ? received.headers.get('Location') : null
  const locationMatches =
    location === undefined || (location instanceof RegExp ? location.test(actual ?? '') : this.equals(actual, location))
  const what = location === undefined ? 'a redirect' : `a redirect to ${String(location)}`
  const got =
    received instanceof Response
      ? `a ${received.status} response${actual === null ? '' : ` to ${actual}`}`
      : this.utils.printReceived(received)
  return {
    pass: isRedirect && locationMatches,
    message: () => `expected ${this.isNot ? 'no ' : ''}${what}, got ${got}`,
  }
}
