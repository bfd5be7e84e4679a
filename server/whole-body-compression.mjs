// Compression of a response whose whole body is one buffer — every rendered page and `.data` answer (entry.server.tsx
// renders a page into one buffer) — in one call instead of through the `compression` middleware's stream (decision
// 072): the stream's machinery cost a page more than the gzip itself (about 0.5 ms of CPU against 0.12 ms on the
// floor, docs/performance.md). The choices are the middleware's own, so a page is encoded exactly as before: the same
// filter (a compressible Content-Type), `no-transform` respected, nothing under 1 kB, no HEAD, the encoding
// negotiated from Accept-Encoding the same way (Brotli at quality 4 first, then gzip, then deflate), and
// `Vary: Accept-Encoding`. The middleware still compresses everything else (static files, streamed bodies) and
// leaves a body already encoded alone.
import zlib from 'node:zlib'
import compression from 'compression'
import Negotiator from 'negotiator'

/** The `compression` middleware's defaults (node_modules/compression, 1.8). */
const THRESHOLD_BYTES = 1024
const SUPPORTED = ['br', 'gzip', 'deflate', 'identity']
const PREFERRED = ['br', 'gzip']
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/

// The synchronous forms: a page of 15 kB takes about 0.12 ms to gzip here, and the asynchronous forms (libuv's thread
// pool) cost twice the CPU for the hand-over (0.25 ms, docs/performance.md).
const encoders = {
  br: zlib.brotliCompressSync,
  gzip: zlib.gzipSync,
  deflate: zlib.deflateSync,
}
const OPTIONS = {
  br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  gzip: {},
  deflate: {},
}

/**
 * The bytes to send for `body`, encoded when the client accepts it and the response may be (its headers are set
 * here: Content-Encoding and Vary; the caller sets Content-Length from what it gets back).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('express').Response} res
 * @param {Uint8Array} body
 * @returns {Promise<Uint8Array>}
 */
export async function compressWholeBody(req, res, body) {
  if (!compression.filter(req, res)) return body
  if (NO_TRANSFORM.test(String(res.getHeader('Cache-Control') ?? ''))) return body
  // Express's own (the `vary` package): appended once, never to `*`.
  res.vary('Accept-Encoding')
  if (body.byteLength < THRESHOLD_BYTES || req.method === 'HEAD') return body
  if ((res.getHeader('Content-Encoding') ?? 'identity') !== 'identity') return body
  // No Accept-Encoding at all: the middleware's default answer is identity.
  if (!req.headers['accept-encoding']) return body
  const method = new Negotiator(req).encoding(SUPPORTED, PREFERRED)
  if (!method || method === 'identity') return body
  const encoded = encoders[method](body, OPTIONS[method])
  res.setHeader('Content-Encoding', method)
  return encoded
}
