// Prepared statements for the pages that ask for them (decision 073). PostgreSQL plans an unnamed statement again on
// every run; a named one is parsed once per connection and, after five runs, may keep one plan made without the
// parameters' values (a "generic plan"). On the owner's dashboard, planning took about as much of the database's time
// as running the statements (docs/performance.md). A generic plan can also be much worse than one made for the
// values — it guesses from averages, and our data is skewed (one company or customer may hold a hundred times the
// rows of another) — so a page opts in with `withPreparedStatements` once `bench/explain.ts --generic` has shown its
// statements' generic plans to be as good as their own.
//
// Drizzle builds a fresh query for every call, so the name is given below it, by the text: the same text always gets
// the same name, two texts never share one.
import { AsyncLocalStorage } from 'node:async_hooks'
import type pg from 'pg'
import { STATEMENTS_KEPT } from '../../server/pglite-statements.mjs'

/** Texts this process names at most; past this, new texts go unnamed. Each is prepared once per connection. */
export const NAMED_TEXTS_KEPT = STATEMENTS_KEPT

const names = new Map<string, string>()
const preparing = new AsyncLocalStorage<true>()

/** The name of a statement text, or null when this process already names as many texts as it keeps. */
export function statementName(text: string) {
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= NAMED_TEXTS_KEPT) return null
    name = `pb_${names.size.toString(36)}`
    names.set(text, name)
  }
  return name
}

/** Runs `run` with its statements (those with parameters, sent through the pool) sent as named prepared statements. */
export function withPreparedStatements<T>(run: () => Promise<T>): Promise<T> {
  return preparing.run(true, run)
}

/**
 * Whether the statement being sent now comes from inside `withPreparedStatements` (the embedded database's worker
 * is told so with each statement: server/pglite-statements.mjs).
 */
export function preparingStatements() {
  return preparing.getStore() === true
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown }

/**
 * Has `pool` name the statements sent from inside `withPreparedStatements`. The name is decided in `pool.query`, while
 * the caller's context is current (pg-pool may hand the statement to a connection later, from another request's).
 */
export function nameStatements(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown
  pool.query = ((...args: unknown[]) => {
    const [config, values] = args as [QueryConfig | string | undefined, unknown]
    const text = typeof config === 'string' ? config : config?.text
    if (
      preparingStatements() &&
      typeof text === 'string' &&
      (typeof config === 'string' || config?.name === undefined)
    ) {
      const parameters = values ?? (typeof config === 'object' ? config.values : undefined)
      // Statements without parameters are few and often one-off texts. A config is copied, never changed (Drizzle
      // keeps its own for a query prepared by name).
      const name = Array.isArray(parameters) && parameters.length > 0 ? statementName(text) : null
      if (name) args[0] = typeof config === 'string' ? { text, name } : { ...config, name }
    }
    return query(...args)
  }) as typeof pool.query
  return pool
}

/** A page's loader whose statements go as prepared statements: `export const loader = preparedLoader(async (…) => …)`. */
export function preparedLoader<Args, Result>(load: (args: Args) => Promise<Result>) {
  return (args: Args) => withPreparedStatements(() => load(args))
}
