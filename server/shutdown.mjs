// Graceful shutdown on SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish (the user's
// save is answered, not cut off), end the live-update streams (they would otherwise hold the shutdown for ever),
// close idle keep-alive connections, then stop the app (background workers, database) and exit 0.

/** How long requests in flight may take to finish; the whole shutdown stays within a supervisor's 10 s. */
export const DRAIN_TIMEOUT_MS = 8_000

/**
 * @param {{
 *   log: (message: string) => void,
 *   endStreams: () => void,
 *   stopApp: () => Promise<void>,
 *   drainTimeoutMs?: number,
 * }} options
 */
export function createShutdown({ log, endStreams, stopApp, drainTimeoutMs = DRAIN_TIMEOUT_MS }) {
  /** @type {import('node:http').Server | undefined} */
  let server
  let stopping = false
  /** Responses still being produced. */
  const inFlight = new Set()

  /** @type {import('express').RequestHandler} */
  function middleware(_req, res, next) {
    // Node keeps a keep-alive connection open after its response, so while stopping every response closes its own.
    if (stopping) res.setHeader('Connection', 'close')
    inFlight.add(res)
    res.on('close', () => {
      inFlight.delete(res)
      // The connection may be idle now (a stream that ended was sent long before we began stopping).
      if (stopping) setImmediate(() => server?.closeIdleConnections())
    })
    next()
  }

  /** @param {string} signal */
  async function shutdown(signal) {
    if (stopping || !server) return
    stopping = true
    log(`${signal} received: finishing ${inFlight.size} request(s) in flight, then shutting down`)
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close')
    const httpServer = server
    // No new connections from here on; the callback runs once the last open one has closed.
    const closed = new Promise((resolve) => httpServer.close(() => resolve(true)))
    httpServer.closeIdleConnections()
    endStreams()
    let timer
    const drained = await Promise.race([
      closed,
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(false), drainTimeoutMs)
      }),
    ])
    clearTimeout(timer)
    if (!drained) {
      log(`${inFlight.size} request(s) still running after ${drainTimeoutMs / 1000} s: closing their connections`)
      httpServer.closeAllConnections()
    }
    try {
      await stopApp()
    } catch (error) {
      console.error(error)
      process.exit(1)
    }
    log('shut down cleanly')
    process.exit(0)
  }

  return {
    middleware,
    /** @param {import('node:http').Server} httpServer */
    attach(httpServer) {
      server = httpServer
      process.on('SIGTERM', () => shutdown('SIGTERM'))
      process.on('SIGINT', () => shutdown('SIGINT'))
    },
  }
}
