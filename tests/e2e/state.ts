// What the global setup started, for the global teardown. Both run in Playwright's runner process,
// so the live handles are kept on globalThis; a JSON copy (without them) is the fallback.
import type { ChildProcess } from 'node:child_process'
import type { SMTPServer } from 'smtp-server'

export type E2eState = {
  runDir: string
  mailDir: string
  serverLog?: string
  serverPid?: number | undefined
  database?: { adminUrl: string; name: string }
  /** The template database of the seeded demo the specs' own servers copy (seeded-copy.ts). */
  seededDatabase?: { adminUrl: string; name: string }
  server?: ChildProcess
  /** Set by the teardown, so an earlier exit of the server is reported as unexpected. */
  stopping?: boolean
  smtp?: SMTPServer
  /** The local server that speaks Twilio's Messages API, where the app sends its texts. */
  twilio?: { close: () => Promise<void> }
}

export const STATE_FILE_ENV = 'E2E_STATE_FILE'

declare global {
  var __poolBudE2e: E2eState | undefined
}

export function setE2eState(state: E2eState | undefined) {
  globalThis.__poolBudE2e = state
}

export function getE2eState(): E2eState | undefined {
  return globalThis.__poolBudE2e
}
