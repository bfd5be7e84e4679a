// The Express app both servers run: `node server.mjs` (production, the built app) and `npm run dev` (the same app
// with Vite in middleware mode). Everything a request passes through before React Router — shutdown handling,
// compression, security headers, the cross-origin check, the body cap — is set up here once.
import fs from 'node:fs'
import path from 'node:path'
import compression from 'compression'
import express from 'express'
import { createRequestHandler } from './http-adapter.mjs'
import { requestGuards } from './request-guards.mjs'
import { compressWholeBody } from './whole-body-compression.mjs'

/**
 * @param {{
 *   appOrigin: string,
 *   proxyHops: number,
 *   getBuild: () => Promise<import('react-router').ServerBuild> | import('react-router').ServerBuild,
 *   vite?: import('vite').ViteDevServer,
 *   shutdown: { middleware: import('express').RequestHandler },
 *   compress?: boolean,
 * }} options
 */
export function createApp({ appOrigin, proxyHops, getBuild, vite, shutdown, compress = true }) {
  const app = express()
  app.disable('x-powered-by')
  // TRUST_PROXY is the number of proxies in front of the app. Express then takes the client
  // address that the nearest trusted proxy saw; never `true`, which would believe whatever
  // X-Forwarded-For a client sends (and let it pick its own rate-limit bucket).
  if (proxyHops > 0) app.set('trust proxy', proxyHops)
  app.use(shutdown.middleware)
  // COMPRESSION=off: a reverse proxy in front compresses, so gzip here would only cost this process CPU (decision
  // 065). Server-Sent Events must flush each message, so they are never compressed. The middleware wraps only what
  // needs its stream — files, and a response of the app that turns out to be streamed — because wrapping costs every
  // response it sees; a page (one buffer) is compressed whole by the request handler in one call (decision 072).
  const compressing = compress
    ? compression({
        filter: (req, res) =>
          !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
      })
    : undefined
  /** `handler`, its responses compressed when COMPRESSION is on. */
  const compressed = (handler) => (compressing ? [compressing, handler] : [handler])
  // Security headers, the trusted client address, cross-origin requests.
  app.use(requestGuards({ appOrigin, clientIp: (req) => req.ip }))

  if (vite) {
    // Development: Vite serves the client modules, public/ and hot reload.
    app.use(...compressed(vite.middlewares))
  } else {
    app.use(
      '/assets',
      ...compressed(express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false })),
    )
    // Marketing images are linked with their content hash (?v=…, see scripts/build-marketing-images.ts).
    app.use(
      '/marketing',
      ...compressed(express.static('build/client/marketing', { immutable: true, maxAge: '1y', index: false })),
    )
    // The rest of build/client (favicon, robots of public/…) is a handful of files known at start: a page URL
    // must not cost a disk lookup on every request just to learn it is not one of them.
    const publicFiles = filesUnder('build/client', ['assets', 'marketing'])
    const servePublic = express.static('build/client', {
      maxAge: '1h',
      index: false,
      // The service worker and the manifest must reach phones as soon as a new version is out: the browser asks
      // again every time (a 304 when unchanged) instead of running yesterday's worker for an hour.
      setHeaders: (res, filePath) => {
        if (NO_CACHE.has(path.basename(filePath))) res.setHeader('Cache-Control', 'no-cache')
      },
    })
    const servePublicFile = compressing
      ? (req, res, next) => compressing(req, res, () => servePublic(req, res, next))
      : servePublic
    app.use((req, res, next) => (publicFiles.has(req.path) ? servePublicFile(req, res, next) : next()))
  }
  app.all(
    '/{*splat}',
    createRequestHandler({
      getBuild,
      origin: appOrigin,
      wholeBody: compressing ? compressWholeBody : undefined,
      beforeStreaming: compressing ? (req, res) => new Promise((resolve) => compressing(req, res, resolve)) : undefined,
    }),
  )
  return app
}

/** Files of build/client that are revalidated on every request (decision 019). */
const NO_CACHE = new Set(['sw.js', 'manifest.webmanifest'])

/** URL paths of the files under `root`, leaving out the `skip` folders (served by their own handlers). */
function filesUnder(root, skip) {
  const files = new Set()
  const walk = (dir, urlPath) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (urlPath === '' && skip.includes(entry.name)) continue
      const child = `${urlPath}/${entry.name}`
      if (entry.isDirectory()) walk(path.join(dir, entry.name), child)
      else files.add(child)
    }
  }
  if (fs.existsSync(root)) walk(root, '')
  return files
}
