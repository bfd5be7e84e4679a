// How every PGlite instance of the app opens, in the request thread (tests, scripts) or in its worker
// (server/pglite-worker.mjs). Plain JavaScript, as the worker runs unbundled.
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * The extensions the migrations create (customer search's trigram indexes). PGlite ships them as contrib
 * modules that must be loaded by every instance that opens such a database, or it cannot read those indexes.
 */
export const PGLITE_OPTIONS = { extensions: { pg_trgm, btree_gin } }
