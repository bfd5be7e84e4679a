// Builds the staff app's service worker (decision 019) once `react-router build` has written build/client: bundles
// app/service-worker/sw.ts with Vite into one classic script, then has Workbox inject the list of built assets to
// precache (injectManifest) and writes it to build/client/sw.js, which server/app.mjs serves with no-cache.
// Called from react-router.config.ts (buildEnd), so every build path (npm run build, the e2e and bench harnesses)
// ships the worker that matches its assets.
import path from 'node:path'
import { build } from 'vite'
import { injectManifest } from 'workbox-build'

/** What the phone keeps of a build: the app's code and styles, and the few files the manifest names. */
const PRECACHE = ['assets/**/*.{js,css,woff2}', 'favicon.svg', 'manifest.webmanifest', 'icons/*.png']

export async function buildServiceWorker({ root, clientDir }: { root: string; clientDir: string }) {
  const bundleDir = path.join(path.dirname(clientDir), 'service-worker')
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    publicDir: false,
    resolve: { tsconfigPaths: true },
    // Workbox logs every cache decision unless it is told this is production.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: bundleDir,
      emptyOutDir: true,
      minify: true,
      lib: {
        entry: path.join(root, 'app/service-worker/sw.ts'),
        formats: ['iife'],
        name: 'poolBudServiceWorker',
        fileName: () => 'sw.js',
      },
    },
  })
  const { count, size, warnings } = await injectManifest({
    swSrc: path.join(bundleDir, 'sw.js'),
    swDest: path.join(clientDir, 'sw.js'),
    globDirectory: clientDir,
    globPatterns: PRECACHE,
    // Asset names carry their content hash already.
    dontCacheBustURLsMatching: /^assets\//,
  })
  for (const warning of warnings) console.warn(`[service worker] ${warning}`)
  console.log(`[service worker] build/client/sw.js precaches ${count} files (${Math.round(size / 1024)} kB)`)
}
