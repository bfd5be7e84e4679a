import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { companies, idempotencyKeys, rateLimitCounters, stripeEvents } from '~/db/schema'
import { db } from './db.server'
import { runHousekeeping } from './housekeeping.server'
import { IMPORT_UPLOAD_HOURS, readImportUpload, saveImportUpload } from './import-uploads.server'
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
        { companyId, key: oldKey, action: 'visit.create', createdAt: new Date(now.getTime() - 31 * 86_400_000) },
        { companyId, key: recentKey, action: 'visit.create', createdAt: new Date(now.getTime() - 29 * 86_400_000) },
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

  it('deletes the ids of Stripe events applied more than 90 days ago, and keeps younger ones', async () => {
    const now = new Date('2026-11-23T12:00:00Z')
    const old = `evt_old_${randomUUID()}`
    const young = `evt_young_${randomUUID()}`
    await db()
      .insert(stripeEvents)
      .values([
        { id: old, type: 'charge.refunded', receivedAt: new Date(now.getTime() - 91 * 86_400_000) },
        { id: young, type: 'charge.refunded', receivedAt: new Date(now.getTime() - 89 * 86_400_000) },
      ])

    await runHousekeeping(now)

    const left = await db().select({ id: stripeEvents.id }).from(stripeEvents)
    expect(left.map((row) => row.id)).toContain(young)
    expect(left.map((row) => row.id)).not.toContain(old)
  })

  it('deletes customer spreadsheets uploaded for an import more than a day ago', async () => {
    const [company] = await db().insert(companies).values({ name: 'Upload Pools' }).returning()
    const companyId = company?.id as string
    const old = await saveImportUpload(companyId, new TextEncoder().encode('Name,Address\nOld,1 Elm St\n'))
    const recent = await saveImportUpload(companyId, new TextEncoder().encode('Name,Address\nNew,2 Elm St\n'))
    const now = new Date()
    const dayAgo = new Date(now.getTime() - (IMPORT_UPLOAD_HOURS + 1) * 3_600_000)
    const file = path.join(process.env.DATA_DIR as string, 'uploads/customer-imports', companyId, `${old}.csv`)
    fs.utimesSync(file, dayAgo, dayAgo)

    await runHousekeeping(now)

    expect(await readImportUpload(companyId, old)).toBeNull()
    expect(new TextDecoder().decode((await readImportUpload(companyId, recent)) ?? undefined)).toContain('New')
  })
})
