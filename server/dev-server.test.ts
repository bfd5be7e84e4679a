// `npm run dev` runs the production server's Express app (server/app.mjs) with Vite in middleware mode, so the
// development server refuses what production refuses. This starts the real dev server and sends it the attack
// the production tests send (tests/e2e/hardening.spec.ts): a chunked body with no Content-Length.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, superviseServer } from '../scripts/lib/app-server'
import { freePort } from '../scripts/lib/free-port'
import { postChunked } from '../tests/e2e/raw-http'

const ROOT = path.resolve(import.meta.dirname, '..')

// The dev server runs on its own embedded database whichever database this run uses. In CI it runs on one pass only
// (DATABASE_FREE_TESTS, vitest.config.ts); a local run on either database runs it.
describe('the development server (npm run dev)', () => {
  let server: RunningServer
  let runDir: string

  beforeAll(async () => {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pool-bud-dev-'))
    const port = await freePort()
    const origin = `http://localhost:${port}`
    const { DATABASE_URL: _db, SMTP_URL: _smtp, NODE_ENV: _mode, ...inherited } = process.env
    const child = spawn(process.execPath, ['scripts/dev.mjs'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        APP_URL: origin,
        DATA_DIR: path.join(runDir, 'data'),
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    server = await superviseServer(child, {
      origin,
      healthUrl: `${origin}/healthz`,
      logPath: path.join(runDir, 'server.log'),
      // Vite's start and the migration of an empty embedded database: about 100 s on a two-core machine running the
      // other database's pass beside it, and once over 120 s. A start that never answers still fails, within the hook's
      // 300 s (vitest.config.ts).
      timeoutMs: 270_000,
    })
  })
  afterAll(async () => {
    await server?.stop()
    if (runDir) fs.rmSync(runDir, { recursive: true, force: true })
  })

  it('refuses a chunked body past the cap with 413 while it is still being sent', async () => {
    const planned = 64 * 1024 * 1024
    const outcome = await postChunked(server.origin, '/login', { plannedBytes: planned })
    expect(outcome.status).toBe(413)
    expect(outcome.body).toBe('Request too large.')
    expect(outcome.sentWhenAnswered).toBeLessThan(planned)
    expect(outcome.closedByServer).toBe(true)
  })

  it('sends the production headers: no caching of pages, no framing, no cross-origin posts', async () => {
    const page = await fetch(`${server.origin}/login`)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    expect(page.headers.get('X-Frame-Options')).toBe('DENY')
    const crossOrigin = await fetch(`${server.origin}/login`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=login',
    })
    expect(crossOrigin.status).toBe(403)
  })

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)))
    server.child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
