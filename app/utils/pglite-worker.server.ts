// The request thread's end of the embedded database's worker (server/pglite-worker.mjs; docs/decisions/
// 068-pglite-in-a-worker-thread.md): what Drizzle's PGlite driver and the app call on a PGlite — `query`, `exec`,
// interactive transactions, `listen` — sent to the worker and answered there, so a long statement no longer stops
// this thread's rendering and timers.
import { Worker } from 'node:worker_threads'
import type { QueryOptions, Results } from '@electric-sql/pglite'
import { logger } from './logger.server'
import { preparingStatements } from './prepared-statements.server'

/** What runs statements: the database itself, or one open transaction. */
export interface EmbeddedQueries {
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>
  exec(query: string): Promise<Results[]>
}

/** What the app and its tests use of an embedded database: a PGlite in this thread, or one in a worker. */
export interface EmbeddedClient extends EmbeddedQueries {
  transaction<T>(run: (tx: EmbeddedQueries) => Promise<T>): Promise<T>
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>
  close(): Promise<void>
}

type Request = { op: string; tx?: number } & Record<string, unknown>
type Answer = { id: number; result?: unknown; error?: Record<string, unknown> } | { listener: number; payload: string }

/**
 * The types whose text a query keeps (Drizzle's parsers keep dates, timestamps and intervals as PostgreSQL wrote
 * them). A parser is a function and cannot cross to the worker, so only parsers that keep the text are accepted.
 */
function rawTypes(options?: QueryOptions) {
  return Object.entries(options?.parsers ?? {}).map(([oid, parse]) => {
    if (parse('text kept', Number(oid)) !== 'text kept') {
      throw new Error(`A parser for type ${oid} cannot run in the embedded database's worker`)
    }
    return Number(oid)
  })
}

/** The worker's error as an Error with PostgreSQL's fields (`code`, `constraint`, `detail`…) where the app reads them. */
function toError(data: Record<string, unknown>) {
  return Object.assign(new Error(String(data.message)), data)
}

/** Opens PGlite (in `dataDir`, or in memory) in a worker running `script` (server/pglite-worker.mjs). */
export async function openPgliteWorker(
  script: string,
  dataDir?: string,
  /** Called once if the worker stops while the database is open (not at `close`): the server cannot go on without it. */
  onStop?: (error: Error) => void,
): Promise<EmbeddedClient> {
  const worker = new Worker(script, { workerData: { dataDir } })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  const listeners = new Map<number, (payload: string) => void>()
  let stopped: Error | undefined
  let last = 0

  worker.on('message', (answer: Answer) => {
    if ('listener' in answer) {
      listeners.get(answer.listener)?.(answer.payload)
      return
    }
    const waiting = pending.get(answer.id)
    pending.delete(answer.id)
    if (answer.error) waiting?.reject(toError(answer.error))
    else waiting?.resolve(answer.result)
  })
  let closing = false
  const stop = (error: Error) => {
    // Every statement fails from now on: loud, and the owner of the database (the server) is told, to stop.
    const unexpected = !closing && !stopped
    if (unexpected) logger.error({ err: error }, "the embedded database's worker stopped")
    stopped ??= error
    if (unexpected) onStop?.(error)
    for (const waiting of pending.values()) waiting.reject(stopped)
    pending.clear()
  }
  worker.on('error', stop)
  worker.on('exit', (code) => stop(new Error(`The embedded database's worker stopped (exit code ${code})`)))

  const send = <T>(request: Request) => {
    if (stopped) return Promise.reject(stopped)
    last += 1
    const id = last
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      worker.postMessage({ ...request, id })
    })
  }
  const queriesOn = (tx?: number): EmbeddedQueries => ({
    query: <T>(query: string, params: unknown[] = [], options?: QueryOptions) =>
      send<Results<T>>({
        op: 'query',
        tx,
        sql: query,
        params,
        rowMode: options?.rowMode,
        rawTypes: rawTypes(options),
        // A page that opted in (decision 073) has its statements prepared in the worker too.
        prepared: preparingStatements(),
      }),
    exec: (query: string) => send<Results[]>({ op: 'exec', tx, sql: query }),
  })

  // The worker answers request 0 once PGlite is open (or could not open: a damaged folder, say).
  await new Promise((resolve, reject) => pending.set(0, { resolve, reject }))
  return {
    ...queriesOn(),
    async transaction<T>(run: (tx: EmbeddedQueries) => Promise<T>) {
      last += 1
      const tx = last
      await send({ op: 'begin', tx })
      let value: T
      try {
        value = await run(queriesOn(tx))
      } catch (error) {
        // The caller's error is the one to see; a rollback fails only when the worker is gone, and then every
        // next statement says so.
        await send({ op: 'end', tx, commit: false }).catch(() => {})
        throw error
      }
      await send({ op: 'end', tx, commit: true })
      return value
    },
    async listen(channel: string, callback: (payload: string) => void) {
      last += 1
      const listener = last
      listeners.set(listener, callback)
      await send({ op: 'listen', channel, listener })
      return async () => {
        listeners.delete(listener)
        await send({ op: 'unlisten', listener })
      }
    },
    async dumpDataDir(compression?: 'none' | 'gzip' | 'auto') {
      return new Blob([await send<ArrayBuffer>({ op: 'dump', compression })])
    },
    async close() {
      closing = true
      await send({ op: 'close' })
      await worker.terminate()
    },
  }
}
