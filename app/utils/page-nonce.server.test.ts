// A page's nonce is unguessable only if no two pages share one: across refills of the pool, every nonce is new and
// carries its full 16 bytes.
import { describe, expect, it } from 'vitest'
import { pageNonce } from './page-nonce.server'

describe('pageNonce', () => {
  it('gives every page its own 16 random bytes, across refills of the pool', () => {
    const nonces = Array.from({ length: 1_000 }, () => pageNonce())
    expect(new Set(nonces).size).toBe(nonces.length)
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
    }
    // Bytes are spread over all values, not left zero (a pool read before it was filled).
    const bytes = Buffer.concat(nonces.map((nonce) => Buffer.from(nonce, 'base64')))
    expect(bytes.filter((byte) => byte === 0).length).toBeLessThan(bytes.length / 64)
  })
})
