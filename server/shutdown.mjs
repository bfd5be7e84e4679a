// Graceful shutdown on SIGTERM/SIGINT: stop accepting connections, let the requests in flight finish (the user's
// save is answered, not cut off), end the live-update streams (they would otherwise hold the shutdown for ever),
// close idle keep-alive connections, then stop the app (background workers, database) and exit 0.

/** How long requests in flight may take to finish, leaving time to stop the app within 10 s. */
const DRAIN_TIMEOUT_MS = 8_000
/** Past this, something hangs (a worker, the database): exit anyway, with an error code the supervisor logs. */
const HARD_STOP_MS = 10_000

/**
 * @param {{
 *   log: (message: string) => void,
 *   endStreams: () => void,
 *   stopApp: () => Promise<void>,
 * }} options
 */
export function createShutdown({ log, endStreams, stopApp }) {
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
    setTimeout(() => {
      log(`shutdown did not finish within ${HARD_STOP_MS / 1000} s: exiting now`)
      process.exit(1)
    }, HARD_STOP_MS).unref()
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
        timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS)
      }),
    ])
    clearTimeout(timer)
    if (!drained) {
      log(`${inFlight.size} request(s) still running after ${DRAIN_TIMEOUT_MS / 1000} s: closing their connections`)
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
