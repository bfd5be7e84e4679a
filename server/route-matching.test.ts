// Route matching skips the branches that cannot match (our patch of React Router, decision 072): a branch whose path
// starts with static segments is tried only for a pathname that starts with them, in any letter case. The answer
// must be the one React Router gives without the patch, for every route of app/routes.ts and any path. The reference
// is the same version's own unpatched matcher: its React Server Components build, which the patch leaves alone.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RouteConfigEntry } from '@react-router/dev/routes'
import fc from 'fast-check'
import * as developmentRouter from 'react-router'
import { describe, expect, it } from 'vitest'
import routeConfig from '~/routes'

type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] }
type Matcher = (routes: RouteObject[], pathname: string) => Array<{ route: { id: string } }> | null

function distFile(build: 'production' | 'development', file: string) {
  const development = import.meta.resolve('react-router')
  return pathToFileURL(path.join(path.dirname(new URL(development).pathname), '..', build, file)).href
}

/** The app's route tree as React Router's route objects (ids unique by position). */
function routeObjects(entries: RouteConfigEntry[], parent = 'root'): RouteObject[] {
  return entries.map((entry, i) => {
    const id = `${parent}/${i}:${entry.file}`
    return {
      id,
      path: entry.path,
      index: entry.index,
      caseSensitive: entry.caseSensitive,
      children: entry.children ? routeObjects(entry.children, id) : undefined,
    }
  })
}
const ROUTES = routeObjects(routeConfig)

/** Every full path pattern of the tree. */
function patterns(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const own = route.path ? `${parent.replace(/\/$/, '')}/${route.path}` : parent || '/'
    return [own, ...patterns(route.children ?? [], own)]
  })
}
const PATTERNS = [...new Set(patterns(ROUTES))]

const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/)
/** A concrete path for `pattern`: each parameter a value, its static letters in any case, maybe a trailing slash. */
const pathFor = (pattern: string) =>
  fc
    .record({
      values: fc.array(segment, { minLength: 8, maxLength: 8 }),
      splat: fc.array(segment, { maxLength: 3 }),
      upper: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      trailingSlash: fc.boolean(),
      withOptional: fc.boolean(),
    })
    .map(({ values, splat, upper, trailingSlash, withOptional }) => {
      let v = 0
      const parts = pattern.split('/').flatMap((part, i) => {
        if (part === '*') return splat
        if (part.startsWith(':')) {
          if (part.endsWith('?') && !withOptional) return []
          return [values[v++ % values.length]]
        }
        const text = part.endsWith('?') ? (withOptional ? part.slice(0, -1) : '') : part
        return [[...text].map((c, j) => (upper[(i * 7 + j) % upper.length] ? c.toUpperCase() : c)).join('')]
      })
      const joined = parts.filter((p, i) => i === 0 || p !== '').join('/') || '/'
      return trailingSlash && !joined.endsWith('/') ? `${joined}/` : joined
    })

const anyPath = fc.oneof(
  fc.constantFrom(...PATTERNS).chain(pathFor),
  fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/', '//app', '/app//customers', '/APP/Customers', '/app/customers%2Fnew', '/%E2%82%AC', '/app/'),
)

function ids(matches: ReturnType<Matcher>) {
  return matches?.map((m) => m.route.id) ?? null
}

const reference = (await import(distFile('production', 'index-react-server.mjs'))) as { matchRoutes: Matcher }
const production = (await import(distFile('production', 'index.mjs'))) as { matchRoutes: Matcher }
const development = developmentRouter as unknown as { matchRoutes: Matcher }

describe('route matching with the static-prefix check', () => {
  it('the unpatched reference finds the pages by their paths (so the comparison below means something)', () => {
    expect(ids(reference.matchRoutes(ROUTES, '/about'))?.at(-1)).toContain('routes/marketing/about.tsx')
    expect(ids(reference.matchRoutes(ROUTES, '/app/customers/new'))?.at(-1)).toContain('routes/app/customer-new.tsx')
    expect(PATTERNS.length).toBeGreaterThan(80)
  })

  it.each([
    ['production', production],
    ['development', development],
  ])('React Router’s %s build matches every path as the unpatched matcher does', (_, patched) => {
    fc.assert(
      fc.property(anyPath, (pathname) => {
        expect(ids(patched.matchRoutes(ROUTES, pathname))).toEqual(ids(reference.matchRoutes(ROUTES, pathname)))
      }),
      { numRuns: 500 },
    )
  })

  it('every page of the app is still found, in any letter case', () => {
    for (const pattern of PATTERNS.filter((p) => !/[:*?]/.test(p))) {
      for (const pathname of [pattern, pattern.toUpperCase(), `${pattern}/`]) {
        expect(ids(production.matchRoutes(ROUTES, pathname))).toEqual(ids(reference.matchRoutes(ROUTES, pathname)))
        expect(production.matchRoutes(ROUTES, pathname)).not.toBeNull()
      }
    }
  })
})
