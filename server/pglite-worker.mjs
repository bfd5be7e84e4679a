// The embedded database's own thread (docs/decisions/068-pglite-in-a-worker-thread.md). PGlite is PostgreSQL compiled
// to WebAssembly, and each statement runs to its end on the thread that sent it: in the server's request thread a
// long one (a report, the statistics task's VACUUM) stopped every other request, rendering included. Here, in a
// worker_threads Worker, it runs beside them. app/utils/pglite-worker.server.ts is the request thread's end: it sends
// numbered requests, and each is answered by its number.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { PGLITE_OPTIONS } from './pglite-options.mjs'
import { createStatements } from './pglite-statements.mjs'

if (!parentPort) throw new Error('server/pglite-worker.mjs runs as a worker thread (app/utils/pglite-worker.server.ts)')
const port = parentPort

/**
 * What a thrown error says, as plain data: an Error crosses threads with its message only, and the app reads
 * PostgreSQL's fields (`code` 23505, `constraint`…). Objects and functions (the query's parsers) stay behind.
 */
function errorData(error) {
  const fields = typeof error === 'object' && error !== null ? Object.entries(error) : []
  const plain = fields.filter(([, value]) => value === null || !['object', 'function', 'symbol'].includes(typeof value))
  return {
    ...Object.fromEntries(plain),
    name: error?.name ?? 'Error',
    message: error?.message ?? String(error),
  }
}

/** A parser cannot cross threads: the request thread names the types whose text is kept as is (Drizzle's parsers). */
function queryOptions(request) {
  const keepText = (value) => value
  return { rowMode: request.rowMode, parsers: Object.fromEntries(request.rawTypes.map((oid) => [oid, keepText])) }
}

let db
try {
  db = await PGlite.create({ ...PGLITE_OPTIONS, dataDir: workerData.dataDir })
} catch (error) {
  port.postMessage({ id: 0, error: errorData(error) })
  throw error
}

const statements = createStatements(db)

/** Open transactions by their number: PGlite's own `transaction`, held open until the request thread ends it. */
const transactions = new Map()
/** `listen`s by their number, to their unlisten. */
const listeners = new Map()

function connection(request) {
  if (request.tx === undefined) return db
  const open = transactions.get(request.tx)
  if (!open) throw new Error(`Transaction ${request.tx} is over`)
  return open.tx
}

/**
 * Opens a transaction the way PGlite does in-process: it waits for the single connection, so while it is open every
 * other statement waits, and it commits or rolls back when the request thread says.
 */
function begin(id) {
  return new Promise((opened, failed) => {
    const open = {}
    open.done = db.transaction(
      (tx) =>
        new Promise((commit, rollback) => {
          Object.assign(open, { tx, commit, rollback })
          transactions.set(id, open)
          opened(null)
        }),
    )
    // Before it opened (BEGIN failed) this rejects the request; after, `end` awaits `done` itself.
    open.done.catch(failed)
  })
}

async function end(request) {
  const open = transactions.get(request.tx)
  if (!open) throw new Error(`Transaction ${request.tx} is over`)
  transactions.delete(request.tx)
  if (request.commit) {
    open.commit(null)
    await open.done
    return null
  }
  open.rollback(new Error('rolled back'))
  await open.done.catch(() => {})
  return null
}

async function answer(request) {
  switch (request.op) {
    case 'query': {
      // The transaction's own connection, or (outside one) a statement that waits for open transactions as PGlite's
      // `query` does.
      const inTransaction = request.tx !== undefined
      if (inTransaction) connection(request)
      return statements.run(request.sql, request.params, queryOptions(request), {
        inTransaction,
        prepared: request.prepared === true,
      })
    }
    case 'exec':
      return connection(request).exec(request.sql)
    case 'begin':
      return begin(request.tx)
    case 'end':
      return end(request)
    case 'listen': {
      const notify = (payload) => port.postMessage({ listener: request.listener, payload })
      listeners.set(request.listener, await db.listen(request.channel, notify))
      return null
    }
    case 'unlisten': {
      const unlisten = listeners.get(request.listener)
      listeners.delete(request.listener)
      await unlisten?.()
      return null
    }
    case 'dump':
      return (await db.dumpDataDir(request.compression)).arrayBuffer()
    case 'close':
      await db.close()
      return null
    default:
      throw new Error(`Unknown request ${request.op}`)
  }
}

port.on('message', async (request) => {
  try {
    const result = await answer(request)
    port.postMessage({ id: request.id, result }, result instanceof ArrayBuffer ? [result] : [])
  } catch (error) {
    port.postMessage({ id: request.id, error: errorData(error) })
  }
})
port.postMessage({ id: 0, result: null })
