// A page's weight as the browser receives it, without a build or a server: React Router's own request handler answers
// in this process over the app's real route modules (root, the app layout and the page), on the test's database. A
// document request gives the HTML with its hydration data; `<path>.data` gives what a client-side navigation fetches.
// The assets manifest names one script per route, so only the `<script>`/`<link>` tags of the build differ from the
// production page (a fixed few hundred bytes), never anything that grows with the data.

import { PassThrough } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { renderToPipeableStream } from 'react-dom/server'
import {
  createRequestHandler,
  type EntryContext,
  type ServerBuild,
  ServerRouter,
  UNSAFE_withComponentProps,
  UNSAFE_withErrorBoundaryProps,
} from 'react-router'
import * as root from '~/root'
import * as appLayout from '~/routes/app/layout'

type RouteModule = NonNullable<ServerBuild['routes'][string]>['module']

/**
 * The render of `entry.server.tsx` without its nonce: the whole document once everything is ready, the hydration
 * data (which React Router streams) included.
 */
function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  return new Promise<Response>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(<ServerRouter context={context} url={request.url} />, {
      onAllReady() {
        const chunks: Buffer[] = []
        const body = new PassThrough()
        body.on('data', (chunk: Buffer) => chunks.push(chunk))
        body.on('end', () => {
          headers.set('Content-Type', 'text/html; charset=utf-8')
          resolve(new Response(Buffer.concat(chunks), { status, headers }))
        })
        pipe(body)
      },
      onShellError: reject,
    })
  })
}

/** What React Router's Vite plugin does to a route module: its components get `loaderData` and `error` as props. */
function asBuilt(module: Record<string, unknown>): RouteModule {
  const built: Record<string, unknown> = { ...module }
  if (module.default) built.default = UNSAFE_withComponentProps(module.default as never)
  if (module.ErrorBoundary) built.ErrorBoundary = UNSAFE_withErrorBoundaryProps(module.ErrorBoundary as never)
  return built as unknown as RouteModule
}

/** A handler serving one page of the staff app, `path` (as in app/routes.ts) under /app. */
export function appPageHandler(id: string, path: string, page: Record<string, unknown>) {
  const tree = [
    { id: 'root', parentId: undefined, path: '', module: asBuilt(root) },
    { id: 'routes/app/layout', parentId: 'root', path: 'app', module: asBuilt(appLayout) },
    { id, parentId: 'routes/app/layout', path, module: asBuilt(page) },
  ]
  const build: ServerBuild = {
    entry: { module: { default: handleRequest } },
    routes: Object.fromEntries(
      tree.map((route) => [route.id, { ...route, index: undefined, caseSensitive: undefined }]),
    ),
    assets: {
      entry: { module: '/assets/entry.client.js', imports: [] },
      routes: Object.fromEntries(
        tree.map(({ id: routeId, parentId, path: routePath, module }) => [
          routeId,
          {
            id: routeId,
            parentId,
            path: routePath,
            hasAction: 'action' in module,
            hasLoader: 'loader' in module,
            hasClientAction: false,
            hasClientLoader: false,
            hasClientMiddleware: false,
            hasErrorBoundary: 'ErrorBoundary' in module,
            module: `/assets/${routeId.replaceAll('/', '-')}.js`,
            imports: [],
            clientActionModule: undefined,
            clientLoaderModule: undefined,
            clientMiddlewareModule: undefined,
            hydrateFallbackModule: undefined,
          },
        ]),
      ),
      url: '/assets/manifest.js',
      version: 'test',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    // The app's own flags (react-router.config.ts), as the build records them.
    future: { v8_middleware: true, v8_passThroughRequests: false, v8_trailingSlashAwareDataRequests: true },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'initial', manifestPath: '/__manifest' },
  }
  return createRequestHandler(build, 'production')
}

/** The uncompressed bytes of `path`'s document and of its `.data`, fetched as the holder of `cookie`. */
export async function pageWeight(
  handler: ReturnType<typeof appPageHandler>,
  origin: string,
  path: string,
  cookie: string,
) {
  const url = new URL(path, origin)
  const document = await handler(new Request(url, { headers: { cookie } }))
  const dataUrl = new URL(url)
  dataUrl.pathname = `${url.pathname}.data`
  const data = await handler(new Request(dataUrl, { headers: { cookie } }))
  if (document.status !== 200 || data.status !== 200) {
    throw new Error(`${path} answered ${document.status} (document) and ${data.status} (.data)`)
  }
  const html = await document.text()
  const dataBody = Buffer.from(await data.arrayBuffer())
  return {
    html,
    documentBytes: Buffer.byteLength(html),
    dataBytes: dataBody.byteLength,
    // What goes over the network with compression on (the default; a reverse proxy's gzip is alike): zlib's default
    // level, as the server's compression uses.
    documentGzipBytes: gzipSync(html).byteLength,
    dataGzipBytes: gzipSync(dataBody).byteLength,
  }
}
