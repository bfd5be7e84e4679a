// What the browser downloads carries no server code and stays within its weight budgets (docs/performance.md,
// "Browser bundles"; decision 064). It reads what `npm run build` wrote to build/client: CI builds before it tests,
// and a local run without a build skips, saying so.
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const client = path.join(root, 'build/client')
const assets = path.join(client, 'assets')
const built = fs.existsSync(assets)

/**
 * Strings that survive minification (symbol keys, error messages, host names) and that only these server packages
 * contain. Each names a file of the package that holds it, so a package that drops the string fails the check below
 * instead of letting its code through unseen.
 */
const SERVER_ONLY = [
  { name: 'drizzle-orm', signature: 'drizzle:entityKind', source: 'drizzle-orm/entity.js' },
  {
    name: 'drizzle-orm/pg-core (table code)',
    signature: 'drizzle:PgInlineForeignKeys',
    source: 'drizzle-orm/pg-core/table.js',
  },
  {
    name: 'csv-stringify',
    signature: 'CSV_OPTION_ESCAPE_FORMULAS_INVALID_TYPE',
    source: 'csv-stringify/dist/esm/index.js',
  },
  { name: 'pg', signature: 'Client has already been connected', source: 'pg/lib/client.js' },
  { name: '@electric-sql/pglite', signature: '_pgl_setPGliteActive', source: '@electric-sql/pglite/dist/pglite.js' },
  { name: 'pino', signature: 'pino.setLevel', source: 'pino/lib/symbols.js' },
  { name: 'stripe', signature: 'api.stripe.com', source: 'stripe/esm/net/EndpointFetchHttpClient.js' },
  { name: 'better-auth (server)', signature: 'BETTER_AUTH_SECRET', source: 'better-auth/dist/crypto/index.mjs' },
] as const

/**
 * Budgets in gzipped bytes, about 10 % above what the build weighed when they were set (docs/performance.md,
 * "Browser bundles"): raise one only with a reason written there.
 */
const BUDGET = {
  /** entry.client and what it imports (React, React Router): every page downloads it. */
  entry: 120_000,
  /** A route's own module. */
  routeModule: 15_000,
  /** A route's module and its chunks beyond the entry's: what opening that page first downloads. */
  routeTotal: 148_000,
  /** Any chunk shared by routes, but the one named below. */
  sharedChunk: 29_000,
  /** The customer form's schemas: libphonenumber's metadata, the price of checking a phone number in the form. */
  customerSchemas: 56_000,
} as const

type RouteManifest = {
  entry: { module: string; imports: string[] }
  routes: Record<string, { module: string; imports?: string[] }>
}

function readManifest(): RouteManifest {
  const files = fs.readdirSync(assets).filter((file) => /^manifest-[\w-]+\.js$/.test(file))
  expect(files, 'one route manifest in build/client/assets').toHaveLength(1)
  const text = fs.readFileSync(path.join(assets, files[0] as string), 'utf8')
  const json = text.replace(/^window\.__reactRouterManifest\s*=\s*/, '').replace(/;\s*$/, '')
  return JSON.parse(json) as RouteManifest
}

const gzipped = new Map<string, number>()
function weight(url: string): number {
  let bytes = gzipped.get(url)
  if (bytes === undefined) {
    bytes = gzipSync(fs.readFileSync(path.join(client, url))).length
    gzipped.set(url, bytes)
  }
  return bytes
}

describe.skipIf(!built)('browser bundles (build/client; skipped when absent: run `npm run build` first)', () => {
  it('hold no server-only package', () => {
    const scripts = [
      ...fs
        .readdirSync(assets)
        .filter((file) => file.endsWith('.js'))
        .map((file) => path.join(assets, file)),
      path.join(client, 'sw.js'),
    ].filter((file) => fs.existsSync(file))
    expect(scripts.length).toBeGreaterThan(10)
    const found: string[] = []
    for (const file of scripts) {
      const text = fs.readFileSync(file, 'utf8')
      for (const { name, signature } of SERVER_ONLY) {
        if (text.includes(signature)) found.push(`${path.relative(client, file)}: ${name}`)
      }
    }
    expect(found, 'server code in a browser chunk (move what the browser needs into a plain module)').toEqual([])
  })

  it('looks for strings the server packages really contain', () => {
    for (const { name, signature, source } of SERVER_ONLY) {
      const text = fs.readFileSync(path.join(root, 'node_modules', source), 'utf8')
      expect(text.includes(signature), `${name}: "${signature}" in ${source}`).toBe(true)
    }
  })

  it('keep the entry, each route and each shared chunk within budget', () => {
    const manifest = readManifest()
    const entry = [manifest.entry.module, ...manifest.entry.imports]
    const inEntry = new Set(entry)
    const over: string[] = []
    const check = (what: string, bytes: number, budget: number) => {
      if (bytes > budget) over.push(`${what}: ${bytes} bytes gzipped, budget ${budget}`)
    }

    check(
      'entry',
      entry.reduce((sum, url) => sum + weight(url), 0),
      BUDGET.entry,
    )
    const routeModules = new Set<string>()
    const shared = new Set<string>()
    for (const [id, route] of Object.entries(manifest.routes)) {
      routeModules.add(route.module)
      const own = [route.module, ...(route.imports ?? [])].filter((url) => !inEntry.has(url))
      for (const url of own) if (url !== route.module) shared.add(url)
      check(`route ${id} (module)`, weight(route.module), BUDGET.routeModule)
      check(
        `route ${id} (module and chunks)`,
        own.reduce((sum, url) => sum + weight(url), 0),
        BUDGET.routeTotal,
      )
    }
    const schemas = [...shared].filter((url) => /\/customer-schemas-[\w-]+\.js$/.test(url))
    expect(schemas, 'the customer schemas chunk, budgeted on its own').toHaveLength(1)
    for (const url of shared) {
      if (routeModules.has(url)) continue
      const isSchemas = schemas.includes(url)
      check(url, weight(url), isSchemas ? BUDGET.customerSchemas : BUDGET.sharedChunk)
    }
    expect(over, 'over budget (docs/performance.md, "Browser bundles")').toEqual([])
  })
})
