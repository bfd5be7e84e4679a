import { PassThrough } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import type { EntryContext, HandleErrorFunction } from 'react-router'
import { isRouteErrorResponse, ServerRouter } from 'react-router'
import { tagOfflineOwner } from './auth/offline-owner.server'
import { checkoutOrigins, stripeConfig } from './billing/stripe-config.server'
import { startApp } from './runtime/startup.server'
import {
  answerDatabaseOutage,
  databaseUnavailableResponse,
  hitDatabaseOutage,
  noteDatabaseOutage,
} from './utils/database-unavailable.server'
import { logger } from './utils/logger.server'
import { NonceProvider } from './utils/nonce'
import { pageNonce } from './utils/page-nonce.server'
import { runInRequestScope } from './utils/request-scope.server'

export { closeLiveStreams } from './auth/live-stream.server'
export { DEMO_LOGINS, DEMO_PASSWORD } from './demo/seed.server'
export { startApp, stopApp } from './runtime/startup.server'
export { env } from './utils/env.server'

// In development the Vite server loads this module on the first request; start-up
// (migrations, seed, email worker) must finish before any loader touches the database.
await startApp()

export const streamTimeout = 5_000

/**
 * How server.mjs (server/http-adapter.mjs) has React Router answer each request: inside the request's scope (what
 * several loaders of one page read is read once), and with the 503 page or message when a loader or action hit a
 * database outage — whether the request was a document, a `.data` request or a resource route. Answers under /app
 * name the person signed in, for the phone's service worker (auth/offline-owner.server.ts, decision 030).
 */
export function serveRequest(request: Request, handle: (request: Request) => Promise<Response>) {
  return runInRequestScope(request.method, async () =>
    answerDatabaseOutage(request, await tagOfflineOwner(request, await handle(request))),
  )
}

/** Every error React Router caught in a loader, action or render passes here. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  // The visitor left, or their body was refused (413): nothing went wrong on our side.
  if (request.signal.aborted || noteDatabaseOutage(error, request)) return
  const cause = isRouteErrorResponse(error) && 'error' in error && error.error ? error.error : error
  const url = new URL(request.url)
  logger.error(
    { err: cause, requestId: request.headers.get('x-request-id'), method: request.method, path: url.pathname },
    'request failed',
  )
}

/** A CSP that allows only our own scripts and styles plus the inline ones marked with the nonce. */
function contentSecurityPolicy(nonce: string) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // The installable staff app: its manifest and its service worker (decision 019), both our own files.
    "manifest-src 'self'",
    "worker-src 'self'",
    // Card payments redirect a posted form to Stripe's Checkout page (app/routes/portal/invoice-pay.ts).
    ['form-action', "'self'", ...checkoutOrigins(stripeConfig())].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ')
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // A loader hit a database outage: the 503 page replaces the error page, so do not render that first.
  if (responseStatusCode >= 500 && hitDatabaseOutage(request)) return databaseUnavailableResponse(request)
  const nonce = pageNonce()
  if (process.env.NODE_ENV === 'production') {
    responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce))
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // Pages have no Suspense boundaries (loaders finish before rendering), so streaming would send
        // nothing sooner: the document goes out as one buffer, which is one compression pass and one
        // socket write instead of dozens of 2 KB chunks through every layer (about a fifth of a dashboard's
        // server time under load; decision 009).
        onAllReady() {
          shellRendered = true
          const chunks: Buffer[] = []
          const body = new PassThrough()
          body.on('data', (chunk: Buffer) => chunks.push(chunk))
          body.on('error', reject)
          body.on('end', () => {
            clearTimeout(timeout)
            responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
            resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }))
          })
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    const timeout = setTimeout(abort, streamTimeout + 1000)
  })
}
