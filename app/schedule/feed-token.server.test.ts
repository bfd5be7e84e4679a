import { describe, expect, it } from 'vitest'
import { feedTokenMatches, hashFeedToken, newFeedToken } from './feed-token.server'

describe('calendar-feed tokens', () => {
  it('are 256 random bits for a URL, with only their SHA-256 to store', () => {
    const { token, hash } = newFeedToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).toBe(hashFeedToken(token))
    // FIPS 180-2's test vector: the stored form is plain SHA-256, the same on every server.
    expect(hashFeedToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const many = Array.from({ length: 200 }, () => newFeedToken().token)
    expect(new Set(many).size).toBe(many.length)
  })

  it('match only the token they were made from; a reset link revokes the old one', () => {
    const { token, hash } = newFeedToken()
    expect(feedTokenMatches(token, hash)).toBe(true)
    const last = token.at(-1) === 'A' ? 'B' : 'A'
    expect(feedTokenMatches(`${token.slice(0, -1)}${last}`, hash)).toBe(false)
    const reset = newFeedToken()
    expect(feedTokenMatches(token, reset.hash)).toBe(false)
    expect(feedTokenMatches(reset.token, reset.hash)).toBe(true)
  })

  it('refuse anything that is not a token, or a stored value that is not a hash, without throwing', () => {
    const { token, hash } = newFeedToken()
    for (const junk of ['', 'x', `${token}=`, `${token}A`, token.slice(1), `${token.slice(0, -1)}/`, hash]) {
      expect(feedTokenMatches(junk, hash)).toBe(false)
    }
    expect(feedTokenMatches(token, '')).toBe(false)
    expect(feedTokenMatches(token, hash.toUpperCase())).toBe(false)
    expect(feedTokenMatches(token, `${hash}00`)).toBe(false)
  })
})
