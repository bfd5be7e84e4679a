// A database outage (PostgreSQL restarting, failing over, refusing connections) is not a bug in the request and
// not the visitor's fault: it is answered 503 with a plain "try again in a moment", in one place. Routes that turn
// their own failures into a message let an outage through (`throwIfDatabaseUnavailable`); React Router hands
// every error it catches to entry.server.tsx's `handleError`, which marks the request (`noteDatabaseOutage`), and
// entry.server.tsx's `serveRequest` then answers the document, `.data` or resource request with the 503
// (`answerDatabaseOutage`).
import { randomBytes } from 'node:crypto'
import { DATABASE_UNAVAILABLE_MESSAGE } from './database-unavailable'
import { logger } from './logger.server'

export { DATABASE_UNAVAILABLE_MESSAGE }

/** Seconds a client is asked to wait (a PostgreSQL restart takes a few). */
export const RETRY_AFTER_SECONDS = 5

/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server shutting down or
 * starting up (57P01–57P03), too many connections, and a database closed to connections (55000, as
 * `ALLOW_CONNECTIONS false` or a restart in progress answer).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** What node-postgres and pg-pool say when a connection died or could not be made in time. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /not queryable/,
  /timeout exceeded when trying to connect/,
  /is not currently accepting connections/,
  /^Cannot use a pool after calling end/,
  /^The database is not open yet/,
]

function describesOutage(error: { code?: unknown; message?: unknown }) {
  const code = typeof error.code === 'string' ? error.code : ''
  const message = typeof error.message === 'string' ? error.message : ''
  if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || NETWORK_CODES.has(code)) return true
  if (code === '55000' && /accepting connections/.test(message)) return true
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))
}

/**
 * Whether `error` means the database could not be reached (rather than a query that failed on its own). Drizzle
 * wraps the driver's error (`cause`), and a connection refused on every address is an AggregateError.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false
  const candidate = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  if (describesOutage(candidate)) return true
  if (isDatabaseUnavailable(candidate.cause, depth + 1)) return true
  return Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))
}

/** For a `catch` that turns failures into a message for the form: an outage goes on to the 503 instead. */
export function throwIfDatabaseUnavailable(error: unknown) {
  if (isDatabaseUnavailable(error)) throw error
}

const outageRequests = new WeakSet<Request>()

/**
 * For entry.server.tsx's `handleError`: when `error` is an outage, remembers that answering `request` hit it, logs
 * one warning (not a stack trace: nothing is broken in the code) and returns true.
 */
export function noteDatabaseOutage(error: unknown, request: Request) {
  if (!isDatabaseUnavailable(error)) return false
  outageRequests.add(request)
  logger.warn(
    { method: request.method, path: new URL(request.url).pathname, err: String(error) },
    'database unavailable: answering 503',
  )
  return true
}

/** Whether answering `request` hit a database outage (noted by `noteDatabaseOutage`). */
export function hitDatabaseOutage(request: Request) {
  return outageRequests.has(request)
}

/** The response to send: React Router's, or the 503 when it is an error caused by a database outage. */
export function answerDatabaseOutage(request: Request, response: Response) {
  return response.status >= 500 && hitDatabaseOutage(request) ? databaseUnavailableResponse(request) : response
}

/** A self-contained page (no scripts to hydrate: the app's would need the database too), with its own CSP. */
function outagePage(nonce: string) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Briefly unavailable · Pool Bud</title>
<style nonce="${nonce}">body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:36rem;margin:0 auto;min-height:100vh;display:flex;flex-direction:column;justify-content:center;
align-items:center;gap:1rem;padding:0 1.5rem;text-align:center}p.code{color:#0e7490;font-weight:600;
text-transform:uppercase;letter-spacing:.05em;font-size:.875rem}p{color:#475569}
a{background:#0e7490;color:#fff;padding:.6rem 1.2rem;border-radius:.5rem;text-decoration:none;font-weight:600}</style>
</head><body><main><p class="code">Error 503</p><h1>Pool Bud is briefly unavailable</h1>
<p>${DATABASE_UNAVAILABLE_MESSAGE}</p><a href="">Try again</a></main></body></html>`
}

/**
 * The 503 for `request`: a page for a browser's document request; plain text for React Router's `.data` requests
 * (its client turns a 503 without its own header into an error response its boundaries show) and for the rest.
 */
export function databaseUnavailableResponse(request: Request) {
  const headers = { 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_SECONDS) }
  const isDocument =
    !new URL(request.url).pathname.endsWith('.data') && (request.headers.get('Accept') ?? '').includes('text/html')
  if (!isDocument) {
    return new Response(DATABASE_UNAVAILABLE_MESSAGE, {
      status: 503,
      headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const nonce = randomBytes(16).toString('base64')
  return new Response(outagePage(nonce), {
    status: 503,
    headers: {
      ...headers,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
    },
  })
}
