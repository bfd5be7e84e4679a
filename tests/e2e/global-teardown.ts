// Stops what the global setup started: the server (SIGTERM lets it close the database), the SMTP
// sink, the PostgreSQL database of this run, and the temp folders. The server log is kept in test-results.
import fs from 'node:fs'
import path from 'node:path'
import type { FullConfig } from '@playwright/test'
import { dropDatabase } from '../../scripts/lib/app-server'
import { type E2eState, getE2eState, STATE_FILE_ENV, setE2eState } from './state'

function readState(): E2eState | undefined {
  const live = getE2eState()
  if (live) return live
  const file = process.env[STATE_FILE_ENV]
  if (!file || !fs.existsSync(file)) return undefined
  return JSON.parse(fs.readFileSync(file, 'utf8')) as E2eState
}

async function stopServer(state: E2eState) {
  state.stopping = true
  const child = state.server
  if (child) {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 15_000)),
    ])
    if (timedOut) {
      console.error('[e2e] the server did not exit within 15 s of SIGTERM; killing it')
      child.kill('SIGKILL')
      await exited
    }
    return
  }
  if (state.serverPid) {
    try {
      process.kill(state.serverPid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}

export default async function globalTeardown(config: FullConfig) {
  const state = readState()
  if (!state) return
  await stopServer(state)
  // Let the exit line reach the log before it is copied.
  await new Promise((resolve) => setTimeout(resolve, 100))
  await new Promise<void>((resolve) => (state.smtp ? state.smtp.close(() => resolve()) : resolve()))
  await state.twilio?.close()

  if (state.database) await dropDatabase(state.database.adminUrl, state.database.name)
  if (state.seededDatabase) await dropDatabase(state.seededDatabase.adminUrl, state.seededDatabase.name)

  const root = path.dirname(config.configFile ?? path.resolve('playwright.config.ts'))
  if (state.serverLog && fs.existsSync(state.serverLog)) {
    const keep = path.join(root, process.env.E2E_OUTPUT_DIR ?? 'test-results', 'e2e-server.log')
    fs.mkdirSync(path.dirname(keep), { recursive: true })
    fs.copyFileSync(state.serverLog, keep)
  }
  fs.rmSync(state.runDir, { recursive: true, force: true })
  setE2eState(undefined)
}
