// Live updates: a change is announced with Postgres NOTIFY, so every app instance on the
// same database hears it (PGlite delivers it in-process). Each instance fans the event out
// to its open Server-Sent Events streams of that company.
import { EventEmitter } from 'node:events'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { currentDatabaseHandle, type Database, db } from './db.server'
import { logger } from './logger.server'

export const EVENTS_CHANNEL = 'pool_bud_events'

export type CompanyEvent = {
  companyId: string
  type: 'visit.created' | 'visit.updated' | 'visit.completed' | 'reading.saved' | 'photo.saved'
  visitId?: string
}

type Listening = { emitter: EventEmitter; stop: () => Promise<void> }

declare global {
  /** The process's one listener, cached as a promise before anything is awaited (see `listener`). */
  var __poolBudEvents: { ready: Promise<Listening> } | undefined
}

/**
 * Announces a change to everyone watching the company (never throws: a missed refresh is not a failed save). Given
 * the transaction of the change, PostgreSQL sends it when that commits, and not at all if it rolls back.
 */
export async function publishCompanyEvent(event: CompanyEvent, executor: Pick<Database, 'execute'> = db()) {
  try {
    await executor.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`)
  } catch (error) {
    logger.warn({ error, event }, 'could not publish a live update')
  }
}

function dispatch(emitter: EventEmitter, payload: string) {
  try {
    const event = JSON.parse(payload) as CompanyEvent
    if (typeof event.companyId === 'string') emitter.emit(event.companyId, event)
  } catch {
    logger.warn({ payload }, 'ignored a malformed live update')
  }
}

/** How long to wait before listening again after the connection dropped (say, a database restart). */
const RELISTEN_DELAY_MS = 1_000

/**
 * LISTEN on a dedicated PostgreSQL connection (it holds it for as long as the process runs).
 * When the connection drops — a database restart, a failover — it connects again, and tells
 * every open stream to refresh, since changes made meanwhile were not announced.
 */
async function listenOnPostgres(connectionString: string, emitter: EventEmitter) {
  let client: pg.Client | undefined
  let stopped = false
  let retry: NodeJS.Timeout | undefined
  /** At most one pending attempt, however many ways the connection reports its end. */
  const scheduleRetry = () => {
    if (stopped || retry) return
    retry = setTimeout(() => {
      retry = undefined
      reconnect()
    }, RELISTEN_DELAY_MS)
  }

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString })
    next.on('notification', (message) => message.payload && dispatch(emitter, message.payload))
    next.on('error', (error) => logger.warn({ err: error }, 'live update connection lost; listening again shortly'))
    next.on('end', () => {
      if (stopped || client !== next) return
      client = undefined
      scheduleRetry()
    })
    client = next
    await next.connect()
    await next.query(`listen ${EVENTS_CHANNEL}`)
  }

  const reconnect = () => {
    connect().then(
      () => {
        logger.info('live updates listening again')
        for (const companyId of emitter.eventNames()) {
          if (typeof companyId === 'string') emitter.emit(companyId, { companyId, type: 'visit.updated' })
        }
      },
      (error) => {
        logger.warn({ err: error }, 'could not listen for live updates yet; retrying')
        const failed = client
        client = undefined
        // The connection already failed: closing it may fail too, and the retry opens a new one either way.
        failed?.end().catch(() => {})
        scheduleRetry()
      },
    )
  }

  try {
    await connect()
  } catch (error) {
    // Connected but could not LISTEN, or never connected: leave no connection behind.
    stopped = true
    // The error that matters is `error`, rethrown below; a failure to close the broken connection adds nothing.
    await client?.end().catch(() => {})
    throw error
  }
  return async () => {
    stopped = true
    clearTimeout(retry)
    await client?.end()
  }
}

async function startListening(): Promise<Listening> {
  const handle = currentDatabaseHandle()
  if (!handle) throw new Error('database not open')
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  if (handle.kind === 'pglite') {
    const unlisten = await handle.client.listen(EVENTS_CHANNEL, (payload) => dispatch(emitter, payload))
    return { emitter, stop: () => unlisten() }
  }
  return { emitter, stop: await listenOnPostgres(handle.client.options.connectionString as string, emitter) }
}

/**
 * Starts listening on the database for this process (once); returns the shared emitter. The pending start is
 * cached at once, so streams opened together all wait for the same LISTEN connection instead of each opening
 * their own; a start that failed (the database was down) is forgotten, and the next stream tries again.
 */
function listener(): Promise<EventEmitter> {
  if (!globalThis.__poolBudEvents) {
    const events = { ready: startListening() }
    globalThis.__poolBudEvents = events
    events.ready.catch(() => {
      if (globalThis.__poolBudEvents === events) globalThis.__poolBudEvents = undefined
    })
  }
  return globalThis.__poolBudEvents.ready.then((listening) => listening.emitter)
}

/** Calls `onEvent` for every change of `companyId` until the returned function is called. */
export async function subscribeToCompany(companyId: string, onEvent: (event: CompanyEvent) => void) {
  const emitter = await listener()
  emitter.on(companyId, onEvent)
  return () => {
    emitter.off(companyId, onEvent)
  }
}

/** Stops listening (shutdown and tests). */
export async function stopEvents() {
  const events = globalThis.__poolBudEvents
  globalThis.__poolBudEvents = undefined
  const listening = await events?.ready.catch(() => undefined)
  await listening?.stop()
}
