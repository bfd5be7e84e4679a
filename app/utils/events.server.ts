// Live updates: a change is announced with Postgres NOTIFY, so every app instance on the
// same database hears it (PGlite delivers it in-process). Each instance fans the event out
// to its open Server-Sent Events streams of that company.
import { EventEmitter } from 'node:events'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { currentDatabaseHandle, db } from './db.server'
import { logger } from './logger.server'

export const EVENTS_CHANNEL = 'pool_bud_events'

export type CompanyEvent = {
  companyId: string
  type: 'job.created' | 'job.updated' | 'job.completed' | 'reading.saved' | 'photo.saved'
  jobId?: string
}

declare global {
  var __poolBudEvents: { emitter: EventEmitter; stop: () => Promise<void> } | undefined
}

/** Announces a change to everyone watching the company (never throws: a missed refresh is not a failed save). */
export async function publishCompanyEvent(event: CompanyEvent) {
  try {
    await db().execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`)
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

/** Starts listening on the database for this process (once); returns the shared emitter. */
async function listener() {
  if (globalThis.__poolBudEvents) return globalThis.__poolBudEvents.emitter
  const handle = currentDatabaseHandle()
  if (!handle) throw new Error('database not open')
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  let stop: () => Promise<void>
  if (handle.kind === 'pglite') {
    const unlisten = await handle.client.listen(EVENTS_CHANNEL, (payload) => dispatch(emitter, payload))
    stop = () => unlisten()
  } else {
    // A dedicated connection: LISTEN holds it for as long as the process runs.
    const options = handle.client.options
    const client = new pg.Client({ connectionString: options.connectionString })
    await client.connect()
    client.on('notification', (message) => message.payload && dispatch(emitter, message.payload))
    client.on('error', (error) => logger.error({ error }, 'live update connection failed'))
    await client.query(`listen ${EVENTS_CHANNEL}`)
    stop = () => client.end()
  }
  globalThis.__poolBudEvents = { emitter, stop }
  return emitter
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
  await events?.stop()
}
