// A small React Router server build made by hand — a root, a layout with a navigation of links, a page and as many
// sibling routes as asked — for what must be seen through React Router's own request handler without building the
// app or starting its database: the route tree built once per build (server/route-tree.test.ts, decision 065).
import { createElement as h, type ReactNode, useContext } from 'react'
import { renderToReadableStream } from 'react-dom/server'
import type * as ReactRouter from 'react-router'
import type { EntryContext, ServerBuild } from 'react-router'

/** What a page's render saw of React Router: the objects a per-request rebuild would make anew each time. */
export type RenderSeen = { routes: unknown; routeModules: unknown; matchRoutes: unknown[] }

type Options = {
  /** The react-router module the build is served by (its development or production build). */
  router: typeof ReactRouter
  /** Sibling routes next to the page, so the tree has the size of an app's. */
  extraRoutes?: number
  /** Called on every render of the page. */
  onRender?: (seen: RenderSeen) => void
}

const NAV = ['/features', '/services', '/pricing', '/about', '/developers']

export function standInBuild({ router, extraRoutes = 0, onRender }: Options): ServerBuild {
  const { Link, NavLink, Outlet, ServerRouter } = router
  const { UNSAFE_DataRouterContext, UNSAFE_DataRouterStateContext, UNSAFE_FrameworkContext } = router

  // One set of components per build, bound to the react-router module under test (development or production), so
  // they are made here rather than at module level.
  // biome-ignore lint/correctness/noComponentHookFactories: bound to the router module passed in (see above)
  function Root() {
    return h('html', { lang: 'en' }, h('body', null, h(Outlet)))
  }
  // biome-ignore lint/correctness/noComponentHookFactories: bound to the router module passed in (see above)
  function Layout() {
    const links = NAV.map((to) => h('li', { key: to }, h(NavLink, { to }, to.slice(1))))
    const footer = NAV.map((to) => h('li', { key: to }, h(Link, { to }, to.slice(1))))
    return h('div', null, h('nav', null, h('ul', null, links)), h('main', null, h(Outlet)), h('ul', null, footer))
  }
  // biome-ignore lint/correctness/noComponentHookFactories: bound to the router module passed in (see above)
  function Page() {
    const dataRouter = useContext(UNSAFE_DataRouterContext)
    const framework = useContext(UNSAFE_FrameworkContext)
    const state = useContext(UNSAFE_DataRouterStateContext)
    onRender?.({
      routes: dataRouter?.router.routes,
      routeModules: framework?.routeModules,
      matchRoutes: state?.matches.map((match) => match.route) ?? [],
    })
    const paragraphs: ReactNode[] = []
    for (let i = 0; i < 20; i++) paragraphs.push(h('p', { key: i }, `Paragraph ${i} of a page with no data at all.`))
    // A relative link: it resolves against the page's own route, whatever the patched shortcut for absolute ones.
    return h('section', null, h('h1', null, 'About'), paragraphs, h(Link, { to: 'details' }, 'details'))
  }

  const routes: ServerBuild['routes'] = {}
  const assetRoutes: ServerBuild['assets']['routes'] = {}
  const add = (id: string, parentId: string | undefined, path: string | undefined, Component: () => ReactNode) => {
    routes[id] = { id, parentId, path, module: { default: Component } } as ServerBuild['routes'][string]
    assetRoutes[id] = {
      id,
      parentId,
      path,
      hasAction: false,
      hasLoader: false,
      hasClientAction: false,
      hasClientLoader: false,
      hasClientMiddleware: false,
      hasErrorBoundary: false,
      module: `/assets/${id}.js`,
      clientActionModule: undefined,
      clientLoaderModule: undefined,
      clientMiddlewareModule: undefined,
      hydrateFallbackModule: undefined,
    }
  }
  add('root', undefined, '', Root)
  add('layout', 'root', undefined, Layout)
  add('about', 'layout', 'about', Page)
  for (let i = 0; i < extraRoutes; i++) add(`page-${i}`, 'layout', `page-${i}/:id`, Page)

  async function handleDocumentRequest(
    request: Request,
    status: number,
    headers: Headers,
    context: EntryContext,
  ): Promise<Response> {
    const stream = await renderToReadableStream(h(ServerRouter, { context, url: request.url }))
    await stream.allReady
    headers.set('Content-Type', 'text/html; charset=utf-8')
    return new Response(stream, { status, headers })
  }

  return {
    entry: { module: { default: handleDocumentRequest } },
    routes,
    assets: {
      entry: { imports: [], module: '/assets/entry.js' },
      routes: assetRoutes,
      url: '/assets/m.js',
      version: '1',
    },
    basename: '/',
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: { v8_middleware: true } as ServerBuild['future'],
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
  }
}
