// React Router publishes its production build only to bundlers: Node's package resolution always picks
// dist/development (its `exports` has no production condition), which checks invariants and warns on every
// render (≈10 % of a page's server time in the profile of reports/performance.md). Under NODE_ENV=production,
// this resolve hook hands every importer — our HTTP adapter and the server build alike, so there is still one
// copy and `instanceof` checks across them hold — the production build of the same version.
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
const development = require.resolve('react-router')
const production = pathToFileURL(path.join(path.dirname(development), '..', 'production', 'index.mjs')).href

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'react-router') return { url: production, shortCircuit: true, format: 'module' }
  return nextResolve(specifier, context)
}
