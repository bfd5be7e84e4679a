import { randomFillSync } from 'node:crypto'

// A page's CSP nonce (entry.server.tsx): 16 bytes from the operating system's random source, taken from a pool filled
// for 256 pages at a time, the way Node's own `crypto.randomUUID` keeps its entropy cache. One call into OpenSSL a
// page cost about 10 µs, 1 % of the floor page's CPU (docs/performance.md); no two pages get the same bytes.
const NONCE_BYTES = 16
const pool = Buffer.alloc(NONCE_BYTES * 256)
let next = pool.length

/** A fresh nonce, base64 (24 characters, 128 random bits). */
export function pageNonce() {
  if (next === pool.length) {
    randomFillSync(pool)
    next = 0
  }
  const nonce = pool.toString('base64', next, next + NONCE_BYTES)
  next += NONCE_BYTES
  return nonce
}
