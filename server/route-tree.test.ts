// The floor's route tree is built once per build, not on every request (decision 065): React Router's request
// handler once per build (server/http-adapter.mjs), and the tree its <ServerRouter> renders once per build (our patch
// of React Router in the patches folder, decision 065). A rebuild would hand each render new route objects; the page
// records the ones it saw, so one identity across many requests is one build of the tree.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as developmentRouter from 'react-router'
import { createRequestHandler as createReactRouterHandler } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { createRequestHandler } from './http-adapter.mjs'
import { type RenderSeen, standInBuild } from './stand-in-build'

const REQUESTS = 25

let server: http.Server | undefined
afterEach(async () => {
  const listening = server
  server = undefined
  if (!listening) return
  listening.closeAllConnections()
  await new Promise((resolve) => listening.close(resolve))
})

/** React Router's production build, the one server.mjs loads (server/production-react-router.mjs). */
async function productionRouter(): Promise<typeof developmentRouter> {
  const development = import.meta.resolve('react-router')
  const file = path.join(path.dirname(new URL(development).pathname), '..', 'production', 'index.mjs')
  return import(pathToFileURL(file).href)
}

function distinct(values: unknown[]) {
  return new Set(values).size
}

describe('the route tree is built once per build', () => {
  it('through the HTTP adapter: one React Router handler and one rendered route tree across many requests', async () => {
    const seen: RenderSeen[] = []
    const build = standInBuild({ router: developmentRouter, extraRoutes: 50, onRender: (s) => seen.push(s) })
    let handlers = 0
    const adapter = createRequestHandler({
      getBuild: () => build,
      origin: 'http://pool.example.com',
      createHandler: (b: typeof build) => {
        handlers++
        return createReactRouterHandler(b, 'production')
      },
      log: () => {},
    })
    const listening = http.createServer((req, res) =>
      adapter(req, res, (error: unknown) => {
        res.statusCode = 500
        res.end(String(error))
      }),
    )
    server = listening
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`

    for (let i = 0; i < REQUESTS; i++) {
      const response = await fetch(`${base}/about`)
      expect(response.status).toBe(200)
      expect(await response.text()).toContain('<h1>About</h1>')
    }
    expect(handlers).toBe(1)
    expect(seen).toHaveLength(REQUESTS)
    expect(distinct(seen.map((s) => s.routes))).toBe(1)
    expect(distinct(seen.map((s) => s.routeModules))).toBe(1)
    // root, layout, page: the same three route objects every time.
    expect(distinct(seen.flatMap((s) => s.matchRoutes))).toBe(3)
  })

  it.each([
    ['development', async () => developmentRouter],
    ['production', productionRouter],
  ])(
    'React Router’s %s build renders the tree it built for the build, and a new build gets its own',
    async (_, load) => {
      const router = await load()
      const seen: RenderSeen[] = []
      const first = standInBuild({ router, onRender: (s) => seen.push(s) })
      const handle = router.createRequestHandler(first, 'production')
      for (let i = 0; i < REQUESTS; i++) {
        const response = await handle(new Request('http://pool.example.com/about'))
        expect(response.status).toBe(200)
        await response.text()
      }
      expect(distinct(seen.map((s) => s.routes))).toBe(1)
      expect(distinct(seen.map((s) => s.routeModules))).toBe(1)

      // What the dev server does after an edit: a new build object, whose tree is its own.
      const second = standInBuild({ router, onRender: (s) => seen.push(s) })
      const response = await router.createRequestHandler(
        second,
        'production',
      )(new Request('http://pool.example.com/about'))
      await response.text()
      expect(distinct(seen.map((s) => s.routes))).toBe(2)
    },
  )

  it('links to absolute paths still resolve, and relative ones against their route (the patched useResolvedPath)', async () => {
    const build = standInBuild({ router: developmentRouter, extraRoutes: 2 })
    const handle = createReactRouterHandler(build, 'production')
    const html = await (await handle(new Request('http://pool.example.com/about'))).text()
    expect(html).toContain('href="/pricing"')
    expect(html).toMatch(/<a aria-current="page" class="active" href="\/about"[^>]*>about<\/a>/)
    expect(html).toContain('href="/about/details"')
    // A page under a dynamic segment: its links are absolute, so they do not move with the URL.
    const deep = await (await handle(new Request('http://pool.example.com/page-1/42'))).text()
    expect(deep).toContain('href="/pricing"')
    expect(deep).not.toContain('aria-current')
    expect(deep).toContain('href="/page-1/42/details"')
  })
})
