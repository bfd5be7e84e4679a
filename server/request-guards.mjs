// The checks every request passes before React Router sees it, shared by the production server
// (server.mjs, Express) and the development server (vite.config.ts), so both behave the same.
// Plain Node (req, res, next) middleware: Express and Vite's connect both take it.

/** Rate limits key on this header; it is always set here, never taken from the client. */
export const CLIENT_IP_HEADER = 'x-pool-bud-client-ip'

/** Form posts are small; photo uploads have their own 16 MB cap in their route. */
const MAX_BODY_BYTES = 1024 * 1024
const MAX_UPLOAD_BYTES = 17 * 1024 * 1024
const PHOTO_UPLOAD_PATH = /^\/app\/jobs\/[^/]+\/photos\/[^/]+$/

function refuse(res, status, message) {
  res.statusCode = status
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.end(message)
}

/**
 * @param {{ appOrigin: string, clientIp: (req: import('node:http').IncomingMessage) => string | undefined }} options
 * @returns {Array<(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void>}
 */
export function requestGuards({ appOrigin, clientIp }) {
  return [
    function securityHeaders(req, res, next) {
      res.setHeader('X-Content-Type-Options', 'nosniff')
      res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
      res.setHeader('X-Frame-Options', 'DENY')
      res.setHeader('Permissions-Policy', 'camera=(self), geolocation=(), microphone=()')
      if (appOrigin.startsWith('https://')) {
        res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
      }
      req.headers[CLIENT_IP_HEADER] = clientIp(req) ?? req.socket.remoteAddress ?? 'unknown'
      next()
    },
    // Refuse state-changing requests that come from another site (CSRF), before any action runs.
    function refuseCrossOrigin(req, res, next) {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next()
      const origin = req.headers.origin
      if ((origin && origin !== appOrigin) || req.headers['sec-fetch-site'] === 'cross-site') {
        return refuse(res, 403, 'Cross-origin requests are not allowed.')
      }
      next()
    },
    // Refuse oversized bodies before anything reads them into memory.
    function refuseOversizedBodies(req, res, next) {
      const declared = Number(req.headers['content-length'] ?? 0)
      const path = new URL(req.url ?? '/', 'http://local').pathname
      if (declared > (PHOTO_UPLOAD_PATH.test(path) ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES)) {
        return refuse(res, 413, 'Request too large.')
      }
      next()
    },
  ]
}
