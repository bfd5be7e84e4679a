// How the embedded database's worker (server/pglite-worker.mjs) runs a statement with parameters: what PGlite's own
// `query` does, in one call into PostgreSQL instead of six, and, for the pages that ask for it (decision 073), as a
// named prepared statement planned once (docs/decisions/075-pglite-statements-in-one-call.md).
//
// PGlite's `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six separate calls into its WebAssembly
// PostgreSQL: it needs the statement's parameter types (from the first Describe) to turn each value into text before
// it can Bind. A statement's parameter types depend only on its text, so they are kept here by text: after the first
// run, a statement is one call (Parse, Bind, Describe, Execute, Sync), or, when prepared, one call without the Parse
// and without planning again. Plain JavaScript, as the worker runs unbundled.
import { parse, protocol } from '@electric-sql/pglite'

/** Statement texts whose parameter types (and name, when prepared) the worker keeps; past this, they are asked again. */
export const STATEMENTS_KEPT = 1_000

const { serialize } = protocol

/** PostgreSQL's codes for a prepared statement that is gone (DISCARD ALL, DEALLOCATE) or whose result type changed. */
const STALE_STATEMENT = new Set(['26000', '0A000'])

/** Runs `db`'s statements as above; `db` is the worker's PGlite. */
export function createStatements(db) {
  /** @type {Map<string, { name: string | null, types: number[] }>} */
  const known = new Map()
  let named = 0

  /** One call into PostgreSQL: the messages it answered; its first error thrown once the Sync has ended the run. */
  async function call(parts) {
    const { messages } = await db.execProtocol(Buffer.concat(parts), { syncToFs: false })
    return messages
  }

  /** The statement's parameter types, by Parse and Describe (under `name`, which then stays prepared). */
  async function parameterTypes(text, name) {
    const answered = await call([
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ])
    return parse.parseDescribeStatementResults(answered)
  }

  /** Each value as PostgreSQL's text for its parameter's type, as PGlite's `query` writes it. */
  function values(params, types) {
    return params.map((param, index) => {
      if (param === null || param === undefined) return null
      const write = db.serializers[types[index]]
      return write ? write(param) : param.toString()
    })
  }

  async function execute(text, params, options, prepared) {
    const wantsName = prepared && params.length > 0
    let statement = known.get(text)
    if (statement === undefined || (wantsName && statement.name === null)) {
      const name = wantsName && named < STATEMENTS_KEPT ? `pb_${named.toString(36)}` : ''
      const types = await parameterTypes(text, name)
      if (name) named += 1
      statement = { name: name || null, types }
      if (known.size < STATEMENTS_KEPT || known.has(text)) known.set(text, statement)
    }
    const byName = wantsName && statement.name !== null
    const answered = await call([
      ...(byName ? [] : [serialize.parse({ text })]),
      serialize.bind({ statement: byName ? statement.name : '', values: values(params, statement.types) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ])
    return parse.parseResults(answered, db.parsers, options)[0]
  }

  /** Forgets a prepared statement PostgreSQL no longer has as it was, so that the next run prepares it again. */
  async function forget(text) {
    const statement = known.get(text)
    known.delete(text)
    // In a failed transaction PostgreSQL may refuse even this; the name is never used again either way.
    if (statement?.name)
      await call([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]).catch(() => {})
  }

  return {
    /**
     * Runs one statement. `inTransaction`: inside the worker's open transaction, which holds PGlite's transaction
     * lock already; otherwise it waits for open transactions first, as PGlite's `query` does, and writes its changes
     * to the data folder after.
     */
    run(text, params = [], options = {}, { inTransaction = false, prepared = false } = {}) {
      const attempt = async (again) => {
        try {
          return await execute(text, params, options, prepared)
        } catch (error) {
          if (!STALE_STATEMENT.has(error?.code) || !known.get(text)?.name) throw Object.assign(error, { query: text })
          await forget(text)
          // Inside a transaction the failure has ended it: the caller sees it, as with any other error.
          if (inTransaction || !again) throw Object.assign(error, { query: text })
          return attempt(false)
        }
      }
      const run = () =>
        db._runExclusiveQuery(async () => {
          const result = await attempt(true)
          if (!inTransaction) await db.syncToFs()
          return result
        })
      return inTransaction ? run() : db._runExclusiveTransaction(run)
    },
  }
}
