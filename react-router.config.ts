import path from 'node:path'
import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // The whole route manifest ships with the first page (a few kB) instead of being discovered lazily. Lazy
  // discovery only learns routes from rendered links; a fetcher that loads a resource route no link points at (the
  // customer picker, the board's moves) could run before discovery and be matched to the not-found splat route —
  // an error page in the middle of typing (seen in CI).
  routeDiscovery: { mode: 'initial' },
  // React Router 8's behaviors, taken now where they change nothing we rely on (decision 026). Pass-through
  // requests stay off: loaders build links and redirectTo from `request.url`, which would then carry `.data` and
  // `_routes`; it comes with the move to React Router 8.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_passThroughRequests: false,
  },
  // The staff app's service worker precaches the assets this build just wrote (decision 019). Imported here, not
  // at the top, so that loading this config (dev, typegen) does not load the build tools.
  async buildEnd({ viteConfig, reactRouterConfig }) {
    const { buildServiceWorker } = await import('./scripts/lib/service-worker')
    await buildServiceWorker({
      root: viteConfig.root,
      clientDir: path.resolve(viteConfig.root, reactRouterConfig.buildDirectory, 'client'),
    })
  },
} satisfies Config
