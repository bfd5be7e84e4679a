// Runs before every test file: a fresh migrated database of its own, a fixed test
// environment, and a failure on any unexpected console.error.

import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, inject, vi } from 'vitest'
import { type DatabaseHandle, installDatabase, openDatabase } from '~/utils/db.server'
import { rereadEnv } from '~/utils/env.server'
import { stopEvents } from '~/utils/events.server'

declare global {
  var __poolBudTestEnv: NodeJS.ProcessEnv | undefined
}

// Test files share a worker process (vitest.config.ts: isolate is off), so each starts from the environment the
// worker began with, whatever the file before it set, and env() reads it again.
globalThis.__poolBudTestEnv ??= { ...process.env }
for (const key of Object.keys(process.env)) if (!(key in globalThis.__poolBudTestEnv)) delete process.env[key]
Object.assign(process.env, globalThis.__poolBudTestEnv)
rereadEnv()

process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-data-'))
process.env.AUTH_SECRET = 'test-secret-0123456789abcdef0123456789abcdef'
process.env.APP_URL = 'http://localhost:3999'
delete process.env.SMTP_URL
delete process.env.SEED_DEMO

const testDatabase = inject('testDatabase')
let handle: DatabaseHandle | undefined
let dropDatabase: (() => Promise<void>) | undefined

beforeAll(async () => {
  if (testDatabase.kind === 'pglite') {
    const dump = new Blob([fs.readFileSync(testDatabase.dumpFile)])
    handle = await openDatabase({ loadDataDir: dump })
  } else {
    const name = `pool_bud_test_${testDatabase.runId}_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: testDatabase.adminUrl })
    await admin.connect()
    await admin.query(`create database "${name}" template "${testDatabase.template}"`)
    await admin.end()
    const url = new URL(testDatabase.adminUrl)
    url.pathname = `/${name}`
    handle = await openDatabase({ databaseUrl: url.toString() })
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: testDatabase.adminUrl })
      await client.connect()
      await client.query(`drop database if exists "${name}" with (force)`)
      await client.end()
    }
  }
  installDatabase(handle)
})

afterAll(async () => {
  // Nothing a file set up for its own tests reaches the next file in this worker.
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  await stopEvents()
  installDatabase(undefined)
  await handle?.close()
  await dropDatabase?.()
  fs.rmSync(process.env.DATA_DIR as string, { recursive: true, force: true })
})

beforeEach(() => {
  // An error logged during a test is a bug the test did not see: fail loudly.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`)
  })
})
