// The checks every request passes before React Router sees it, set up once in server/app.mjs for both the
// production and the development server. The body cap lives in server/http-adapter.mjs, where the body is read.
// Plain Node (req, res, next) middleware.
import { randomUUID } from 'node:crypto'

/** Rate limits key on this header; it is always set here, never taken from the client. */
export const CLIENT_IP_HEADER = 'x-pool-bud-client-ip'

/**
 * Every request gets an id of ours (never the client's, which could forge or repeat one): the app's error log
 * carries it, and the response says it, so "it failed at 10:42" can be found in the logs.
 */
export const REQUEST_ID_HEADER = 'x-request-id'

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
      const requestId = randomUUID()
      req.headers[REQUEST_ID_HEADER] = requestId
      res.setHeader('X-Request-Id', requestId)
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
  ]
}
