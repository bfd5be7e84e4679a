// Node's request/response ⇄ the Fetch API Request/Response React Router speaks. Both servers use it (production
// server.mjs and `npm run dev`, see server/app.mjs), so what it enforces holds everywhere:
// - the request body is capped by the bytes actually read, whatever Content-Length says (or does not say): past
//   the cap the server stops reading, answers 413 and closes the connection;
// - a response that does not set its own Cache-Control gets `no-store`: pages, `.data` and resource responses
//   depend on who is signed in, and a browser or proxy must not keep them;
// - each request goes through the app's `serveRequest` (entry.server.tsx), and its signal aborts when the client
//   goes away;
// - Server-Sent Events are flushed as they are written.
import { createRequestHandler as createReactRouterHandler } from 'react-router'

/** Form posts (and anything else) are small. */
export const MAX_BODY_BYTES = 1024 * 1024
/** Photo uploads: the route refuses photos over 15 MB itself (with its own message); this is the outer bound. */
export const MAX_UPLOAD_BYTES = 17 * 1024 * 1024
const PHOTO_UPLOAD_PATH = /^\/app\/visits\/[^/]+\/photos\/?$/
/**
 * Settings, whose "Company logo" form posts a file of at most 1 MB (the page answers a larger one with its own words);
 * this bound leaves room for the multipart envelope. The page's script posts to `/app/settings.data`.
 */
export const MAX_SETTINGS_BYTES = 2 * 1024 * 1024
const SETTINGS_PATH = /^\/app\/settings(\.data)?\/?$/
/**
 * Customer spreadsheets: the import page reads at most 10 MB of the file itself and answers a larger one with plain
 * words ("Split it into files under 10 MB"); this bound lets a 50 MB export reach the page for that answer instead
 * of a bare 413. The body is still read only as far as the page reads it.
 */
export const MAX_IMPORT_BYTES = 51 * 1024 * 1024
const CUSTOMER_IMPORT_PATH = /^\/app\/customers\/import\/?$/

const TOO_LARGE_MESSAGE = 'Request too large.'

/**
 * A connection closed with part of its body unread is not closed at once: a client still sending would otherwise
 * get a reset before it reads the response. It gets this long to read it while we no longer read from it.
 */
const CLOSE_LINGER_MS = 1_000

/** How many body bytes a request to `pathname` may send. */
function bodyLimitFor(pathname) {
  if (PHOTO_UPLOAD_PATH.test(pathname)) return MAX_UPLOAD_BYTES
  if (CUSTOMER_IMPORT_PATH.test(pathname)) return MAX_IMPORT_BYTES
  if (SETTINGS_PATH.test(pathname)) return MAX_SETTINGS_BYTES
  return MAX_BODY_BYTES
}

/** The error a capped body's reader sees once the cap is passed (the 413 has been sent by then). */
class RequestTooLargeError extends Error {
  name = 'RequestTooLargeError'
  constructor() {
    super(TOO_LARGE_MESSAGE)
  }
}

/**
 * Marks the response as the connection's last, for a request whose body was not read to the end (it cannot be
 * skipped without reading it). Node closes such a connection with destroySoon() once the response is written: we
 * send our FIN then, but leave the socket open (and unread) a moment, so a client still sending reads the response
 * before any reset.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function closeAfterResponse(req, res) {
  req.pause()
  res.setHeader('Connection', 'close')
  req.socket.destroySoon = function lingerThenDestroy() {
    this.end()
    setTimeout(() => this.destroy(), CLOSE_LINGER_MS).unref()
  }
}

/** A warning in the same JSON lines as the app's pino logger writes. */
function logWarning(fields) {
  console.warn(JSON.stringify({ level: 40, time: Date.now(), ...fields }))
}

/**
 * Answers 413 and closes the connection without reading any more of the body; logs one warning.
 * @param {import('node:http').IncomingMessage & { originalUrl?: string }} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} limit
 * @param {(fields: Record<string, unknown>) => void} log
 */
function refuseTooLarge(req, res, limit, log) {
  const path = (req.originalUrl ?? req.url ?? '/').split('?')[0]
  log({ method: req.method, path, limit, msg: 'request body too large: answered 413' })
  if (res.headersSent) {
    res.destroy()
    return
  }
  closeAfterResponse(req, res)
  res.statusCode = 413
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.setHeader('Cache-Control', 'no-store')
  res.end(TOO_LARGE_MESSAGE)
}

/**
 * The body of `req` as a stream that is read only as fast as the app reads it, and errors (after `onOverflow`)
 * as soon as more than `limit` bytes arrived: nothing past the limit is ever read.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @param {() => void} onOverflow
 * @returns {ReadableStream<Uint8Array>}
 */
function cappedBody(req, limit, onOverflow) {
  let received = 0
  let settled = false
  /** @type {() => void} */
  let stop = () => {}
  return new ReadableStream(
    {
      start(controller) {
        const fail = (error) => {
          if (settled) return
          settled = true
          stop()
          controller.error(error)
        }
        const onData = (chunk) => {
          if (settled) return
          received += chunk.byteLength
          if (received > limit) {
            onOverflow()
            fail(new RequestTooLargeError())
            return
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
          if ((controller.desiredSize ?? 0) <= 0) req.pause()
        }
        const onEnd = () => {
          if (settled) return
          settled = true
          stop()
          controller.close()
        }
        // A client that goes away mid-upload (a phone losing signal) must not look like a complete body.
        const onClose = () => fail(new Error('The connection closed before the request body was complete.'))
        stop = () => {
          req.off('data', onData)
          req.off('end', onEnd)
          req.off('error', fail)
          req.off('close', onClose)
          req.pause()
        }
        req.on('data', onData)
        req.on('end', onEnd)
        req.on('error', fail)
        req.on('close', onClose)
      },
      pull() {
        if (!settled) req.resume()
      },
      cancel() {
        // The app has read what it wanted; the rest stays unread (the response then closes the connection).
        settled = true
        stop()
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
}

/** @param {import('node:http').IncomingHttpHeaders} nodeHeaders */
function fetchHeaders(nodeHeaders) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(nodeHeaders)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  return headers
}

/** Resolves when `res` can take more data, or is gone. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve(undefined)
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * Writes a Fetch Response to Node's response, chunk by chunk with back-pressure (event streams are flushed as they
 * go: compression skips them, see server/app.mjs). A body that is one buffer goes through `wholeBody` first (its
 * compression, server/whole-body-compression.mjs), one in several chunks through `beforeStreaming` (the compression
 * middleware's stream).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Response} response
 * @param {{ wholeBody?: WholeBody, beforeStreaming?: BeforeStreaming }} hooks
 */
async function sendResponse(req, res, response, { wholeBody, beforeStreaming }) {
  if (res.writableEnded || res.destroyed) {
    // Already answered (413) or the client left: nobody reads this response.
    await response.body?.cancel().catch(() => {})
    return
  }
  res.statusCode = response.status
  if (response.statusText) res.statusMessage = response.statusText
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
  if (!response.headers.has('Cache-Control')) res.setHeader('Cache-Control', 'no-store')
  // A body the app did not read to the end is not read any further: the connection closes after this response.
  if (!req.complete) closeAfterResponse(req, res)

  if (!response.body) {
    res.end()
    return
  }
  const eventStream = /^text\/event-stream/i.test(response.headers.get('Content-Type') ?? '')
  if (eventStream) res.flushHeaders()
  const reader = response.body.getReader()
  const cancel = () => {
    if (!res.writableFinished) reader.cancel().catch(() => {})
  }
  res.on('close', cancel)
  try {
    let chunk = await reader.read()
    while (!chunk.done && !res.destroyed) {
      // One chunk is held back (never an event stream's: each message goes out as it comes), so a body that is one
      // buffer — every rendered page (entry.server.tsx) — goes out in one write with its length, instead of a
      // chunked body whose terminating chunk is a second write (decision 065).
      const next = eventStream ? undefined : await reader.read()
      if (next?.done) {
        const body = wholeBody && !res.headersSent ? await wholeBody(req, res, chunk.value) : chunk.value
        if (res.destroyed) break
        if (!res.headersSent && (body !== chunk.value || !res.hasHeader('Content-Length')))
          res.setHeader('Content-Length', body.byteLength)
        res.end(body)
        return
      }
      if (beforeStreaming && !eventStream && !res.headersSent) await beforeStreaming(req, res)
      if (!res.write(chunk.value)) await drained(res)
      chunk = next ?? (await reader.read())
    }
    if (!res.destroyed) res.end()
  } catch (error) {
    // Headers are out: the only honest way to report a broken body is to cut the connection.
    res.destroy(error instanceof Error ? error : undefined)
  } finally {
    res.off('close', cancel)
  }
}

/**
 * The Fetch Request for `req`, with the app's public origin (the cross-origin guard has already refused any other
 * Origin, and a Host header never decides what URL the app sees), a capped body and a signal that aborts when the
 * client disconnects or the body is refused.
 * @param {import('node:http').IncomingMessage & { originalUrl?: string }} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} origin
 * @param {(fields: Record<string, unknown>) => void} log
 */
function createFetchRequest(req, res, origin, log) {
  const path = req.originalUrl ?? req.url ?? '/'
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const init = { method: req.method, headers: fetchHeaders(req.headers), signal: controller.signal }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const limit = bodyLimitFor(new URL(path, 'http://local').pathname)
    init.body = cappedBody(req, limit, () => {
      refuseTooLarge(req, res, limit, log)
      // The app's reader fails now; an aborted request is not logged as an error.
      controller.abort()
    })
    init.duplex = 'half'
  }
  return new Request(`${origin}${path.startsWith('/') ? path : `/${path}`}`, init)
}

/**
 * What becomes of a body that is one buffer before it is sent: the bytes to send instead (it may set headers).
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body: Uint8Array)
 *   => Promise<Uint8Array>} WholeBody
 */
/**
 * What is done to a response whose body comes in several chunks, before its first is written (the compression
 * middleware wraps it).
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>}
 *   BeforeStreaming
 */

/**
 * Express/connect middleware handing requests to React Router (`createHandler` stands in for it in tests).
 * @param {{
 *   getBuild: () => Promise<import('react-router').ServerBuild> | import('react-router').ServerBuild,
 *   origin: string,
 *   mode?: string,
 *   createHandler?: (build: import('react-router').ServerBuild) => (request: Request) => Promise<Response>,
 *   log?: (fields: Record<string, unknown>) => void,
 *   wholeBody?: WholeBody,
 *   beforeStreaming?: BeforeStreaming,
 * }} options
 */
export function createRequestHandler({
  getBuild,
  origin,
  mode = process.env.NODE_ENV,
  createHandler = (build) => createReactRouterHandler(build, mode),
  log = logWarning,
  wholeBody,
  beforeStreaming,
}) {
  /** One React Router handler per build (the dev server hands a new build after each edit). */
  const handlers = new WeakMap()
  return async function handleRequest(req, res, next) {
    try {
      const pathname = new URL(req.originalUrl ?? req.url ?? '/', 'http://local').pathname
      // A declared length over the cap is refused before a byte of the body is read.
      const limit = bodyLimitFor(pathname)
      if (Number(req.headers['content-length'] ?? 0) > limit) return refuseTooLarge(req, res, limit, log)
      const build = await getBuild()
      let handler = handlers.get(build)
      if (!handler) {
        handler = createHandler(build)
        handlers.set(build, handler)
      }
      const request = createFetchRequest(req, res, origin, log)
      // The app's own wrapper (entry.server.tsx): its request scope, and a database outage answered 503.
      const serve = build.entry.module.serveRequest ?? ((request, handle) => handle(request))
      await sendResponse(req, res, await serve(request, handler), { wholeBody, beforeStreaming })
    } catch (error) {
      next(error)
    }
  }
}
