import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companies, idempotencyKeys, rateLimitCounters } from '~/db/schema'
import { db } from './db.server'
import { runHousekeeping } from './housekeeping.server'
import { hitRateLimit } from './rate-limit.server'

describe('housekeeping', () => {
  it('deletes ended rate-limit windows and month-old idempotency keys, and keeps the rest', async () => {
    const now = new Date('2026-11-23T12:00:00Z')
    const rule = { name: 'housekeeping-test', max: 5, windowSeconds: 60 }
    await hitRateLimit(rule, 'old', { now: new Date(now.getTime() - 2 * 86_400_000) })
    await hitRateLimit(rule, 'current', { now })
    const [company] = await db().insert(companies).values({ name: 'Housekeeping Pools' }).returning()
    const companyId = company?.id as string
    const oldKey = randomUUID()
    const recentKey = randomUUID()
    await db()
      .insert(idempotencyKeys)
      .values([
        { companyId, key: oldKey, action: 'job.create', createdAt: new Date(now.getTime() - 31 * 86_400_000) },
        { companyId, key: recentKey, action: 'job.create', createdAt: new Date(now.getTime() - 29 * 86_400_000) },
      ])

    await runHousekeeping(now)

    const counters = await db().select({ key: rateLimitCounters.key }).from(rateLimitCounters)
    expect(counters.map((c) => c.key)).toEqual(['housekeeping-test:current'])
    const keys = await db()
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.companyId, companyId))
    expect(keys.map((k) => k.key)).toEqual([recentKey])
  })
})
