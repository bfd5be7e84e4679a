// The secret in a technician's calendar-feed URL (docs/architecture.md "Shared rules": random, stored hashed,
// revocable). Phone calendars fetch the feed without a session, so the URL is the credential: 256 random bits, of which
// the database keeps only a SHA-256 digest. A slow password hash would add nothing for a secret this long and would
// cost CPU on every poll; a leaked table does not give anyone a working link. "Reset link" stores a new hash, which
// revokes the old URL; deactivation, a role change and a password reset clear the hash (models/team.server.ts,
// models/calendar-feed.server.ts), so a URL never works again once its technician lost access — not even after a
// reactivation, which needs "Create calendar link".
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

const TOKEN = /^[A-Za-z0-9_-]{43}$/

/** A new feed token for the URL, and the hash to store in its place. */
export function newFeedToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashFeedToken(token) }
}

/** Whether `value` has a token's shape: a URL that could not hold one is turned away without a query. */
export function isFeedToken(value: string): boolean {
  return TOKEN.test(value)
}

/** The stored form of a token (hex SHA-256), also the key to look a feed up by. */
export function hashFeedToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** Whether `token` (from a URL, so anything) is the one whose hash is `storedHash`, in constant time. */
export function feedTokenMatches(token: string, storedHash: string): boolean {
  if (!isFeedToken(token) || !/^[0-9a-f]{64}$/.test(storedHash)) return false
  return timingSafeEqual(Buffer.from(hashFeedToken(token), 'hex'), Buffer.from(storedHash, 'hex'))
}
