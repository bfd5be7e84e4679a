// Runs before every test file: a fresh migrated database of its own, a fixed test
// environment, and a failure on any unexpected console.error.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, inject, vi } from 'vitest'
// Emails are rendered from templates registered by name, as the server's start-up does.
import '~/emails/templates.server'
import { stopOutboxWorker } from '~/outbox/start.server'
import { stopBackgroundTasks } from '~/utils/background.server'
import { rereadEnv } from '~/utils/env.server'
import { stopEvents } from '~/utils/events.server'
import { toHaveRedirect } from '../helpers/requests'
import { closeTestDatabase, openTestDatabase } from '../helpers/test-database'

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

expect.extend({ toHaveRedirect })

const ROOT = path.resolve(import.meta.dirname, '../..')
/** A file whose first step swaps in the demo (`useDemoData`, tests/helpers/test-database.ts). */
const OPENS_THE_DEMO_FIRST = /^beforeAll\(async \(\) => \{\s*await useDemoData\(\)/m

// Each file gets a copy of the empty template, unless it touches no database (tests/setup/database-free.ts) or opens
// the demo first: loading a copy costs about 0.7 s of processor time on PGlite, and those files are most of the suite
// (decision 025). A file that does use the database without one open fails with "The database is not open yet".
// biome-ignore lint/correctness/noEmptyPattern: Vitest reads fixtures from the first argument, which must destructure
beforeAll(async ({}, file) => {
  const filepath = 'filepath' in file ? file.filepath : file.file.filepath
  if (inject('databaseFreeFiles').includes(path.relative(ROOT, filepath).split(path.sep).join('/'))) return
  if (OPENS_THE_DEMO_FIRST.test(fs.readFileSync(filepath, 'utf8'))) return
  await openTestDatabase('empty')
})

afterAll(async () => {
  // Nothing a file set up for its own tests reaches the next file in this worker.
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  await stopOutboxWorker()
  await stopBackgroundTasks()
  await stopEvents()
  await closeTestDatabase()
  fs.rmSync(process.env.DATA_DIR as string, { recursive: true, force: true })
})

beforeEach(() => {
  // An error logged during a test is a bug the test did not see: fail loudly.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`)
  })
})
